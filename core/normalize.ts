// YAML AST → Workflow IR, for all three dialects. Best effort and total: a broken document
// still yields a usable (partial) IR, because completion and navigation run on it too. The
// checks, not this file, decide what is wrong; here older spellings are just translated.
import { isMap, isScalar, isSeq } from 'yaml';
import type { Pair, YAMLMap } from 'yaml';
import { getNode, getPair, keyName, keySpan, plain, spanOf, type NikaDocument } from './document.js';
import type { DialectInfo } from './dialect.js';
import { parseDuration } from './duration.js';
import { rewriteLegacyTemplates, useToExpression } from './legacy.js';
import type {
  AgentBody, Dialect, ExecBody, ForEach, InferBody, InputDecl, InvokeBody, McpServerConfig, OnErrorPolicy,
  OutputDecl, Permits, Predicate, RetryPolicy, SecretDecl, Task, VerbBody, Workflow, YamlPath,
} from './ir.js';
import { PREDICATES, VERBS } from './ir.js';
import type { Span } from './text.js';

const LEGACY_PROVIDERS: Record<string, string> = { claude: 'anthropic', anthropic: 'anthropic', openai: 'openai', mock: 'mock' };
/** Draft-era `after:` participles and their current predicate. */
const OLD_PREDICATES: Record<string, Predicate> = { succeeded: 'success', failed: 'failure', completed: 'terminal', skipped: 'skipped' };

const EMPTY: Span = { start: 0, end: 0 };

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}
function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
function strList(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map((x) => String(x ?? ''));
  if (typeof v === 'string') return [v];
  return undefined;
}
function numOrExpr(v: unknown): number | string | undefined {
  return typeof v === 'number' || typeof v === 'string' ? v : undefined;
}
function strMap(v: unknown): Record<string, string> | undefined {
  const o = obj(v);
  if (!o) return undefined;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]));
}

/** Legacy `provider:` + `model:` → `<provider>/<model>`. */
function legacyModel(provider: unknown, model: unknown): string | undefined {
  const m = str(model);
  const p = str(provider);
  if (m && m.includes('/')) return m;
  if (!p) return m ? `anthropic/${m}` : undefined;
  const mapped = LEGACY_PROVIDERS[p] ?? p;
  if (mapped === 'mock') return `mock/${m ?? 'echo'}`;
  return m ? `${mapped}/${m}` : undefined;
}

/**
 * Lets a caller reuse the Task read from an unchanged task node (the incremental analyzer keeps
 * one per task slice). `read` is the normal reading; the hook returns it or an equal Task.
 */
export type ReadTaskHook = (id: string, node: unknown, read: () => Task) => Task;

export function normalize(doc: NikaDocument, info: DialectInfo, readTaskHook?: ReadTaskHook): Workflow {
  const dialect = info.dialect;
  const root = doc.root;
  const wf: Workflow = {
    dialect, inputs: {}, const: {}, secrets: {}, vars: {}, env: {}, mcp: {}, tasks: [], outputs: {},
  };
  if (!root) return wf;
  const top = (k: string) => getNode(root, k);
  const value = (k: string) => plain(top(k));

  if (dialect === 'legacy') {
    wf.legacySchema = str(value('schema'));
    wf.name = str(value('workflow'));
    wf.model = legacyModel(value('provider'), value('model'));
  } else {
    const nika = str(value('nika'));
    const workflowKey = value('workflow');
    const workflowName = str(workflowKey) ?? str(obj(workflowKey)?.id);
    wf.name = dialect === 'v1-draft' ? workflowName ?? (nika !== 'v1' ? nika : undefined) : nika;
    const model = value('model');
    wf.model = str(model) ?? (dialect === 'v1-draft' ? legacyModel(value('provider'), model) : undefined);
  }

  readInputs(wf, top('inputs'));
  readConst(wf, top('const'));
  readSecrets(wf, top('secrets'));
  if (dialect !== 'legacy') {
    const vars = obj(value('vars'));
    if (vars) wf.vars = vars;
    const env = obj(value('env'));
    if (env) wf.env = env;
    const config = obj(value('config'));
    if (config && dialect === 'v1-draft') wf.vars = { ...config, ...wf.vars };
  }
  const permitsNode = top('permits');
  if (permitsNode !== undefined) wf.permits = readPermits(permitsNode);
  const run = obj(value('run'));
  if (run) wf.run = { entropy: run.entropy, clock: run.clock };
  readMcp(wf, value('mcp'));

  const tasksNode = top('tasks');
  // First definition wins for a repeated id (the duplicate-key check reports the others).
  const seen = new Set<string>();
  if (isMap(tasksNode)) {
    for (const pair of tasksNode.items) {
      const id = keyName(pair);
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      const read = () => readTask(id, keySpan(pair) ?? EMPTY, pair.value, ['tasks', id], dialect);
      wf.tasks.push(readTaskHook ? readTaskHook(id, pair.value, read) : read());
    }
  } else if (isSeq(tasksNode)) {
    tasksNode.items.forEach((item, i) => {
      if (!isMap(item)) return;
      const idPair = getPair(item, 'id') ?? getPair(item, 'name');
      const id = idPair ? str(plain(idPair.value)) : undefined;
      if (!id || seen.has(id)) return;
      seen.add(id);
      wf.tasks.push(readTask(id, spanOf(idPair!.value) ?? spanOf(item) ?? EMPTY, item, ['tasks', i], dialect));
    });
  }

  if (dialect === 'legacy' || dialect === 'v1-draft') applyFlows(wf, value('flows'));
  readOutputs(wf, top('outputs'));
  return wf;
}

function readInputs(wf: Workflow, node: unknown): void {
  if (!isMap(node)) return;
  for (const pair of node.items) {
    const name = keyName(pair);
    if (name === undefined) continue;
    const v = plain(pair.value);
    const o = obj(v);
    const decl: InputDecl = {
      type: o ? o.type : v,
      required: o?.required === true,
      hasDefault: !!o && 'default' in o,
      default: o?.default,
      description: str(o?.description),
      span: keySpan(pair) ?? EMPTY,
    };
    wf.inputs[name] = decl;
  }
}

function readConst(wf: Workflow, node: unknown): void {
  const v = obj(plain(node));
  if (!v) return;
  for (const [k, x] of Object.entries(v)) {
    const o = obj(x);
    // An object with both `type` and `value` is a typed constant; anything else is data (§1.4).
    wf.const[k] = o && 'type' in o && 'value' in o ? o.value : x;
  }
}

function readSecrets(wf: Workflow, node: unknown): void {
  if (!isMap(node)) return;
  for (const pair of node.items) {
    const name = keyName(pair);
    if (name === undefined) continue;
    const o = obj(plain(pair.value)) ?? {};
    const decl: SecretDecl = { source: str(o.source), key: str(o.key), path: str(o.path), span: keySpan(pair) ?? EMPTY };
    if (Array.isArray(o.egress)) decl.egress = o.egress.filter(obj) as SecretDecl['egress'];
    wf.secrets[name] = decl;
  }
}

function readPermits(node: unknown): Permits {
  const o = obj(plain(node)) ?? {};
  const p: Permits = { span: spanOf(node) ?? EMPTY };
  const fs = obj(o.fs);
  if (fs) p.fs = { read: strList(fs.read), write: strList(fs.write) };
  const net = obj(o.net);
  if (net) p.net = { http: strList(net.http) };
  if (typeof o.exec === 'boolean') p.exec = o.exec;
  else if (Array.isArray(o.exec)) p.exec = strList(o.exec);
  if (o.tools !== undefined) p.tools = strList(o.tools) ?? [];
  if (o.env !== undefined) p.env = strList(o.env) ?? [];
  return p;
}

function readMcp(wf: Workflow, v: unknown): void {
  const o = obj(v);
  if (!o) return;
  for (const [name, def] of Object.entries(o)) {
    const d = obj(def);
    if (!d) continue;
    const cfg: McpServerConfig = { origin: 'workflow mcp: block' };
    if (typeof d.command === 'string') cfg.command = d.command;
    if (Array.isArray(d.args)) cfg.args = d.args.map(String);
    const env = strMap(d.env);
    if (env) cfg.env = env;
    if (typeof d.cwd === 'string') cfg.cwd = d.cwd;
    if (typeof d.url === 'string') cfg.url = d.url;
    const headers = strMap(d.headers);
    if (headers) cfg.headers = headers;
    wf.mcp[name] = cfg;
  }
}

function readOutputs(wf: Workflow, node: unknown): void {
  if (!isMap(node)) return;
  for (const pair of node.items) {
    const name = keyName(pair);
    if (name === undefined) continue;
    const v = plain(pair.value);
    const o = obj(v);
    const decl: OutputDecl = o && 'value' in o
      ? { value: o.value, type: o.type, description: str(o.description), span: keySpan(pair) ?? EMPTY }
      : { value: v, span: keySpan(pair) ?? EMPTY };
    wf.outputs[name] = decl;
  }
}

/** Legacy/draft `flows: [{source, target}]` become control edges on the targets. */
function applyFlows(wf: Workflow, v: unknown): void {
  if (!Array.isArray(v)) return;
  const byId = new Map(wf.tasks.map((t) => [t.id, t]));
  for (const flow of v) {
    const f = obj(flow);
    if (!f) continue;
    const sources = strList(f.source) ?? [];
    const targets = strList(f.target) ?? [];
    for (const t of targets) {
      const task = byId.get(t);
      if (!task) continue;
      for (const s of sources) if (!(s in task.after) && !withReads(task, s)) task.after[s] = 'success';
    }
  }
}

function withReads(task: Task, id: string): boolean {
  return Object.values(task.with).some((x) => typeof x === 'string' && x.includes(`tasks.${id}.`));
}

// ---- tasks ------------------------------------------------------------------------------------

function readTask(id: string, idSpan: Span, node: unknown, path: YamlPath, dialect: Dialect): Task {
  const task: Task = { id, path, span: spanOf(node) ?? idSpan, idSpan, with: {}, after: {} };
  if (!isMap(node)) return task;
  const t = obj(plain(node)) ?? {};
  const legacy = dialect === 'legacy';
  const loopName = legacy ? str(t.as) ?? 'item' : 'item';
  const rewrite = legacy ? (x: unknown) => rewriteDeep(x, loopName) : (x: unknown) => x;

  // Bindings.
  if (legacy || (dialect === 'v1-draft' && t.use !== undefined)) {
    const use = obj(t.use);
    if (use) for (const [alias, spec] of Object.entries(use)) task.with[alias] = useToExpression(spec);
  }
  const withV = obj(t.with);
  if (withV) for (const [k, x] of Object.entries(withV)) task.with[k] = rewrite(x);

  // Control edges.
  const after = obj(t.after);
  if (after) {
    for (const [k, p] of Object.entries(after)) {
      const pred = String(p);
      const mapped = (PREDICATES as readonly string[]).includes(pred) ? (pred as Predicate) : dialect !== 'v1' ? OLD_PREDICATES[pred] : undefined;
      if (mapped) task.after[k] = mapped;
    }
  }
  for (const dep of strList(t.depends_on) ?? []) if (!(dep in task.after)) task.after[dep] = 'success';

  if (typeof t.group === 'string') task.group = t.group;
  if (typeof t.when === 'boolean' || typeof t.when === 'string') task.when = t.when;

  task.forEach = readForEach(t, legacy);
  task.retry = readRetry(obj(t.retry));
  task.onError = readOnError(obj(t.on_error), dialect);

  if (typeof t.timeout === 'string') {
    task.timeout = t.timeout;
    const d = parseDuration(t.timeout);
    if (d.ok) task.timeoutMs = d.ms;
  } else if (typeof t.timeout === 'number' && dialect !== 'v1') {
    task.timeoutMs = t.timeout * 1000;
  }
  if (typeof t.timeout_ms === 'number' && dialect !== 'v1') task.timeoutMs = t.timeout_ms;

  const extract = obj(t.extract) ?? (dialect === 'v1-draft' ? obj(t.output) : undefined);
  if (extract && Object.values(extract).every((x) => typeof x === 'string')) task.extract = extract as Record<string, string>;
  if (t.returns !== undefined) task.returns = t.returns;
  if (legacy && obj(t.output)?.format === 'json') task.parseOutputAsJson = true;

  // Verb: the first one present (the checks report several or none).
  const verbs = [...VERBS, ...(dialect === 'v1' ? [] : ['fetch'])];
  const verb = verbs.find((v) => getPair(node as YAMLMap, v));
  if (verb) {
    const body = readBody(verb, t[verb], dialect, t);
    if (body) {
      task.verb = body.verb;
      task.body = rewrite(body) as VerbBody;
    }
    if (legacy && verb === 'exec' && typeof obj(t.exec)?.timeout === 'number' && task.timeoutMs === undefined) {
      task.timeoutMs = (obj(t.exec)!.timeout as number) * 1000;
    }
  }
  return task;
}

function readForEach(t: Record<string, unknown>, legacy: boolean): ForEach | undefined {
  const fe = t.for_each;
  if (fe === undefined || fe === null) return undefined;
  const o = obj(fe);
  if (o) {
    return {
      items: o.items,
      maxParallel: numOrExpr(o.max_parallel ?? t.max_parallel ?? t.concurrency),
      failFast: (o.fail_fast ?? t.fail_fast) !== false,
    };
  }
  // Flat forms: `for_each: [..]`, `for_each: "${{ … }}"`, legacy `$alias` / `{{use.alias}}`.
  let items: unknown = fe;
  if (legacy && typeof fe === 'string') {
    const alias = /^\$([A-Za-z_][\w-]*)$/.exec(fe.trim());
    items = alias ? `\${{ with.${alias[1]} }}` : rewriteLegacyTemplates(fe, 'item');
  }
  const maxParallel = numOrExpr(t.max_parallel ?? t.concurrency);
  // Legacy `concurrency` defaulted to 1 (sequential).
  return { items, maxParallel: maxParallel ?? (legacy ? 1 : undefined), failFast: t.fail_fast !== false };
}

function readRetry(r: Record<string, unknown> | undefined): RetryPolicy | undefined {
  if (!r) return undefined;
  const n = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) ? x : d);
  const strategy = r.backoff_strategy;
  return {
    maxAttempts: Math.max(1, Math.floor(n(r.max_attempts, 1))),
    backoffMs: n(r.backoff_ms, 1000),
    backoffStrategy: strategy === 'fixed' || strategy === 'linear' ? strategy : 'exponential',
    backoffMaxMs: n(r.backoff_max_ms, 60_000),
    jitter: r.jitter !== false,
    onCodes: strList(r.on_codes),
  };
}

function readOnError(o: Record<string, unknown> | undefined, dialect: Dialect): OnErrorPolicy | undefined {
  if (!o) return undefined;
  const p: OnErrorPolicy = {};
  if ('recover' in o) p.recover = { value: o.recover };
  else if (dialect !== 'v1' && ('fallback' in o || 'value' in o)) p.recover = { value: 'fallback' in o ? o.fallback : o.value };
  if (typeof o.skip === 'boolean') p.skip = o.skip;
  const codes = strList(o.on_codes);
  if (codes) p.onCodes = codes;
  return p;
}

function readBody(verb: string, raw: unknown, dialect: Dialect, task: Record<string, unknown>): VerbBody | undefined {
  const o = obj(raw);
  switch (verb) {
    case 'infer': {
      if (typeof raw === 'string') return { verb: 'infer', prompt: raw };
      if (!o) return { verb: 'infer', prompt: '' };
      const body: InferBody = { verb: 'infer', prompt: str(o.prompt) ?? '' };
      if (typeof o.system === 'string') body.system = o.system;
      const model = dialect === 'v1' ? str(o.model) : legacyModel(o.provider, o.model) ?? str(o.model);
      if (model) body.model = model;
      if (o.temperature !== undefined) body.temperature = numOrExpr(o.temperature);
      if (o.max_tokens !== undefined) body.maxTokens = numOrExpr(o.max_tokens);
      if (obj(o.schema)) body.schema = obj(o.schema);
      if (obj(o.thinking)) body.thinking = obj(o.thinking) as InferBody['thinking'];
      if (dialect !== 'v1' && (o.extended_thinking === true || task.extended_thinking === true)) {
        body.thinking = { enabled: true, budget_tokens: typeof o.thinking_budget === 'number' ? o.thinking_budget : 4096 };
      }
      if (Array.isArray(o.vision)) body.vision = o.vision.filter(obj) as InferBody['vision'];
      return body;
    }
    case 'exec': {
      if (typeof raw === 'string') return { verb: 'exec', shell: raw, capture: 'stdout', decode: 'text' };
      const body: ExecBody = { verb: 'exec', capture: 'stdout', decode: 'text' };
      if (!o) return body;
      if (Array.isArray(o.command)) body.command = o.command;
      else if (typeof o.command === 'string') body.shell = o.command;
      if (typeof o.shell === 'string') body.shell = o.shell;
      if (typeof o.cwd === 'string') body.cwd = o.cwd;
      if (obj(o.env)) body.env = obj(o.env);
      if (typeof o.stdin === 'string') body.stdin = o.stdin;
      if (o.capture === 'stderr' || o.capture === 'combined' || o.capture === 'structured') body.capture = o.capture;
      if (o.decode === 'json' || o.decode === 'jsonl' || o.decode === 'bytes') body.decode = o.decode;
      return body;
    }
    case 'invoke': {
      const body: InvokeBody = { verb: 'invoke', args: {} };
      if (!o) return body;
      if (dialect !== 'v1' && typeof o.mcp === 'string') {
        const server = o.mcp;
        if (typeof o.resource === 'string') body.resource = { server, uri: o.resource };
        else if (typeof o.tool === 'string') body.tool = `mcp:${server}/${o.tool}`;
        body.args = obj(o.params) ?? obj(o.args) ?? {};
        return body;
      }
      if (typeof o.tool === 'string') {
        const legacyPair = /^([a-z0-9][a-z0-9_-]*)::(.+)$/.exec(o.tool);
        body.tool = dialect !== 'v1' && legacyPair ? `mcp:${legacyPair[1]}/${legacyPair[2]}` : o.tool;
      }
      if (typeof o.workflow === 'string') body.workflow = o.workflow;
      body.args = obj(o.args) ?? (dialect !== 'v1' ? obj(o.params) : undefined) ?? {};
      return body;
    }
    case 'agent': {
      if (typeof raw === 'string') return { verb: 'agent', prompt: raw, tools: [] };
      const body: AgentBody = { verb: 'agent', prompt: str(o?.prompt) ?? '', tools: [] };
      if (!o) return body;
      if (typeof o.system === 'string') body.system = o.system;
      const model = dialect === 'v1' ? str(o.model) : legacyModel(o.provider, o.model) ?? str(o.model);
      if (model) body.model = model;
      body.tools = strList(o.tools) ?? [];
      if (dialect !== 'v1') for (const s of strList(o.mcp) ?? []) body.tools.push(`mcp:${s}/*`);
      if (o.max_turns !== undefined) body.maxTurns = numOrExpr(o.max_turns);
      const budget = o.max_tokens_total ?? (dialect !== 'v1' ? o.token_budget : undefined);
      if (budget !== undefined) body.maxTokensTotal = numOrExpr(budget);
      if (o.temperature !== undefined) body.temperature = numOrExpr(o.temperature);
      if (obj(o.schema)) body.schema = obj(o.schema);
      const stops = dialect !== 'v1' ? strList(o.stop_conditions) : undefined;
      if (stops) body.stopConditions = stops;
      return body;
    }
    case 'fetch': {
      // Era-A `fetch:` verb → `invoke: nika:fetch` (reference §9.2).
      const f = typeof raw === 'string' ? { url: raw } : o ?? {};
      const args: Record<string, unknown> = { url: f.url };
      for (const k of ['method', 'headers', 'body']) if (f[k] !== undefined) args[k] = f[k];
      const extract = str(f.extract);
      args.mode = extract === 'jsonpath' ? 'jq' : extract && extract !== 'llm_txt' ? extract : 'raw';
      return { verb: 'invoke', tool: 'nika:fetch', args };
    }
  }
  return undefined;
}

function rewriteDeep(x: unknown, loopName: string): unknown {
  if (typeof x === 'string') return rewriteLegacyTemplates(x, loopName);
  if (Array.isArray(x)) return x.map((i) => rewriteDeep(i, loopName));
  if (x && typeof x === 'object') {
    return Object.fromEntries(Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, rewriteDeep(v, loopName)]));
  }
  return x;
}

export type { Pair };
