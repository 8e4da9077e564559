// "Migrate to current v1": one edit that rewrites a v1-draft or legacy (`nika/workflow@0.x`)
// file as an equivalent current-v1 document (reference §9.2). It starts from the normalized IR,
// which already speaks current semantics (use → with, flows/depends_on → after, fetch → nika:fetch,
// {{use.x}} → ${{ with.x }}), and prints it back; what has no current form is dropped with a note.
// Pure: no I/O, the caller decides where notes and the MCP server JSON go.
import { isMap, isScalar, isSeq } from 'yaml';
import { analyze } from './analyze.js';
import { EMPTY_CATALOG } from './catalog/mcp.js';
import { traceSecrets } from './checks/audit/secrets.js';
import { keyName, nodeAtPath, plain } from './document.js';
import { parseDuration } from './duration.js';
import { hasIslands } from './expr/index.js';
import type { McpServerConfig, Task, Workflow } from './ir.js';
import { hoistTaskReads, mapStrings, readsReference, renameRoots, rewriteDraftTemplates, visitStrings } from './migrate/expressions.js';
import { inferPermits } from './migrate/permits.js';
import { commentLines, printWorkflow } from './migrate/print.js';
import { currentType, placeValues } from './migrate/values.js';

export { convertTaskListToMap } from './migrate/tasklist.js';

type Obj = Record<string, unknown>;

export interface MigrationResult {
  text: string;
  /** What changed meaning or could not be carried over, one sentence each, for the user to review. */
  notes: string[];
  /** Servers of a removed workflow `mcp:` block, in `.mcp.json` shape (`{ mcpServers: … }`). */
  mcpConfig?: { mcpServers: Record<string, Obj> };
}

export interface MigrateOptions {
  /** The file's name or path; its stem names the workflow when the file has no name. */
  fileName?: string;
}

const FALLBACK_NAME = 'migrated-workflow';

/** Top-level keys the migration translates; anything else is reported as dropped. */
const HANDLED_TOP = new Set([
  'schema', 'apiVersion', 'nika', 'workflow', 'description', 'provider', 'model', 'inputs', 'const', 'secrets',
  'permits', 'run', 'vars', 'env', 'config', 'mcp', 'tasks', 'flows', 'outputs',
]);
const HANDLED_TASK = new Set([
  'id', 'name', 'description', 'use', 'with', 'after', 'depends_on', 'group', 'when', 'for_each', 'as', 'concurrency',
  'max_parallel', 'fail_fast', 'retry', 'on_error', 'timeout', 'timeout_ms', 'extract', 'output', 'returns', 'lift',
  'infer', 'exec', 'invoke', 'agent', 'fetch', 'extended_thinking', 'thinking_budget',
]);
const HANDLED_BODY: Record<string, Set<string>> = {
  infer: new Set(['prompt', 'system', 'model', 'provider', 'temperature', 'max_tokens', 'schema', 'thinking', 'vision', 'extended_thinking', 'thinking_budget']),
  exec: new Set(['command', 'shell', 'cwd', 'env', 'stdin', 'capture', 'decode', 'timeout']),
  invoke: new Set(['tool', 'workflow', 'args', 'params', 'mcp', 'resource']),
  // extended_thinking / thinking_budget get their own note below.
  agent: new Set(['prompt', 'system', 'model', 'provider', 'tools', 'mcp', 'max_turns', 'max_tokens_total', 'token_budget', 'temperature', 'schema', 'stop_conditions', 'extended_thinking', 'thinking_budget']),
  fetch: new Set(['url', 'method', 'headers', 'body', 'extract', 'timeout']),
};

function obj(v: unknown): Obj | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

export function kebabName(s: string): string | undefined {
  const k = s.trim().replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (!k) return undefined;
  return /^[a-z]/.test(k) ? k : `wf-${k}`;
}

function fileStem(fileName: string | undefined): string | undefined {
  if (!fileName) return undefined;
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base.replace(/\.nika\.ya?ml$|\.ya?ml$/i, '') || undefined;
}

/** Milliseconds as a Go duration with strictly descending units (`5400000` → `1h30m`). */
export function formatDuration(ms: number): string {
  if (!(ms > 0)) return '1ms';
  let rest = Math.round(ms);
  let out = '';
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1]] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) { out += `${n}${unit}`; rest -= n * size; }
  }
  return out || '1ms';
}

const MODEL_GUESSES: Array<[RegExp, string]> = [
  [/^claude/i, 'anthropic'], [/^(gpt|o[0-9]|chatgpt)/i, 'openai'], [/^gemini/i, 'gemini'],
  [/^(mistral|codestral|ministral)/i, 'mistral'], [/^(llama|qwen|phi|gemma|deepseek-r)/i, 'ollama'], [/^grok/i, 'xai'],
];

function fixModel(model: unknown, where: string, notes: string[]): string | undefined {
  if (typeof model !== 'string' || model === '') return undefined;
  if (model.includes('/') || model.includes('${{')) return model;
  const guess = MODEL_GUESSES.find(([re]) => re.test(model));
  if (guess) {
    notes.push(`${where}: model "${model}" has no provider; it became "${guess[1]}/${model}".`);
    return `${guess[1]}/${model}`;
  }
  notes.push(`${where}: model "${model}" has no provider prefix; write it as <provider>/${model}.`);
  return model;
}

/** A task id that current v1 accepts (`^[a-z][a-z0-9_]*$`). */
function snakeId(id: string): string {
  const s = id.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(s) ? s : `task_${s || 'x'}`;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---- the migration ------------------------------------------------------------------------------

export function migrateToCurrent(text: string, opts: MigrateOptions = {}): MigrationResult | undefined {
  const analysis = analyze(text, { skipChecks: true });
  const { doc, workflow: wf } = analysis;
  if (analysis.dialect === 'v1' || !doc.root || doc.tooLarge || doc.parseDiagnostics.length > 0) return undefined;
  const raw = (plain(doc.root) ?? {}) as Obj;
  const notes: string[] = [];
  const legacy = analysis.dialect === 'legacy';

  // Name and header comments.
  const workflowObj = obj(raw.workflow);
  const wanted = wf.name ?? fileStem(opts.fileName);
  let name = (wanted && kebabName(wanted)) ?? FALLBACK_NAME;
  if (!wanted) notes.push(`The file had no workflow name; it is now "${name}" (rename it to the file's name).`);
  else if (name !== wanted) notes.push(`The workflow name "${wanted}" became "${name}" (names are kebab-case).`);
  if (name === 'v1') name = kebabName(fileStem(opts.fileName) ?? '') ?? FALLBACK_NAME;
  // A comment right above the first key belongs to that key in the YAML model; at the top of the
  // file it is the file's header, so it moves with the header.
  const firstKey = doc.root.items[0]?.key;
  const header = commentLines(doc.yaml?.commentBefore, isScalar(firstKey) ? firstKey.commentBefore : undefined);
  const description = typeof raw.description === 'string' ? raw.description : typeof workflowObj?.description === 'string' ? workflowObj.description : undefined;
  if (description) header.push(...(header.length ? [''] : []), ...description.trimEnd().split('\n'));

  // Dead value blocks → inputs / const / secrets.
  const rawInputs = obj(raw.inputs) ?? {};
  const rawConst = obj(raw.const) ?? {};
  const rawSecrets = obj(raw.secrets) ?? {};
  const home = placeValues(wf.vars, wf.env, {
    inputs: new Set(Object.keys(rawInputs)), const: new Set(Object.keys(rawConst)), secrets: new Set(Object.keys(rawSecrets)),
  });
  notes.push(...home.notes);
  const inputs: Obj = {};
  for (const [k, v] of Object.entries(rawInputs)) {
    const o = obj(v);
    inputs[k] = o && 'type' in o ? { ...o, type: currentType(o.type) } : v;
  }
  Object.assign(inputs, home.inputs);
  const consts: Obj = { ...rawConst, ...home.const };
  const secrets: Record<string, Obj> = { ...(rawSecrets as Record<string, Obj>), ...home.secrets };

  // Task ids current v1 accepts; references follow the rename.
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const t of wf.tasks) {
    let id = snakeId(t.id);
    for (let n = 2; used.has(id); n++) id = `${snakeId(t.id)}_${n}`;
    used.add(id);
    ids.set(t.id, id);
    if (id !== t.id) notes.push(`Task "${t.id}" is now "${id}" (task ids are snake_case).`);
  }
  const renameIds = (s: string) => {
    let out = s;
    for (const [from, to] of ids) if (from !== to) out = out.replace(new RegExp(`tasks\\.${escapeRe(from)}(?![\\w-])`, 'g'), `tasks.${to}`);
    return out;
  };
  const varTarget = (n: string) => home.renames.get(`vars.${n}`) ?? (n in rawInputs ? `inputs.${n}` : undefined);
  const fixString = (loopName: string) => (s: string) => {
    let out = renameIds(s);
    if (out.includes('{{')) out = rewriteDraftTemplates(out, varTarget, legacy ? loopName : undefined);
    return renameRoots(out, home.renames);
  };
  const fixAll = (v: unknown, loopName = 'item') => mapStrings(v, fixString(loopName));

  // Tasks.
  const tasks: Record<string, Obj> = {};
  const taskComments: Record<string, string[]> = {};
  const tasksNode = nodeAtPath(doc, ['tasks']);
  wf.tasks.forEach((t, i) => {
    const node = nodeAtPath(doc, t.path);
    const rawTask = obj(plain(node)) ?? {};
    const id = ids.get(t.id)!;
    const comments: string[] = [];
    if (isSeq(tasksNode)) {
      comments.push(...commentLines(i === 0 ? tasksNode.commentBefore : undefined, (node as { commentBefore?: string } | undefined)?.commentBefore));
    } else if (isMap(tasksNode)) {
      const pair = tasksNode.items.find((p) => keyName(p) === t.id);
      if (pair && isScalar(pair.key)) comments.push(...commentLines(pair.key.commentBefore));
    }
    if (typeof rawTask.description === 'string') comments.push(...rawTask.description.trimEnd().split('\n'));
    if (typeof rawTask.name === 'string' && typeof rawTask.id === 'string' && rawTask.name !== rawTask.id) comments.push(rawTask.name);
    if (comments.length) taskComments[id] = comments;
    tasks[id] = migrateTask(t, rawTask, { wf, ids, legacy, fix: fixAll, notes });
  });

  // Outputs.
  const outputs: Obj = {};
  for (const [k, o] of Object.entries(wf.outputs)) {
    const value = fixAll(o.value);
    outputs[k] = o.type !== undefined || o.description !== undefined
      ? { value, ...(o.type !== undefined ? { type: currentType(o.type) } : {}), ...(o.description ? { description: o.description } : {}) }
      : value;
  }

  // Secrets that used to be plain env values may only flow where they flowed before.
  for (const secret of Object.keys(home.secrets)) {
    const sinks = new Set<string>();
    for (const task of Object.values(tasks)) {
      let reads = false;
      visitStrings(task, (s) => { if (readsReference(s, 'secrets', secret)) reads = true; });
      if (reads) sinks.add(sinkOf(task));
    }
    visitStrings(outputs, (s) => { if (readsReference(s, 'secrets', secret)) sinks.add('outputs'); });
    if (sinks.size) secrets[secret].egress = [...sinks].sort().map((to) => ({ to }));
  }

  // The authority boundary current v1 requires.
  let permits = obj(raw.permits);
  if (!permits) {
    const inferred = inferPermits(tasks);
    permits = inferred.permits;
    notes.push(Object.keys(permits).length
      ? 'Added a permits: block that allows exactly what the tasks do (current v1 grants nothing by default).'
      : 'Added an empty permits: block (the tasks need no authority).');
    notes.push(...inferred.notes);
  }

  // MCP servers move out of the workflow.
  let mcpConfig: MigrationResult['mcpConfig'];
  if (Object.keys(wf.mcp).length) {
    mcpConfig = { mcpServers: Object.fromEntries(Object.entries(wf.mcp).map(([k, cfg]) => [k, mcpEntry(cfg)])) };
    notes.push(`Removed the workflow's mcp: block: current v1 workflows do not declare MCP servers. Move them to .mcp.json at the workspace root or the nika.mcp.servers setting:\n${JSON.stringify(mcpConfig, null, 2)}`);
  }

  for (const k of Object.keys(raw)) {
    if (!HANDLED_TOP.has(k)) notes.push(`Dropped the top-level ${k}: block (no current-v1 equivalent).`);
  }

  const out: Obj = { nika: name };
  const model = fixModel(wf.model, 'model', notes);
  if (model) out.model = model;
  if (Object.keys(inputs).length) out.inputs = inputs;
  if (Object.keys(consts).length) out.const = consts;
  if (Object.keys(secrets).length) out.secrets = secrets;
  out.permits = permits;
  if (obj(raw.run)) out.run = raw.run;
  out.tasks = tasks;
  if (Object.keys(outputs).length) out.outputs = outputs;

  let printed = printWorkflow(out, { header, taskComments });
  // The old file had no taint law: a converted env value also reached whatever consumed the
  // outputs of the tasks it fed. Sanction exactly the flows the audit traces in the result.
  if (sanctionTransitiveFlows(printed, Object.keys(home.secrets), secrets)) printed = printWorkflow(out, { header, taskComments });
  if (text.includes('\r\n')) printed = printed.replace(/\r?\n/g, '\r\n');
  const result: MigrationResult = { text: printed, notes };
  if (mcpConfig) result.mcpConfig = mcpConfig;
  return result;
}

function sanctionTransitiveFlows(printed: string, converted: string[], secrets: Record<string, Obj>): boolean {
  if (!converted.length) return false;
  const a = analyze(printed, { skipChecks: true });
  let changed = false;
  for (const f of traceSecrets({ doc: a.doc, dialect: a.dialectInfo, workflow: a.workflow, catalog: EMPTY_CATALOG })) {
    if (f.sanctioned || !converted.includes(f.secret)) continue;
    const egress = (secrets[f.secret].egress as Array<{ to: string }> | undefined) ?? [];
    if (egress.some((e) => e.to === f.sink)) continue;
    secrets[f.secret].egress = [...egress, { to: f.sink }].sort((x, y) => x.to.localeCompare(y.to));
    changed = true;
  }
  return changed;
}

function mcpEntry(cfg: McpServerConfig): Obj {
  const { origin: _origin, ...rest } = cfg;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

function sinkOf(task: Obj): string {
  if (task.exec) return 'exec';
  if (task.infer) return 'infer';
  if (task.agent) return 'agent';
  const tool = obj(task.invoke)?.tool;
  return typeof tool === 'string' ? tool : 'exec';
}

interface TaskContext {
  wf: Workflow;
  ids: Map<string, string>;
  legacy: boolean;
  fix: (v: unknown, loopName?: string) => unknown;
  notes: string[];
}

function migrateTask(t: Task, rawTask: Obj, ctx: TaskContext): Obj {
  const { notes } = ctx;
  const id = ctx.ids.get(t.id)!;
  const where = `task ${id}`;
  const loopName = ctx.legacy && typeof rawTask.as === 'string' ? rawTask.as : 'item';
  const fix = (v: unknown) => ctx.fix(v, loopName);
  const bindings = fix(t.with) as Obj;
  const hoist = (v: unknown) => mapStrings(v, (s) => hoistTaskReads(s, bindings));

  const task: Obj = {};
  const after: Obj = {};
  for (const [dep, pred] of Object.entries(t.after)) after[ctx.ids.get(dep) ?? dep] = pred;
  if (typeof t.group === 'string') task.group = t.group;

  if (t.when !== undefined) {
    let when = fix(t.when);
    if (typeof when === 'string' && !hasIslands(when)) {
      when = `\${{ ${when.trim()} }}`;
      notes.push(`${where}: when: is now an expression, ${when}; check that it reads as intended.`);
    }
    task.when = hoist(when);
  }
  if (t.forEach) {
    const fe: Obj = { items: hoist(fix(t.forEach.items)) };
    if (t.forEach.maxParallel !== undefined) fe.max_parallel = t.forEach.maxParallel;
    if (!t.forEach.failFast) fe.fail_fast = false;
    task.for_each = fe;
    if (ctx.legacy && rawTask.concurrency === undefined && rawTask.max_parallel === undefined && Array.isArray(rawTask.for_each)) {
      notes.push(`${where}: legacy for_each ran one item at a time; max_parallel: 1 keeps that.`);
    }
  }
  if (t.retry) {
    const r = t.retry;
    const retry: Obj = { max_attempts: r.maxAttempts };
    if (r.backoffMs !== 1000) retry.backoff_ms = r.backoffMs;
    if (r.backoffStrategy !== 'exponential') retry.backoff_strategy = r.backoffStrategy;
    if (r.backoffMaxMs !== 60_000) retry.backoff_max_ms = r.backoffMaxMs;
    if (!r.jitter) retry.jitter = false;
    if (r.onCodes?.length) retry.on_codes = r.onCodes;
    task.retry = retry;
  }
  const rawOnError = obj(rawTask.on_error);
  if (t.onError && (t.onError.recover || t.onError.skip !== undefined)) {
    const oe: Obj = {};
    if (t.onError.recover) oe.recover = fix(t.onError.recover.value);
    else oe.skip = t.onError.skip;
    if (t.onError.onCodes?.length) oe.on_codes = t.onError.onCodes;
    task.on_error = oe;
  }
  if (rawOnError && 'fail_workflow' in rawOnError) notes.push(`${where}: dropped on_error.fail_workflow (a failing task fails the workflow unless on_error says otherwise).`);

  let timeoutMs = t.timeoutMs;
  const rawFetch = obj(rawTask.fetch);
  if (timeoutMs === undefined && typeof rawFetch?.timeout === 'number') timeoutMs = rawFetch.timeout * 1000;
  if (typeof t.timeout === 'string' && parseDuration(t.timeout).ok) task.timeout = t.timeout;
  else if (timeoutMs !== undefined) task.timeout = formatDuration(timeoutMs);
  else if (rawTask.timeout !== undefined) notes.push(`${where}: dropped timeout ${JSON.stringify(rawTask.timeout)} (not a duration such as "30s").`);

  const verbKey = t.body?.verb;
  if (t.body) task[t.body.verb] = hoist(fix(migrateBody(t, rawTask, where, notes)));
  else notes.push(`${where}: it has no verb; add one of infer, exec, invoke or agent.`);

  if (t.extract) task.extract = t.extract;
  if (t.returns !== undefined) task.returns = currentType(t.returns);
  if (rawTask.lift !== undefined) task.lift = rawTask.lift;

  // Report what nothing above carried over.
  for (const k of Object.keys(rawTask)) {
    if (k === 'on_finally') notes.push(`${where}: dropped on_finally; write each cleanup step as its own task with after: { ${id}: unwind }.`);
    else if (!HANDLED_TASK.has(k)) notes.push(`${where}: dropped ${k}: (no current-v1 equivalent).`);
  }
  const rawVerb = (['infer', 'exec', 'invoke', 'agent', 'fetch'] as const).find((v) => rawTask[v] !== undefined);
  const rawBody = rawVerb ? obj(rawTask[rawVerb]) : undefined;
  if (rawVerb && rawBody) {
    for (const k of Object.keys(rawBody)) if (!HANDLED_BODY[rawVerb].has(k)) notes.push(`${where}: dropped ${rawVerb}.${k} (no current-v1 equivalent).`);
  }

  // Key order of a hand-written task: data, control, guards, policies, then the verb.
  const ordered: Obj = {};
  if (Object.keys(bindings).length) ordered.with = bindings;
  if (Object.keys(after).length) ordered.after = after;
  for (const k of ['group', 'when', 'for_each', 'retry', 'on_error', 'timeout']) if (k in task) ordered[k] = task[k];
  if (verbKey) ordered[verbKey] = task[verbKey];
  for (const k of ['extract', 'returns', 'lift']) if (k in task) ordered[k] = task[k];
  return ordered;
}

function migrateBody(t: Task, rawTask: Obj, where: string, notes: string[]): Obj {
  const b = t.body!;
  const out: Obj = {};
  switch (b.verb) {
    case 'infer': {
      out.prompt = b.prompt;
      if (b.system !== undefined) out.system = b.system;
      const model = fixModel(b.model, where, notes);
      if (model) out.model = model;
      if (b.temperature !== undefined) out.temperature = b.temperature;
      if (b.maxTokens !== undefined) out.max_tokens = b.maxTokens;
      if (b.schema) out.schema = b.schema;
      if (b.thinking) out.thinking = b.thinking;
      if (b.vision) out.vision = b.vision;
      if (t.parseOutputAsJson) notes.push(`${where}: output.format: json has no direct form; declare the shape with returns: or infer.schema.`);
      return out;
    }
    case 'exec': {
      if (b.command) out.command = b.command;
      else if (b.shell !== undefined) {
        out.shell = b.shell;
        if (typeof obj(rawTask.exec)?.command === 'string' || typeof rawTask.exec === 'string') {
          notes.push(`${where}: the string command now runs through the shell (exec.shell); an argv list (exec.command) avoids the shell.`);
        }
      }
      if (b.cwd !== undefined) out.cwd = b.cwd;
      if (b.env) out.env = b.env;
      if (b.stdin !== undefined) out.stdin = b.stdin;
      if (b.capture !== 'stdout') out.capture = b.capture;
      if (b.decode !== 'text') out.decode = b.decode;
      else if (t.parseOutputAsJson && b.capture !== 'structured') out.decode = 'json';
      return out;
    }
    case 'invoke': {
      if (b.resource) {
        out.tool = `mcp:${b.resource.server}/read_resource`;
        out.args = { uri: b.resource.uri };
        notes.push(`${where}: MCP resource reads have no current-v1 form; it now calls a tool named read_resource on "${b.resource.server}" — check that the server has one.`);
        return out;
      }
      if (b.tool) out.tool = b.tool;
      if (b.workflow) out.workflow = b.workflow;
      if (Object.keys(b.args).length) out.args = b.args;
      if (rawTask.fetch !== undefined) notes.push(`${where}: the fetch verb became invoke: nika:fetch (mode: ${String(b.args.mode)}).`);
      return out;
    }
    case 'agent': {
      out.prompt = b.prompt;
      if (b.system !== undefined) out.system = b.system;
      const model = fixModel(b.model, where, notes);
      if (model) out.model = model;
      if (b.tools.length) out.tools = b.tools;
      if (b.maxTurns !== undefined) out.max_turns = b.maxTurns;
      if (b.maxTokensTotal !== undefined) out.max_tokens_total = b.maxTokensTotal;
      if (b.temperature !== undefined) out.temperature = b.temperature;
      if (b.schema) out.schema = b.schema;
      if (b.stopConditions?.length) {
        notes.push(`${where}: dropped stop_conditions ${JSON.stringify(b.stopConditions)} (no current equivalent); grant nika:done in agent.tools and tell the agent to call it when finished.`);
      }
      const rawAgent = obj(rawTask.agent) ?? {};
      if (rawAgent.extended_thinking !== undefined || rawTask.extended_thinking !== undefined) {
        notes.push(`${where}: dropped extended_thinking (agents have no thinking setting in current v1; infer.thinking has one).`);
      }
      return out;
    }
  }
}
