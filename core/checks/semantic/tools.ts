// Tool ids in `invoke.tool` and `agent.tools` (reference §3.3, §3.4, §5, §6): grammar, the closed
// builtin set with its renamed/cut names, agent-only builtins, and each builtin's static argument
// contract (only literal values are judged; anything holding `${{` is left to run time).
import { isMap, isScalar, isSeq } from 'yaml';
import type { Pair, Scalar, YAMLMap } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic, type Severity } from '../../diagnostic.js';
import { getNode, getPair, keyName, keySpan, scalarValueOffset, spanOf, type NikaDocument } from '../../document.js';
import { BUILTINS, RENAMED_BUILTINS, builtinSpec, type ArgType, type BuiltinSpec } from '../../catalog/builtins.js';
import type { Task } from '../../ir.js';
import { parseToolId, toolPatternProblem, type ToolId } from '../../toolid.js';
import type { Span } from '../../text.js';
import { addEntries } from './edits.js';
import { semanticModel } from './model.js';
import { closest, didYouMean, renameFix, replaceFix } from './suggest.js';

/** One tool id written in the document, resolved for every dialect. */
export interface ToolUse {
  task: Task;
  kind: 'invoke' | 'agent';
  /** The id as it means (`mcp:s/t` for legacy `{mcp: s, tool: t}`). */
  id: string;
  /** Span of the written text the id came from (the `tool:` value, or an `agent.tools` entry). */
  span: Span;
  /** True when the text is a glob / negation (agent whitelists). */
  pattern: boolean;
  /** The written form was not `nika:`/`mcp:` text (legacy `mcp:` + `tool:` keys). */
  synthesized: boolean;
  invokeNode?: YAMLMap<unknown, unknown>;
  scalar?: Scalar;
}

export function valueSpan(doc: NikaDocument, s: Scalar): Span {
  const v = String(s.value);
  const start = scalarValueOffset(doc, s, 0);
  return { start, end: v.length ? scalarValueOffset(doc, s, v.length - 1) + 1 : start };
}

const usesCache = new WeakMap<CheckContext['doc'], { wf: CheckContext['workflow']; uses: ToolUse[] }>();

/** Every tool id of the document (cached per analysis: the id and the MCP checks both read them). */
export function toolUses(ctx: CheckContext): ToolUse[] {
  const hit = usesCache.get(ctx.doc);
  if (hit && hit.wf === ctx.workflow) return hit.uses;
  const uses = collectToolUses(ctx);
  usesCache.set(ctx.doc, { wf: ctx.workflow, uses });
  return uses;
}

function collectToolUses(ctx: CheckContext): ToolUse[] {
  const out: ToolUse[] = [];
  const dialect = ctx.dialect.dialect;
  for (const task of ctx.workflow.tasks) {
    const node = semanticModel(ctx).taskNode(task);
    const invoke = getNode(node, 'invoke');
    if (isMap(invoke)) {
      const tool = getNode(invoke, 'tool');
      const server = getNode(invoke, 'mcp');
      if (dialect !== 'v1' && isScalar(server) && isScalar(tool) && typeof tool.value === 'string') {
        out.push({ task, kind: 'invoke', id: `mcp:${String(server.value)}/${tool.value}`, span: valueSpan(ctx.doc, tool), pattern: false, synthesized: true, invokeNode: invoke, scalar: tool });
      } else if (isScalar(tool) && typeof tool.value === 'string' && !tool.value.includes('${{')) {
        out.push({ task, kind: 'invoke', id: tool.value, span: valueSpan(ctx.doc, tool), pattern: false, synthesized: false, invokeNode: invoke, scalar: tool });
      }
    }
    const agent = getNode(node, 'agent');
    const tools = getNode(agent, 'tools');
    for (const item of isSeq(tools) ? tools.items : []) {
      if (!isScalar(item) || typeof item.value !== 'string' || item.value.includes('${{')) continue;
      out.push({ task, kind: 'agent', id: item.value, span: valueSpan(ctx.doc, item), pattern: item.value.includes('*') || item.value.startsWith('!'), synthesized: false, scalar: item });
    }
    if (dialect !== 'v1') {
      // Legacy agent `mcp: [server]` grants the whole server.
      for (const item of isSeq(getNode(agent, 'mcp')) ? (getNode(agent, 'mcp') as { items: unknown[] }).items : []) {
        if (isScalar(item)) out.push({ task, kind: 'agent', id: `mcp:${String(item.value)}/*`, span: valueSpan(ctx.doc, item), pattern: true, synthesized: true, scalar: item });
      }
    }
  }
  return out;
}

/** The id a legacy-looking spelling stands for, when it can be rewritten mechanically. */
function rewriteOf(raw: string, problem: string): string | undefined {
  const legacy = /^([a-z0-9][a-z0-9_-]*)::(.+)$/.exec(raw);
  if (legacy) return `mcp:${legacy[1].replace(/_/g, '-')}/${legacy[2]}`;
  if (!raw.includes(':') && BUILTINS.has(raw)) return `nika:${raw}`;
  const lower = /did you mean (nika:[a-z0-9_]+)\?/.exec(problem);
  return lower?.[1];
}

export function checkToolIds(ctx: CheckContext): NikaDiagnostic[] {
  const dialect = ctx.dialect.dialect;
  const out: NikaDiagnostic[] = [];
  for (const use of toolUses(ctx)) {
    if (use.synthesized) continue;
    const raw = use.id;
    const problem = use.pattern ? toolPatternProblem(raw) : (() => { const p = parseToolId(raw); return p.kind === 'invalid' ? p.reason : undefined; })();
    if (problem) {
      const legacySpelling = raw.includes('::');
      // Era A (v0.12) wrote `server::tool`; the draft still accepts it; current v1 refuses it.
      if (legacySpelling && dialect === 'legacy') continue;
      if (dialect === 'legacy' && !/^(nika|mcp):/.test(raw)) continue;
      const severity: Severity = legacySpelling && dialect === 'v1-draft' ? 'warning' : 'error';
      const fixed = use.pattern ? undefined : rewriteOf(raw, problem);
      out.push(diag('NIKA-PARSE-019', `invalid tool id '${raw}': ${problem}.`, use.span, severity, fixed ? replaceFix(`Change to ${fixed}`, use.span, fixed) : undefined));
      continue;
    }
    if (use.pattern) continue;
    const id = parseToolId(raw);
    if (id.kind !== 'nika') continue;
    out.push(...checkBuiltinName(ctx, use, id));
  }
  return out;
}

function checkBuiltinName(ctx: CheckContext, use: ToolUse, id: Extract<ToolId, { kind: 'nika' }>): NikaDiagnostic[] {
  const spec = BUILTINS.get(id.name);
  if (!spec) {
    const renamed = RENAMED_BUILTINS.get(`nika:${id.name}`);
    if (renamed) {
      const fix = renamed.replacement ? replaceFix(`Change to ${renamed.replacement}${renamed.args ? ` (${Object.entries(renamed.args).map(([k, v]) => `${k}: ${String(v)}`).join(', ')})` : ''}`, use.span, renamed.replacement) : undefined;
      return [diag('NIKA-INVOKE-001', `nika:${id.name} no longer exists: ${renamed.hint}.`, use.span, 'error', fix)];
    }
    const s = closest(id.name, BUILTINS.keys());
    return [diag('NIKA-INVOKE-001', `unknown builtin 'nika:${id.name}' (the nika: set is closed: 28 builtins).${didYouMean(s && `nika:${s}`)}`, use.span, 'error', s ? replaceFix(`Change to nika:${s}`, use.span, `nika:${s}`) : undefined)];
  }
  if (use.kind !== 'invoke') return [];
  if (spec.agentOnly) {
    return [diag(`NIKA-BUILTIN-${spec.name.toUpperCase()}-001`, `nika:${spec.name} only works inside an agent's tools: whitelist, not as a standalone invoke.`, use.span)];
  }
  return use.invokeNode ? checkBuiltinArgs(ctx.doc, spec, use) : [];
}

const SKELETON: Record<ArgType, string> = { string: '""', integer: '0', number: '0', boolean: 'false', object: '{}', array: '[]', any: '""' };

/** Names people reach for that the builtins spell differently. */
const ARG_ALIASES: Record<string, Record<string, string>> = {
  jq: { query: 'expression', expr: 'expression', program: 'expression', filter: 'expression', data: 'input' },
  fetch: { uri: 'url', href: 'url', extract: 'mode' },
  read: { file: 'path' },
  write: { file: 'path', text: 'content', data: 'content' },
  emit: { event: 'event_type' },
  wait: { seconds: 'duration', sleep: 'duration' },
};

function hasExpression(node: unknown): boolean {
  if (isScalar(node)) return typeof node.value === 'string' && node.value.includes('${{');
  if (isMap(node)) return node.items.some((p) => hasExpression(p.value));
  if (isSeq(node)) return node.items.some(hasExpression);
  return false;
}

function checkBuiltinArgs(doc: NikaDocument, spec: BuiltinSpec, use: ToolUse): NikaDiagnostic[] {
  const invoke = use.invokeNode!;
  const argsPair = getPair(invoke, 'args');
  const args = argsPair?.value;
  if (argsPair && !isMap(args)) return []; // a whole-args expression, or a shape the structure checks report
  const out: NikaDiagnostic[] = [];
  const pairs: Array<Pair<unknown, unknown>> = isMap(args) ? args.items : [];
  const present = new Map<string, Pair<unknown, unknown>>();
  for (const p of pairs) { const k = keyName(p); if (k !== undefined) present.set(k, p); }
  const anchor = argsPair ? keySpan(argsPair)! : use.span;
  const argNames = Object.keys(spec.args);
  // A misspelt required argument is reported once, as the misspelling.
  const meant = new Set<string>();

  for (const [name, pair] of present) {
    if (spec.args[name]) continue;
    const alias = ARG_ALIASES[spec.name]?.[name];
    const s = alias ?? closest(name, argNames);
    if (s) meant.add(s);
    // §11.5: the builtins doc and a spec/03 example disagree on nika:emit (`event` vs `event_type`); follow the builtins doc, but only warn.
    const severity: Severity = spec.name === 'emit' && (name === 'event' || name === 'task_id') ? 'warning' : 'error';
    out.push(diag('NIKA-BUILTIN-001', `nika:${spec.name} has no argument '${name}'.${didYouMean(s)} Arguments: ${argNames.join(', ')}.`, keySpan(pair)!, severity, renameFix(keySpan(pair)!, s)));
  }

  const missing = argNames.filter((n) => spec.args[n].required && !present.has(n) && !meant.has(n));
  if (missing.length) {
    const edit = addEntries(doc, invoke, 'args', missing.map((n) => [n, SKELETON[spec.args[n].type]]));
    out.push(diag('NIKA-BUILTIN-001', `nika:${spec.name} needs ${missing.map((n) => `'${n}'`).join(', ')}.`, anchor, 'error',
      edit ? { fixes: [{ title: `Add ${missing.join(', ')}`, edits: [edit], preferred: true }] } : undefined));
  }

  for (const group of spec.oneOf ?? []) {
    const given = group.filter((n) => present.has(n));
    if (given.length === 0) out.push(diag('NIKA-BUILTIN-001', `nika:${spec.name} needs exactly one of ${group.join(' or ')}.`, anchor));
    for (const extra of given.slice(1)) out.push(diag('NIKA-BUILTIN-001', `nika:${spec.name} takes exactly one of ${group.join(' or ')}; remove '${extra}' or '${given[0]}'.`, keySpan(present.get(extra)!)!));
  }
  if (spec.atMostOne) {
    const given = spec.atMostOne.filter((n) => present.has(n));
    for (const extra of given.slice(1)) out.push(diag('NIKA-BUILTIN-001', `nika:${spec.name} takes at most one of ${spec.atMostOne.join(', ')}; '${given[0]}' is already given.`, keySpan(present.get(extra)!)!));
  }

  for (const [name, pair] of present) {
    const a = spec.args[name];
    const v = pair.value;
    if (!a?.enum || !isScalar(v) || hasExpression(v)) continue;
    const value = String(v.value);
    if (a.enum.includes(value)) continue;
    const s = closest(value, a.enum);
    const span = valueSpan(doc, v as Scalar);
    out.push(diag('NIKA-BUILTIN-001', `'${value}' is not a valid ${name} for nika:${spec.name}; expected one of ${a.enum.join(', ')}.${didYouMean(s)}`, span, 'error', renameFix(span, s)));
  }

  // Mode-bound fetch options (§5): `jq:` only with mode: jq, `selector:` only with mode: selector.
  if (spec.name === 'fetch') {
    const mode = present.get('mode')?.value;
    const modeText = isScalar(mode) && !hasExpression(mode) ? String(mode.value) : undefined;
    for (const opt of ['jq', 'selector']) {
      const p = present.get(opt);
      if (p && (mode === undefined || (modeText !== undefined && modeText !== opt))) {
        out.push(diag('NIKA-BUILTIN-001', `nika:fetch '${opt}' only applies with mode: ${opt}.`, keySpan(p)!));
      }
    }
  }
  return out;
}

export { builtinSpec };
