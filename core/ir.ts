// The one workflow model every dialect normalizes into. The language server checks it and the
// engine runs it, so it keeps what execution needs (values, edges, policies) and where each
// piece came from (spans, YAML paths) for diagnostics and navigation.
import type { Span } from './text.js';

export type Dialect = 'v1' | 'v1-draft' | 'legacy';
export type Verb = 'infer' | 'exec' | 'invoke' | 'agent';
export const VERBS: readonly Verb[] = ['infer', 'exec', 'invoke', 'agent'];
export type Predicate = 'success' | 'failure' | 'skipped' | 'terminal' | 'unwind';
export const PREDICATES: readonly Predicate[] = ['success', 'failure', 'skipped', 'terminal', 'unwind'];
/** A path into the YAML document: map keys and sequence indices. */
export type YamlPath = Array<string | number>;

/**
 * Values keep the JS shape YAML gives them. A string may hold `${{ }}` islands; those are
 * evaluated by the engine at run time (core/expr). Legacy `{{use.x}}` templates and `use:`
 * paths are rewritten into current `${{ }}` syntax during normalization, so the engine only
 * ever evaluates one expression language.
 */
export type Value = unknown;

export interface InputDecl {
  type?: Value;
  required: boolean;
  default?: Value;
  hasDefault: boolean;
  description?: string;
  span: Span;
}

export interface SecretDecl {
  source?: 'env' | 'file' | 'vault' | string;
  key?: string;
  path?: string;
  egress?: Array<{ to: string; host?: string; host_from_self?: string }>;
  span: Span;
}

export interface Permits {
  fs?: { read?: string[]; write?: string[] };
  net?: { http?: string[] };
  exec?: boolean | string[];
  tools?: string[];
  env?: string[];
  span: Span;
}

export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** Where the definition came from, for messages ("workflow mcp: block", ".vscode/mcp.json" …). */
  origin?: string;
}

export interface InferBody {
  verb: 'infer';
  prompt: string;
  system?: string;
  model?: string;
  temperature?: number | string;
  maxTokens?: number | string;
  schema?: Record<string, unknown>;
  thinking?: { enabled?: boolean; budget_tokens?: number };
  vision?: Array<Record<string, unknown>>;
}

export interface ExecBody {
  verb: 'exec';
  /** argv form (current v1). */
  command?: Value[];
  /** `/bin/sh -c` form (current `shell:`, or a v1-draft/legacy string command). */
  shell?: string;
  cwd?: string;
  env?: Record<string, Value>;
  stdin?: string;
  capture: 'stdout' | 'stderr' | 'combined' | 'structured';
  decode: 'text' | 'json' | 'jsonl' | 'bytes';
  /** Legacy per-exec timeout in seconds, folded into the task timeout. */
}

export interface InvokeBody {
  verb: 'invoke';
  /** `nika:<name>` or `mcp:<server>/<tool>`. Absent for resource reads and child workflows. */
  tool?: string;
  workflow?: string;
  args: Record<string, Value>;
  /** Legacy `invoke: { mcp: s, resource: uri }`: read a resource from server `s`. */
  resource?: { server: string; uri: string };
}

export interface AgentBody {
  verb: 'agent';
  prompt: string;
  system?: string;
  model?: string;
  /** Whitelist of tool ids/globs (`mcp:s/*`, `!nika:write`); empty = no tools. */
  tools: string[];
  maxTurns?: number | string;
  maxTokensTotal?: number | string;
  temperature?: number | string;
  schema?: Record<string, unknown>;
  /** Legacy: the loop also ends when the assistant text contains one of these. */
  stopConditions?: string[];
}

export type VerbBody = InferBody | ExecBody | InvokeBody | AgentBody;

export interface RetryPolicy {
  maxAttempts: number;
  backoffMs: number;
  backoffStrategy: 'fixed' | 'linear' | 'exponential';
  backoffMaxMs: number;
  jitter: boolean;
  onCodes?: string[];
}

export interface OnErrorPolicy {
  /** Present iff `recover:` was written (its value may be null). */
  recover?: { value: Value };
  skip?: boolean;
  onCodes?: string[];
}

export interface ForEach {
  items: Value;
  maxParallel?: number | string;
  failFast: boolean;
}

export interface Task {
  id: string;
  /** Where the task lives in the YAML: ['tasks', id] (map) or ['tasks', index] (list dialects). */
  path: YamlPath;
  span: Span;
  /** The task-id token: the map key, or the value of `id:`/`name:` in list dialects. */
  idSpan: Span;
  verb?: Verb;
  body?: VerbBody;
  with: Record<string, Value>;
  after: Record<string, Predicate>;
  group?: string;
  when?: boolean | string;
  forEach?: ForEach;
  retry?: RetryPolicy;
  onError?: OnErrorPolicy;
  /** Go-duration string as written, and its value (per attempt). */
  timeout?: string;
  timeoutMs?: number;
  extract?: Record<string, string>;
  returns?: Value;
  /** Legacy `output: { format: json }`: parse the raw output as JSON. */
  parseOutputAsJson?: boolean;
}

export interface OutputDecl {
  value: Value;
  type?: Value;
  description?: string;
  span: Span;
}

export interface Workflow {
  dialect: Dialect;
  /** `nika/workflow@0.N` for legacy files. */
  legacySchema?: string;
  name?: string;
  model?: string;
  inputs: Record<string, InputDecl>;
  const: Record<string, Value>;
  secrets: Record<string, SecretDecl>;
  /** v1-draft `vars:` and `env:` blocks, read as `${{ vars.X }}` / `${{ env.X }}`. */
  vars: Record<string, Value>;
  env: Record<string, Value>;
  permits?: Permits;
  run?: { entropy?: Value; clock?: Value };
  /** MCP servers declared inside the workflow (v1-draft / legacy `mcp:` block). */
  mcp: Record<string, McpServerConfig>;
  /** In declaration order. Ids are unique after normalization (duplicates are dropped with a diagnostic). */
  tasks: Task[];
  outputs: Record<string, OutputDecl>;
}

export function taskMap(wf: Workflow): Map<string, Task> {
  return new Map(wf.tasks.map((t) => [t.id, t]));
}
