// The keys a Nika document may hold at each place, per dialect, with the one-paragraph docs that
// completion and hover show (reference §1–§3, §9). Values with a closed vocabulary list it.
import type { Dialect, YamlPath } from '../../core/ir.js';

export type ValueShape = 'scalar' | 'map' | 'list' | 'verb';

export interface KeyDoc {
  name: string;
  doc: string;
  shape: ValueShape;
  enum?: readonly string[];
  /** Snippet body after `name: ` (scalar shape) or under the key (map/list/verb shapes). */
  snippet?: string;
  required?: boolean;
  /** Older spelling: offered only in the dialect that has it, and marked deprecated in hovers. */
  deprecated?: string;
}

const k = (name: string, shape: ValueShape, doc: string, extra: Partial<KeyDoc> = {}): KeyDoc => ({ name, doc, shape, ...extra });

export const BOOL = ['true', 'false'] as const;
export const PREDICATE_DOCS: Record<string, string> = {
  success: 'Run after the task **succeeded**.',
  failure: 'Run after the task **failed** (its `error` is readable).',
  skipped: 'Run after the task was **skipped** (`when:` false, empty `for_each`, or `on_error.skip`).',
  terminal: 'Run after the task settled in **any** terminal state (success, failure, skipped, cancelled).',
  unwind: 'Cleanup: run once the task has started and then ended for any reason (success, failure, cancel, timeout); not part of the precedence graph, its own failure never propagates.',
};
export const TYPE_NAMES = ['string', 'integer', 'number', 'bool', 'null', 'bytes', 'uri', 'path', 'duration', 'timestamp'] as const;

// ---- envelope -------------------------------------------------------------------------------

const NIKA = k('nika', 'scalar', 'The Nika mark **and** the workflow name, kebab-case (`^[a-z][a-z0-9-]*$`); conventionally the file stem.', { required: true });
const MODEL = k('model', 'scalar', 'Default model for every `infer:`/`agent:` without its own: `<provider>/<name>` (e.g. `mock/echo`, `anthropic/claude-sonnet-4-5`, `ollama/qwen3:8b`).');
const INPUTS = k('inputs', 'map', 'Typed parameters supplied by the caller (`--var k=v`), read as `${{ inputs.NAME }}`. Each entry: `{type, required?, default?, description?}`.');
const CONST = k('const', 'map', 'Fixed values baked into the file, read as `${{ const.NAME }}`: a literal, or `{type, value}`.');
const SECRETS = k('secrets', 'map', 'Masked values from a store, read as `${{ secrets.NAME }}`. Each entry: `{source: env|file|vault, key?, path?, egress?}`. Never inline a value.');
const PERMITS = k('permits', 'map', 'The declared capability boundary (`fs`, `net`, `exec`, `tools`, `env`). Absent block = zero authority: every effect is refused (NIKA-AUTH-006). Bounds are literals only.');
const RUN = k('run', 'map', 'Determinism declaration: `{entropy: none|ambient|{seeded: N}, clock: system|virtual}`.');
const TASKS_MAP = k('tasks', 'map', 'The DAG: a **map** from snake_case task id to task. Each task has exactly one verb (`infer`, `exec`, `invoke`, `agent`).', { required: true });
const TASKS_LIST = k('tasks', 'list', 'The tasks, as a list of entries with `id:`/`name:` (older dialect; current v1 uses a map keyed by id).', { required: true });
const OUTPUTS = k('outputs', 'map', "The workflow's return value: name → `${{ tasks.X.output }}` expression, or `{value, type?, description?}`.");

const ENVELOPE: Record<Dialect, KeyDoc[]> = {
  v1: [NIKA, MODEL, INPUTS, CONST, SECRETS, PERMITS, RUN, TASKS_MAP, OUTPUTS],
  'v1-draft': [
    k('nika', 'scalar', 'The version marker `v1` of the draft dialect (current files put the workflow name here).', { required: true }),
    k('workflow', 'scalar', 'Workflow id (draft). Current v1 moves it into `nika:`.', { deprecated: 'nika: <name>' }),
    k('description', 'scalar', 'Free text (draft). Current v1 uses a YAML comment.', { deprecated: 'a comment' }),
    MODEL, INPUTS,
    k('vars', 'map', 'Workflow variables read as `${{ vars.X }}` (draft). Current v1 splits them into `inputs:`, `const:` and `secrets:`.', { deprecated: 'inputs/const/secrets' }),
    k('env', 'map', 'Environment values read as `${{ env.X }}` (draft). Current v1: an input with a default, a secret with `source: env`, or `exec.env`.', { deprecated: 'inputs/secrets' }),
    k('mcp', 'map', 'MCP servers declared in the workflow (draft): name → `{command, args, env, cwd}` or `{url, headers}`. Current v1 takes servers from the engine configuration.'),
    CONST, SECRETS, TASKS_LIST, OUTPUTS,
  ],
  legacy: [
    k('schema', 'scalar', 'Legacy marker `nika/workflow@0.N`.', { required: true, enum: ['nika/workflow@0.12'] }),
    k('workflow', 'scalar', 'Workflow name.'),
    k('description', 'scalar', 'Free text.'),
    k('provider', 'scalar', 'Default provider (`claude`, `openai`, `mock`); current v1 writes `model: <provider>/<name>`.', { deprecated: 'model: <provider>/<name>' }),
    k('model', 'scalar', 'Default model name (combined with `provider:`).'),
    k('mcp', 'map', 'MCP servers: name → `{command, args, env, cwd}`.'),
    k('inputs', 'map', 'Workflow inputs.'),
    TASKS_LIST,
    k('flows', 'list', 'Edges `{source, target}` (each a task id or a list of ids): target runs after source.'),
  ],
};

// ---- tasks ------------------------------------------------------------------------------------

export const VERB_DOCS: Record<string, string> = {
  infer: '**infer** — one LLM call. `prompt` (required), `system`, `model`, `temperature`, `max_tokens`, `schema`, `thinking`, `vision`. Output: the text (an object with `schema:`/`returns:`).',
  exec: '**exec** — run a subprocess: `command: [argv…]` (no shell) or `shell: "…"` (`/bin/sh -c`); `cwd`, `env`, `stdin`, `capture`, `decode`. Output: stdout (or per `capture`/`decode`).',
  invoke: '**invoke** — call a tool (`tool: nika:<builtin>` or `mcp:<server>/<tool>`, with `args:`) or a child workflow (`workflow:`). Output: what the tool returns.',
  agent: '**agent** — a bounded multi-turn loop with tools: `prompt` (required), `system`, `model`, `tools` (whitelist, default none), `skills`, `max_turns` (10), `max_tokens_total`, `temperature`, `schema`. Output: the final message.',
  fetch: '**fetch** (legacy verb) — HTTP request: `url`, `method`, `headers`, `body`, `extract`, `timeout`. Current v1: `invoke: { tool: nika:fetch }`.',
};

export const VERB_SNIPPETS: Record<string, { block: string; flow: string }> = {
  infer: { block: 'infer:\n  prompt: ${1}', flow: 'infer: { prompt: "${1}" }' },
  exec: { block: 'exec:\n  command: [${1}]', flow: 'exec: { command: [${1}] }' },
  invoke: { block: 'invoke:\n  tool: ${1}\n  args:\n    ${0}', flow: 'invoke: { tool: ${1}, args: { ${0} } }' },
  agent: { block: 'agent:\n  prompt: ${1}\n  tools: [${2}]', flow: 'agent: { prompt: "${1}", tools: [${2}] }' },
  fetch: { block: 'fetch:\n  url: ${1}', flow: 'fetch: { url: ${1} }' },
};

const verb = (name: string) => k(name, 'verb', VERB_DOCS[name]);
const WITH = k('with', 'map', 'Data bindings: name → value. Every `${{ tasks.X.… }}` inside a value makes this task depend on X. Read them as `${{ with.NAME }}`.');
const AFTER = k('after', 'map', 'Control edges without data: task id → predicate (`success`, `failure`, `skipped`, `terminal`, `unwind`).');
const WHEN = k('when', 'scalar', 'Local condition evaluated after the gate: a YAML boolean or `${{ <boolean expression> }}`; false ⇒ the task is skipped.');
const FOR_EACH = k('for_each', 'map', 'Fan-out: `items` (a `${{ }}` list or literal array), `max_parallel`, `fail_fast`. Each iteration reads `item` and `index`; the output is the list of iteration outputs.', { snippet: 'items: ${1}' });
const RETRY = k('retry', 'map', 'Retry transient failures: `max_attempts` (required), `backoff_ms` (1000), `backoff_strategy` (exponential), `backoff_max_ms` (60000), `jitter` (true), `on_codes`.', { snippet: 'max_attempts: ${1:3}' });
const ON_ERROR = k('on_error', 'map', 'After the last attempt fails: `recover: <value>` (becomes the output) or `skip: true`; optional `on_codes`.', { snippet: 'recover: ${1}' });
const TIMEOUT = k('timeout', 'scalar', 'Per-attempt deadline as a **quoted** Go duration (`"30s"`, `"1h30m"`).', { snippet: '"${1:30s}"' });

const TASK_KEYS: Record<Dialect, KeyDoc[]> = {
  v1: [
    verb('infer'), verb('exec'), verb('invoke'), verb('agent'),
    WITH, AFTER,
    k('group', 'scalar', 'Fan-in membership: consumers read all members with `${{ group.NAME }}` inside `with:`.'),
    WHEN, FOR_EACH, RETRY, ON_ERROR, TIMEOUT,
    k('extract', 'map', 'Named jq bindings over the raw output, read as `${{ tasks.X.<name> }}`. Pure jq, no `${{ }}`.'),
    k('returns', 'scalar', "The task's output contract as a type expression (`string`, `{object: {…}}`, …)."),
    k('lift', 'list', 'Authored door lifting ONE law: `[{law: taint|data-as-code, from?, because}]`.'),
  ],
  'v1-draft': [
    k('id', 'scalar', 'Task id (draft list form). Current v1 uses the key of the `tasks:` map.', { deprecated: 'tasks map key' }),
    k('name', 'scalar', 'Task id (draft list form).', { deprecated: 'tasks map key' }),
    verb('infer'), verb('exec'), verb('invoke'), verb('agent'),
    WITH, AFTER,
    k('depends_on', 'list', 'Tasks that must succeed first (draft). Current v1: `after: { x: success }` or a `with:` binding.', { deprecated: 'after / with' }),
    WHEN, FOR_EACH, RETRY, ON_ERROR, TIMEOUT,
    k('output', 'map', 'Named jq bindings (draft). Current v1 calls them `extract:`.', { deprecated: 'extract' }),
    k('description', 'scalar', 'Free text.'),
  ],
  legacy: [
    k('id', 'scalar', 'Task id.', { required: true }),
    verb('infer'), verb('exec'), verb('invoke'), verb('agent'), verb('fetch'),
    k('use', 'map', 'Data wiring: alias → `task.path` (optionally `?? default`) or `{from, path, default}`; read as `{{use.alias}}`.'),
    k('for_each', 'scalar', 'Items to fan out over (list or `$alias`).'),
    k('as', 'scalar', 'Loop variable name for `for_each`.'),
    k('concurrency', 'scalar', 'Parallel iterations (default 1).'),
    k('output', 'map', '`{format: json|text, schema}`.'),
    k('description', 'scalar', 'Free text.'),
  ],
};

// ---- verb bodies ------------------------------------------------------------------------------

const PROMPT = k('prompt', 'scalar', 'The prompt text; `${{ }}` allowed. Use `|` for multi-line prompts.', { required: true });
const SYSTEM = k('system', 'scalar', 'System message.');
const VMODEL = k('model', 'scalar', 'Model for this call, `<provider>/<name>`; overrides the workflow `model:`.');
const TEMP = k('temperature', 'scalar', 'Sampling temperature 0–2 (or a `${{ }}` string).');
const SCHEMA = k('schema', 'map', 'JSON Schema of a structured output (prefer `returns:` on the task).');

export const CAPTURE = ['stdout', 'stderr', 'combined', 'structured'] as const;
export const DECODE = ['text', 'json', 'jsonl', 'bytes'] as const;

const BODY: Record<string, KeyDoc[]> = {
  infer: [
    PROMPT, SYSTEM, VMODEL, TEMP,
    k('max_tokens', 'scalar', 'Output token limit (provider default when absent).'),
    SCHEMA,
    k('thinking', 'map', 'Extended reasoning: `{enabled: bool, budget_tokens: int}`.', { snippet: 'enabled: true\nbudget_tokens: ${1:4096}' }),
    k('vision', 'list', 'Images: `[{source: file|url, path|url}]`.'),
  ],
  exec: [
    k('command', 'list', 'argv array, executed directly (no shell); each element may hold `${{ }}`.', { snippet: '[${1}]' }),
    k('shell', 'scalar', 'A command line run with `/bin/sh -c` (exclusive with `command`).'),
    k('cwd', 'scalar', 'Working directory.'),
    k('env', 'map', 'Environment variables for this process only (over the PATH/HOME/… floor).'),
    k('stdin', 'scalar', 'Text written to the process stdin.'),
    k('capture', 'scalar', 'What becomes the output: `stdout` (default), `stderr`, `combined`, or `structured` (`{stdout, stderr, exit_code}`; a non-zero exit is data).', { enum: CAPTURE }),
    k('decode', 'scalar', 'How the captured text is decoded: `text` (default), `json`, `jsonl`, `bytes`. Not with `capture: structured`.', { enum: DECODE }),
  ],
  invoke: [
    k('tool', 'scalar', 'Tool id: `nika:<builtin>` (28 builtins) or `mcp:<server>/<tool>`.'),
    k('workflow', 'scalar', 'Child workflow: a static path or `registry:owner/name@version`.'),
    k('args', 'map', "The tool's arguments (its input schema); `${{ }}` allowed in any leaf."),
  ],
  agent: [
    PROMPT, SYSTEM, VMODEL,
    k('tools', 'list', 'Tool whitelist (default: none): ids or globs (`mcp:fs/*`, `mcp:x/**`, `!nika:write`); later rules win. `nika:done` ends the loop.', { snippet: '[${1}]' }),
    k('skills', 'list', 'Static paths of `SKILL.md` files (relative to the workflow).'),
    k('max_turns', 'scalar', 'Turn budget (default 10); exhausting it fails with NIKA-AGENT-001.'),
    k('max_tokens_total', 'scalar', 'Token budget across turns; exhausting it fails with NIKA-AGENT-002.'),
    TEMP, SCHEMA,
  ],
  fetch: [
    k('url', 'scalar', 'URL to fetch.', { required: true }),
    k('method', 'scalar', 'HTTP method.', { enum: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] }),
    k('headers', 'map', 'Request headers.'),
    k('body', 'scalar', 'Request body.'),
    k('extract', 'scalar', 'Extraction mode.', { enum: ['markdown', 'text', 'jsonpath', 'llm_txt'] }),
    k('timeout', 'scalar', 'Seconds.'),
  ],
};

const LEGACY_BODY_EXTRA: Record<string, KeyDoc[]> = {
  infer: [k('provider', 'scalar', 'Provider for this call.')],
  exec: [k('timeout', 'scalar', 'Seconds.')],
  invoke: [k('mcp', 'scalar', 'MCP server name.'), k('params', 'map', 'Tool arguments.'), k('resource', 'scalar', 'Resource URI to read from the server.')],
  agent: [
    k('provider', 'scalar', 'Provider.'), k('mcp', 'list', 'MCP servers whose tools the agent may call.'),
    k('token_budget', 'scalar', 'Token budget.'), k('stop_conditions', 'list', 'Texts that end the loop.'),
  ],
};

// ---- nested blocks ------------------------------------------------------------------------------

const NESTED: Record<string, KeyDoc[]> = {
  for_each: [
    k('items', 'scalar', 'The collection: a `${{ }}` expression or a literal array. Evaluated once, before the fan-out.', { required: true }),
    k('max_parallel', 'scalar', 'Iterations running at once (≥1; default unbounded).'),
    k('fail_fast', 'scalar', 'Stop launching iterations after one fails (default true).', { enum: BOOL }),
  ],
  retry: [
    k('max_attempts', 'scalar', 'Total attempts (≥1).', { required: true }),
    k('backoff_ms', 'scalar', 'First delay in ms (default 1000).'),
    k('backoff_strategy', 'scalar', 'How delays grow (default exponential).', { enum: ['fixed', 'linear', 'exponential'] }),
    k('backoff_max_ms', 'scalar', 'Delay cap in ms (default 60000).'),
    k('jitter', 'scalar', 'Randomize delays (default true).', { enum: BOOL }),
    k('on_codes', 'list', 'Also retry these error codes (regexes), e.g. `NIKA-BUILTIN-ASSERT-001`.'),
  ],
  on_error: [
    k('recover', 'scalar', 'Value used as the output when the task fails (a literal or `${{ }}`, may read other tasks).'),
    k('skip', 'scalar', 'Mark the task skipped instead of failed (`tasks.X.error` keeps the error).', { enum: BOOL }),
    k('on_codes', 'list', 'Only handle these error codes.'),
  ],
  thinking: [k('enabled', 'scalar', 'Turn extended reasoning on.', { enum: BOOL }), k('budget_tokens', 'scalar', 'Reasoning token budget.')],
  input: [
    k('type', 'scalar', 'Type expression: `string`, `integer`, `number`, `bool`, `null`, `bytes`, `uri`, `path`, `duration`, `timestamp`, or `{array: T}`, `{map: T}`, `{object: {…}}`, `{union: […]}`, `{enum: […]}`.', { required: true, enum: TYPE_NAMES }),
    k('required', 'scalar', 'The caller must supply a value (default false).', { enum: BOOL }),
    k('default', 'scalar', 'Value used when the caller omits it; must fit `type`.'),
    k('description', 'scalar', 'Documentation.'),
  ],
  secret: [
    k('source', 'scalar', 'Where the value comes from: `env` (variable `key`), `file` (`path`), `vault` (withdrawn until it runs).', { required: true, enum: ['env', 'file', 'vault'] }),
    k('key', 'scalar', 'Variable name (env) or vault key. Not with `file`.'),
    k('path', 'scalar', 'File holding the secret (`source: file` only).'),
    k('egress', 'list', 'Sanctioned sinks: `[{to: <tool id>|exec|infer|agent|outputs, host?, host_from_self?}]`.'),
  ],
  egress: [
    k('to', 'scalar', 'Sink: a tool id, `exec`, `infer`, `agent` or `outputs`.', { required: true }),
    k('host', 'scalar', 'Exact host the secret may be sent to.'),
    k('host_from_self', 'scalar', 'Argument naming the host.'),
  ],
  const: [k('type', 'scalar', 'Type expression of a typed constant.', { enum: TYPE_NAMES }), k('value', 'scalar', 'The value (must fit `type`).'), k('description', 'scalar', 'Documentation.')],
  output: [k('value', 'scalar', 'The output value, usually `${{ tasks.X.output }}`.', { required: true }), k('type', 'scalar', 'Declared type.', { enum: TYPE_NAMES }), k('description', 'scalar', 'Documentation.')],
  permits: [
    k('fs', 'map', 'File access: `read:` / `write:` lists of path globs.', { snippet: 'read: [${1}]' }),
    k('net', 'map', 'Network: `http:` list of exact host names (`"*"` = any).', { snippet: 'http: [${1}]' }),
    k('exec', 'scalar', 'Subprocesses: `false`, `true`, or a list of program names.', { enum: BOOL }),
    k('tools', 'list', 'Invokable tools: ids or globs (`nika:*`, `mcp:fs/*`, `!mcp:fs/write`).'),
    k('env', 'list', 'Engine environment variables passed to child processes.'),
  ],
  'permits.fs': [k('read', 'list', 'Readable path globs.'), k('write', 'list', 'Writable path globs.')],
  'permits.net': [k('http', 'list', 'Exact host names (`"*"` alone = any host).')],
  run: [
    k('entropy', 'scalar', 'Randomness: `none`, `ambient` (default) or `{seeded: N}`.', { enum: ['none', 'ambient'] }),
    k('clock', 'scalar', 'Time source: `system` (default) or `virtual`.', { enum: ['system', 'virtual'] }),
  ],
  lift: [
    k('law', 'scalar', 'Which law to lift.', { required: true, enum: ['taint', 'data-as-code'] }),
    k('from', 'scalar', 'Dotted value path (e.g. `inputs.p`), for `taint`.'),
    k('because', 'scalar', 'Why this is safe.', { required: true }),
  ],
  vision: [k('source', 'scalar', 'Image source.', { enum: ['file', 'url'] }), k('path', 'scalar', 'Image file.'), k('url', 'scalar', 'Image URL.')],
  mcp: [k('command', 'scalar', 'Program to start.'), k('args', 'list', 'Arguments.'), k('env', 'map', 'Environment.'), k('cwd', 'scalar', 'Working directory.'), k('url', 'scalar', 'HTTP endpoint.'), k('headers', 'map', 'HTTP headers.')],
};

export type KeyContext =
  | { kind: 'envelope' }
  | { kind: 'task' }
  | { kind: 'body'; verb: string }
  | { kind: 'nested'; name: string }
  | { kind: 'tasks' } // the tasks map/list itself (ids are free)
  | { kind: 'after' } | { kind: 'args' } | { kind: 'free' };

const VERBS = new Set(['infer', 'exec', 'invoke', 'agent', 'fetch']);

/** What kind of map sits at a YAML path (the map holding the keys, not a key's value). */
export function contextOfMap(path: YamlPath, dialect: Dialect): KeyContext {
  const p = path;
  if (p.length === 0) return { kind: 'envelope' };
  const [top] = p;
  if (top === 'tasks') {
    if (p.length === 1) return { kind: 'tasks' };
    if (p.length === 2) return { kind: 'task' };
    const rest = p.slice(2);
    const key = rest[0];
    if (rest.length === 1) {
      if (typeof key === 'string' && VERBS.has(key)) return { kind: 'body', verb: key };
      if (key === 'after') return { kind: 'after' };
      if (key === 'for_each' || key === 'retry' || key === 'on_error') return { kind: 'nested', name: key };
      return { kind: 'free' };
    }
    if (rest.length === 2 && rest[1] === 'args' && (key === 'invoke')) return { kind: 'args' };
    if (rest.length === 2 && rest[1] === 'params' && key === 'invoke' && dialect !== 'v1') return { kind: 'args' };
    if (rest.length === 2 && rest[1] === 'thinking') return { kind: 'nested', name: 'thinking' };
    if (rest.length === 3 && rest[1] === 'vision' && typeof rest[2] === 'number') return { kind: 'nested', name: 'vision' };
    if (rest.length === 2 && key === 'lift' && typeof rest[1] === 'number') return { kind: 'nested', name: 'lift' };
    return { kind: 'free' };
  }
  if (p.length === 2 && top === 'inputs') return { kind: 'nested', name: 'input' };
  if (p.length === 2 && top === 'secrets') return { kind: 'nested', name: 'secret' };
  if (p.length === 4 && top === 'secrets' && p[2] === 'egress') return { kind: 'nested', name: 'egress' };
  if (p.length === 2 && top === 'const') return { kind: 'nested', name: 'const' };
  if (p.length === 2 && top === 'outputs') return { kind: 'nested', name: 'output' };
  if (p.length === 2 && top === 'mcp' && dialect !== 'v1') return { kind: 'nested', name: 'mcp' };
  if (top === 'permits') {
    if (p.length === 1) return { kind: 'nested', name: 'permits' };
    if (p.length === 2 && (p[1] === 'fs' || p[1] === 'net')) return { kind: 'nested', name: `permits.${p[1]}` };
  }
  if (top === 'run' && p.length === 1) return { kind: 'nested', name: 'run' };
  return { kind: 'free' };
}

export function keysFor(ctx: KeyContext, dialect: Dialect): KeyDoc[] {
  switch (ctx.kind) {
    case 'envelope': return ENVELOPE[dialect];
    case 'task': return TASK_KEYS[dialect];
    case 'body': return [...(BODY[ctx.verb] ?? []), ...(dialect === 'v1' ? [] : LEGACY_BODY_EXTRA[ctx.verb] ?? [])];
    case 'nested': return NESTED[ctx.name] ?? [];
    default: return [];
  }
}

/** Docs of the key at the end of `path` (its value path), for hover. */
export function keyDocAt(path: YamlPath, dialect: Dialect): KeyDoc | undefined {
  const name = path[path.length - 1];
  if (typeof name !== 'string') return undefined;
  const ctx = contextOfMap(path.slice(0, -1), dialect);
  return keysFor(ctx, dialect).find((d) => d.name === name)
    ?? (dialect !== 'v1' ? keysFor(ctx, 'v1').find((d) => d.name === name) : undefined);
}
