// The effects a current-v1 workflow visibly requires (reference §1.6, §5 effect classes): every
// program an `exec:` runs, every tool an `invoke:` calls or an agent may call, every literal path
// a file builtin touches, every host a fetch/notify reaches, every name an `exec.env` sets. Each
// effect keeps the span of the token that causes it, so a finding lands on that token.
import { isMap, isScalar, isSeq } from 'yaml';
import type { Scalar, YAMLMap } from 'yaml';
import type { CheckContext } from '../checks/context.js';
import { getNode, getPair, keyName, keySpan, spanOf } from '../document.js';
import type { Task } from '../ir.js';
import type { Span } from '../text.js';
import { parseToolId } from '../toolid.js';
import { semanticModel } from '../checks/semantic/model.js';
import { valueSpan } from '../checks/semantic/tools.js';
import { perTask } from '../checks/memo.js';
import { hasGlobChars } from './fs-paths.js';
import { hostOfUrl } from './hosts.js';
import { resolveString, type Resolved } from './resolve.js';

export interface ExecEffect {
  kind: 'exec';
  task: Task;
  /** `shell:` form (or a command that is not an argv list). */
  shell: boolean;
  /** argv[0] when known before the run. */
  program?: string;
  resolved?: Resolved;
  /** argv[0] token, the `shell:` value, or the `exec` key. */
  span: Span;
}

export interface ToolEffect {
  kind: 'tool';
  task: Task;
  id: string;
  via: 'invoke' | 'agent';
  /** Agent whitelist entry with `*` (a pattern, not one id). */
  pattern: boolean;
  span: Span;
}

/** How a path is used: one file, a glob walked from its literal root, or a file-or-directory walk. */
export type FsUse = 'file' | 'glob' | 'walk' | 'dir-write';

export interface FsEffect {
  kind: 'fs';
  access: 'read' | 'write';
  task: Task;
  /** `nika:read`, … or `agent.skills`. */
  tool: string;
  arg: string;
  use: FsUse;
  /** The path as known before the run (literal, or resolved through const/defaults). */
  path?: string;
  resolved: Resolved;
  span: Span;
}

export interface NetEffect {
  kind: 'net';
  task: Task;
  tool: string;
  arg: string;
  url?: string;
  host?: string;
  resolved: Resolved;
  span: Span;
}

export interface EnvEffect {
  kind: 'env';
  task: Task;
  name: string;
  span: Span;
}

export type Effect = ExecEffect | ToolEffect | FsEffect | NetEffect | EnvEffect;

/** Builtin arguments that name a path, per builtin: [arg path inside args, access, use]. */
const PATH_ARGS: Record<string, Array<[string[], 'read' | 'write', FsUse]>> = {
  read: [[['path'], 'read', 'file']],
  write: [[['path'], 'write', 'file']],
  // §5: nika:edit carries fs.write only.
  edit: [[['path'], 'write', 'file']],
  glob: [[['pattern'], 'read', 'glob']],
  grep: [[['path'], 'read', 'walk']],
  chart: [[['out'], 'write', 'file'], [['data', 'path'], 'read', 'file']],
  image_fx: [[['input'], 'read', 'file'], [['out'], 'write', 'file']],
  image_generate: [[['output_dir'], 'write', 'dir-write'], [['image'], 'read', 'file'], [['mask'], 'read', 'file']],
  tts_generate: [[['output_dir'], 'write', 'dir-write']],
};

/** Builtins that reach a host, and the argument holding the URL. */
const URL_ARGS: Record<string, string> = { fetch: 'url', notify: 'target' };

function nodeAt(map: unknown, path: string[]): unknown {
  let n = map;
  for (const k of path) n = getNode(n, k);
  return n;
}

function scalarString(n: unknown): n is Scalar<string> {
  return isScalar(n) && typeof n.value === 'string';
}

const cache = new WeakMap<CheckContext['doc'], { wf: CheckContext['workflow']; effects: Effect[] }>();

/** Every visible effect, in document order (cached per analysis). */
export function collectEffects(ctx: CheckContext): Effect[] {
  const hit = cache.get(ctx.doc);
  if (hit && hit.wf === ctx.workflow) return hit.effects;
  const effects: Effect[] = [];
  for (const task of ctx.workflow.tasks) for (const e of taskEffects(ctx, task)) effects.push(e);
  cache.set(ctx.doc, { wf: ctx.workflow, effects });
  return effects;
}

/**
 * The effects of one task, in document order. They read only the task and the envelope (consts,
 * input defaults), so they are memoized per task: callers must not mutate them.
 */
export function taskEffects(ctx: CheckContext, task: Task): readonly Effect[] {
  return perTask(ctx, task, 'audit.effects', () => buildTask(ctx, task));
}

function buildTask(ctx: CheckContext, task: Task): Effect[] {
  const out: Effect[] = [];
  const wf = ctx.workflow;
  const node = semanticModel(ctx).taskNode(task);
  if (!isMap(node)) return out;
  const exec = getPair(node, 'exec');
  if (exec && task.verb === 'exec') out.push(...execEffects(ctx, task, exec.value, keySpan(exec)!));
  for (const use of taskToolUses(ctx, node)) {
    if (use.id.startsWith('!')) continue;
    out.push({ kind: 'tool', task, id: use.id, via: use.kind, pattern: use.pattern, span: use.span });
    if (use.kind === 'invoke' && use.invokeNode) out.push(...builtinEffects(ctx, task, use.id, use.invokeNode));
  }
  const agent = getNode(node, 'agent');
  const skills = getNode(agent, 'skills');
  if (isSeq(skills)) {
    for (const item of skills.items) {
      if (!scalarString(item)) continue;
      const resolved = resolveString(item.value, wf, task);
      out.push({ kind: 'fs', access: 'read', task, tool: 'agent.skills', arg: 'skills', use: 'file', path: resolved.value, resolved, span: valueSpan(ctx.doc, item) });
    }
  }
  return out;
}

interface TaskToolUse { kind: 'invoke' | 'agent'; id: string; span: Span; pattern: boolean; invokeNode?: YAMLMap<unknown, unknown> }

/**
 * The written (not synthesized) tool ids of one task, as `toolUses` of the semantic checks finds
 * them: that list covers the whole document, and scanning it for each task was quadratic.
 */
function taskToolUses(ctx: CheckContext, node: unknown): TaskToolUse[] {
  const out: TaskToolUse[] = [];
  const invoke = getNode(node, 'invoke');
  if (isMap(invoke)) {
    const tool = getNode(invoke, 'tool');
    const server = getNode(invoke, 'mcp');
    // Legacy `{mcp: s, tool: t}` is synthesized into an id: no written token to hold an effect.
    const legacy = ctx.dialect.dialect !== 'v1' && isScalar(server) && isScalar(tool) && typeof tool.value === 'string';
    if (!legacy && isScalar(tool) && typeof tool.value === 'string' && !tool.value.includes('${{')) {
      out.push({ kind: 'invoke', id: tool.value, span: valueSpan(ctx.doc, tool), pattern: false, invokeNode: invoke });
    }
  }
  const tools = getNode(getNode(node, 'agent'), 'tools');
  for (const item of isSeq(tools) ? tools.items : []) {
    if (!isScalar(item) || typeof item.value !== 'string' || item.value.includes('${{')) continue;
    out.push({ kind: 'agent', id: item.value, span: valueSpan(ctx.doc, item), pattern: item.value.includes('*') || item.value.startsWith('!') });
  }
  return out;
}

function execEffects(ctx: CheckContext, task: Task, body: unknown, keyAt: Span): Effect[] {
  const out: Effect[] = [];
  const wf = ctx.workflow;
  const command = getNode(body, 'command');
  const shell = getNode(body, 'shell');
  if (isSeq(command) && command.items.length) {
    const first = command.items[0];
    if (scalarString(first)) {
      const resolved = resolveString(first.value, wf, task);
      out.push({ kind: 'exec', task, shell: false, program: resolved.value, resolved, span: valueSpan(ctx.doc, first) });
    } else {
      out.push({ kind: 'exec', task, shell: false, span: spanOf(first) ?? keyAt });
    }
  } else if (scalarString(shell) || scalarString(command)) {
    const s = (scalarString(shell) ? shell : command) as Scalar<string>;
    out.push({ kind: 'exec', task, shell: true, span: valueSpan(ctx.doc, s) });
  } else if (isMap(body)) {
    out.push({ kind: 'exec', task, shell: false, span: keyAt });
  }
  const env = getNode(body, 'env');
  if (isMap(env)) {
    for (const pair of env.items) {
      const name = keyName(pair);
      const span = keySpan(pair);
      if (name !== undefined && span) out.push({ kind: 'env', task, name, span });
    }
  }
  return out;
}

function builtinEffects(ctx: CheckContext, task: Task, id: string, invoke: YAMLMap<unknown, unknown>): Effect[] {
  const parsed = parseToolId(id);
  if (parsed.kind !== 'nika') return [];
  const args = getNode(invoke, 'args');
  if (!isMap(args)) return [];
  const out: Effect[] = [];
  const wf = ctx.workflow;
  for (const [path, access, use] of PATH_ARGS[parsed.name] ?? []) {
    const n = nodeAt(args, path);
    const items = isSeq(n) ? n.items : [n];
    for (const item of items) {
      if (!scalarString(item)) continue;
      const resolved = resolveString(item.value, wf, task);
      const effUse: FsUse = use === 'walk' && resolved.value !== undefined && hasGlobChars(resolved.value) ? 'glob' : use;
      out.push({ kind: 'fs', access, task, tool: id, arg: path.join('.'), use: effUse, path: resolved.value, resolved, span: valueSpan(ctx.doc, item) });
    }
  }
  if (parsed.name === 'image_generate') {
    const imgs = getNode(args, 'images');
    for (const item of isSeq(imgs) ? imgs.items : []) {
      if (!scalarString(item)) continue;
      const resolved = resolveString(item.value, wf, task);
      out.push({ kind: 'fs', access: 'read', task, tool: id, arg: 'images', use: 'file', path: resolved.value, resolved, span: valueSpan(ctx.doc, item) });
    }
  }
  const urlArg = URL_ARGS[parsed.name];
  if (urlArg) {
    const n = getNode(args, urlArg);
    if (scalarString(n)) {
      const resolved = resolveString(n.value, wf, task);
      const host = resolved.value !== undefined ? hostOfUrl(resolved.value) : undefined;
      // nika:notify email/sms targets are addresses, not URLs: no host to bound.
      const channel = getNode(args, 'channel');
      const addressOnly = parsed.name === 'notify' && isScalar(channel) && (channel.value === 'email' || channel.value === 'sms');
      if (!addressOnly) out.push({ kind: 'net', task, tool: id, arg: urlArg, url: resolved.value, host, resolved, span: valueSpan(ctx.doc, n) });
    }
  }
  return out;
}
