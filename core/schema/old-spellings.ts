// Keys from older Nika dialects and what replaced them (reference §1.1, §2, §9.2). In a current
// file they are unknown keys whose message says where the meaning went; in v1-draft and legacy
// files they are deprecation warnings with the same advice.

export type Scope = 'root' | 'task' | 'infer' | 'exec' | 'invoke' | 'agent' | 'on_error' | 'fetch';

export interface OldSpelling {
  scope: Scope;
  key: string;
  /** What to write instead, as a sentence fragment. */
  advice: string;
  /** A key that takes the same value unchanged (offered as a rename quick fix). */
  rename?: string;
  /** Code when this key appears in a current file (default NIKA-PARSE-005). */
  code?: string;
}

export const OLD_SPELLINGS: readonly OldSpelling[] = [
  { scope: 'root', key: 'vars', code: 'NIKA-VALUES-001', advice: 'vars: is gone: declare each entry under inputs: (supplied by the caller), const: (fixed) or secrets: (masked)' },
  { scope: 'root', key: 'env', code: 'NIKA-VALUES-002', advice: 'env: is gone: use an inputs: entry with a default, a secrets: entry with source: env, or exec.env on the task' },
  { scope: 'root', key: 'config', advice: 'config: is gone: use inputs: entries with required: false and a default' },
  { scope: 'root', key: 'workflow', advice: 'workflow: is gone: the workflow\'s name goes in nika: <name>' },
  { scope: 'root', key: 'description', advice: 'a top-level description: is not part of v1: write it as a YAML comment' },
  { scope: 'root', key: 'schema', advice: 'the file is marked by nika: <name>, not by schema:' },
  { scope: 'root', key: 'apiVersion', advice: 'the file is marked by nika: <name>, not by apiVersion:' },
  { scope: 'root', key: 'provider', advice: 'provider: is gone: name the provider in the model, model: <provider>/<name>' },
  { scope: 'root', key: 'mcp', advice: 'MCP servers are not declared in a v1 workflow: configure them in the editor (nika.mcp.servers, .vscode/mcp.json) or with --mcp-config' },
  { scope: 'root', key: 'flows', advice: 'flows: is gone: a with: binding that reads ${{ tasks.X.output }} is the edge, or after: { X: success } for order only' },
  { scope: 'root', key: 'policy', advice: 'policy: is gone (the rules it configured now always apply)' },
  { scope: 'root', key: 'types', advice: 'named types are gone: write the type inline where it is used' },
  { scope: 'root', key: 'assert', advice: 'assert: was removed: use a task invoking nika:assert' },
  { scope: 'root', key: 'context', advice: 'context: is gone: read files with a nika:read task and bind its output with with:' },
  { scope: 'root', key: 'include', advice: 'include: is gone: call another workflow with invoke: { workflow: path }' },
  { scope: 'root', key: 'agents', advice: 'agent presets are gone: write the agent: fields on each task' },

  { scope: 'task', key: 'id', code: 'NIKA-PARSE-023', advice: 'a task\'s id is its key under tasks:, not an id: field' },
  { scope: 'task', key: 'name', advice: 'a task\'s id is its key under tasks:, not a name: field' },
  { scope: 'task', key: 'depends_on', code: 'NIKA-PARSE-024', advice: 'depends_on: is gone: bind the data you need with with: { x: "${{ tasks.a.output }}" }, or order with after: { a: success }' },
  { scope: 'task', key: 'output', rename: 'extract', advice: 'output: was renamed extract: (named jq bindings over the raw output)' },
  { scope: 'task', key: 'output_format', advice: 'output_format: is gone: use returns: on the task, or schema: on infer/agent' },
  { scope: 'task', key: 'use', advice: 'use: is gone: bind values with with: { alias: "${{ tasks.a.output }}" } and read them as ${{ with.alias }}' },
  { scope: 'task', key: 'description', advice: 'a task description: is not part of v1: write it as a YAML comment' },
  { scope: 'task', key: 'as', advice: 'as: is gone: inside for_each the element is always ${{ item }} and its position ${{ index }}' },
  { scope: 'task', key: 'concurrency', advice: 'concurrency: moved into for_each: { items: …, max_parallel: N }' },
  { scope: 'task', key: 'max_parallel', advice: 'max_parallel: moved into for_each: { items: …, max_parallel: N }' },
  { scope: 'task', key: 'fail_fast', advice: 'fail_fast: moved into for_each: { items: …, fail_fast: false }' },
  { scope: 'task', key: 'timeout_ms', advice: 'timeout_ms: is gone: write timeout: "60s"' },
  { scope: 'task', key: 'on_finally', advice: 'on_finally: is gone: write a separate task with after: { this_task: unwind }' },
  { scope: 'task', key: 'fetch', advice: 'the fetch: verb is gone: use invoke: { tool: nika:fetch, args: { url: … } }' },
  { scope: 'task', key: 'provider', advice: 'provider: is gone: name the provider in the model, model: <provider>/<name>' },
  { scope: 'task', key: 'decompose', advice: 'decompose: is gone: fan out with for_each: { items: … }' },
  { scope: 'task', key: 'preset', advice: 'agent presets are gone: write the agent: fields on the task' },

  { scope: 'infer', key: 'provider', advice: 'provider: is gone: name the provider in the model, model: <provider>/<name>' },
  { scope: 'infer', key: 'extended_thinking', advice: 'extended_thinking: became thinking: { enabled: true, budget_tokens: N }' },
  { scope: 'infer', key: 'thinking_budget', advice: 'thinking_budget: became thinking: { enabled: true, budget_tokens: N }' },
  { scope: 'agent', key: 'provider', advice: 'provider: is gone: name the provider in the model, model: <provider>/<name>' },
  { scope: 'agent', key: 'mcp', advice: 'mcp: [server] became tools: ["mcp:server/*"] (the agent may call every tool of that server)' },
  { scope: 'agent', key: 'token_budget', rename: 'max_tokens_total', advice: 'token_budget: was renamed max_tokens_total:' },
  { scope: 'agent', key: 'stop_conditions', advice: 'stop_conditions: are gone: grant nika:done in tools: and the agent ends by calling it' },
  { scope: 'agent', key: 'stop_sequences', advice: 'stop_sequences: are gone: grant nika:done in tools: and the agent ends by calling it' },
  { scope: 'agent', key: 'extended_thinking', advice: 'extended thinking is not an agent field in v1' },
  { scope: 'agent', key: 'thinking_budget', advice: 'extended thinking is not an agent field in v1' },
  { scope: 'agent', key: 'scope', advice: 'scope: is gone' },
  { scope: 'agent', key: 'depth_limit', advice: 'depth_limit: is gone' },
  { scope: 'exec', key: 'timeout', advice: 'the exec timeout moved to the task: timeout: "60s"' },
  { scope: 'invoke', key: 'params', rename: 'args', advice: 'params: was renamed args:' },
  { scope: 'invoke', key: 'input', rename: 'args', advice: 'input: was renamed args:' },
  { scope: 'invoke', key: 'mcp', advice: 'invoke: { mcp: s, tool: t } became tool: "mcp:s/t"' },
  { scope: 'invoke', key: 'resource', advice: 'MCP resources are not read by invoke in v1' },
  { scope: 'on_error', key: 'fallback', rename: 'recover', code: 'NIKA-PARSE-012', advice: 'fallback: was renamed recover:' },
  { scope: 'on_error', key: 'value', rename: 'recover', code: 'NIKA-PARSE-012', advice: 'value: was renamed recover:' },
  { scope: 'on_error', key: 'fail_workflow', code: 'NIKA-PARSE-012', advice: 'fail_workflow: is gone: failing is the default, so leave on_error: out' },
];

export function oldSpelling(scope: Scope, key: string): OldSpelling | undefined {
  return OLD_SPELLINGS.find((o) => o.scope === scope && o.key === key);
}
