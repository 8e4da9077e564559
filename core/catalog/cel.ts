// What may appear inside `${{ }}` (reference §4.2–4.3, §11.2), as data for the parser, the
// checker, completion and hover. The parser takes its closed callable set from here so the two
// can never disagree.

export interface CelCallable {
  name: string;
  /** `function` = free call `size(x)`; `method` = receiver call `x.size()`. */
  form: 'function' | 'method';
  /** Number of arguments, receiver excluded. */
  arity: number;
  signature: string;
  description: string;
}

export const CEL_CALLABLES: readonly CelCallable[] = [
  { name: 'size', form: 'function', arity: 1, signature: 'size(x) → int', description: 'Length of a string (in code points), list or map.' },
  { name: 'has', form: 'function', arity: 1, signature: 'has(ref) → bool', description: 'True when the reference resolves to a defined, non-null value; never fails.' },
  { name: 'size', form: 'method', arity: 0, signature: 'x.size() → int', description: 'Length of a string (in code points), list or map.' },
  { name: 'contains', form: 'method', arity: 1, signature: 's.contains(sub) → bool', description: 'True when the string contains `sub`.' },
  { name: 'startsWith', form: 'method', arity: 1, signature: 's.startsWith(prefix) → bool', description: 'True when the string begins with `prefix`.' },
  { name: 'endsWith', form: 'method', arity: 1, signature: 's.endsWith(suffix) → bool', description: 'True when the string ends with `suffix`.' },
];

export const CEL_FUNCTIONS: ReadonlyMap<string, CelCallable> = new Map(
  CEL_CALLABLES.filter((c) => c.form === 'function').map((c) => [c.name, c]),
);
export const CEL_METHODS: ReadonlyMap<string, CelCallable> = new Map(
  CEL_CALLABLES.filter((c) => c.form === 'method').map((c) => [c.name, c]),
);

/** Words that can never name a variable. */
export const CEL_KEYWORDS: readonly string[] = ['true', 'false', 'null', 'in'];

export interface RootDoc { name: string; description: string; /** Bare identifier rather than a namespace. */ local?: boolean }

export const EXPRESSION_ROOTS: readonly RootDoc[] = [
  { name: 'inputs', description: 'Typed workflow inputs supplied by the caller (`inputs:` block).' },
  { name: 'const', description: 'Constants fixed in the file (`const:` block).' },
  { name: 'secrets', description: 'Masked secret values (`secrets:` block); their flow to sinks is checked.' },
  { name: 'with', description: "This task's own bindings (`with:` block)." },
  { name: 'tasks', description: 'Records of settled upstream tasks: `tasks.<id>.output`, `.status`, …' },
  { name: 'group', description: 'Fan-in of a task group as a list of member records; only inside `with:` values.' },
  { name: 'item', description: 'The current element of a `for_each` collection.', local: true },
  { name: 'index', description: 'The 0-based position of the current `for_each` element.', local: true },
];

/** Roots that older dialects used; each has its own diagnostic in current v1. */
export const DEAD_ROOTS: ReadonlyMap<string, { code: string; hint: string }> = new Map([
  ['vars', { code: 'NIKA-VALUES-001', hint: 'move the value into `inputs:`, `const:` or `secrets:`' }],
  ['env', { code: 'NIKA-VALUES-002', hint: 'use an input with a default, a `secrets:` entry with `source: env`, or `exec.env`' }],
  ['config', { code: 'NIKA-VALUES-003', hint: 'use an input with `required: false` and a `default:`' }],
]);

export interface ProjectionDoc { name: string; type: string; description: string }

export const TASK_PROJECTIONS: readonly ProjectionDoc[] = [
  { name: 'output', type: 'any', description: "The task's result (null when skipped or cancelled)." },
  { name: 'status', type: 'string', description: 'Terminal state: success | failure | skipped | cancelled.' },
  { name: 'error', type: 'object | null', description: 'The error record `{code, message, …}`, null unless the task failed or was skipped by on_error.' },
  { name: 'duration_ms', type: 'integer', description: 'Wall time of the task in milliseconds.' },
  { name: 'started_at', type: 'timestamp', description: 'When the task started (ISO 8601).' },
  { name: 'ended_at', type: 'timestamp', description: 'When the task settled (ISO 8601).' },
];

/** `with:`/`extract:` keys that would shadow a projection (NIKA-PARSE-013). */
export const RESERVED_BINDING_NAMES: ReadonlySet<string> = new Set(TASK_PROJECTIONS.map((p) => p.name));

export const TASK_STATUSES: readonly string[] = ['success', 'failure', 'skipped', 'cancelled'];

export const CEL_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
