// Turning raw ajv errors into findings a person can act on: one finding per mistake, in terms
// of keys and values ("unknown key", "missing key", "must be one of …"), with the noise of
// anyOf/oneOf alternatives collapsed into the one alternative the author evidently meant.
import type { ErrorObject } from 'ajv';
import type { Dialect } from '../ir.js';
import { resolveRef, type JsonSchema } from './registry.js';

/** A path into the validated value: keys, and list indices as numbers. */
export type ValuePath = Array<string | number>;

export type Finding =
  | { kind: 'unknown-key'; path: ValuePath; key: string; candidates: string[] }
  | { kind: 'missing-key'; path: ValuePath; key: string }
  /** An "exactly one of these keys" rule with none present. */
  | { kind: 'exclusive-none'; path: ValuePath; keys: string[] }
  /** An "exactly one of these keys" rule with several present (in schema order). */
  | { kind: 'exclusive-many'; path: ValuePath; keys: string[] }
  | { kind: 'bad-key-name'; path: ValuePath; key: string; message: string; code?: string }
  | { kind: 'bad-value'; path: ValuePath; keyword: string; message: string; pattern?: string; allowed?: unknown[]; code?: string }
  /** A cross-field rule of the schema (annotated with x-nika-message / x-nika-code / x-nika-at). */
  | { kind: 'constraint'; path: ValuePath; message: string; code?: string; at?: string };

type Schema = Record<string, unknown>;

export function pointerToPath(pointer: string, value: unknown): ValuePath {
  if (pointer === '') return [];
  const out: ValuePath = [];
  let node = value;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(seg)) {
      out.push(Number(seg));
      node = node[Number(seg)];
    } else {
      out.push(seg);
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

function isPrefix(prefix: string, pointer: string): boolean {
  return pointer === prefix || pointer.startsWith(prefix + '/');
}

// Schemas are static: what a branch reaches is computed once per branch, not once per error
// (documents with thousands of tasks have thousands of anyOf errors over the same branches).
const reachCache = new Map<Dialect, WeakMap<object, Set<unknown>>>();

/** Every schema object reachable from `root`, following local $refs. */
function reachable(dialect: Dialect, root: unknown): Set<unknown> {
  if (!root || typeof root !== 'object') return reachableUncached(dialect, root);
  let byRoot = reachCache.get(dialect);
  if (!byRoot) reachCache.set(dialect, (byRoot = new WeakMap()));
  let hit = byRoot.get(root);
  if (!hit) byRoot.set(root, (hit = reachableUncached(dialect, root)));
  return hit;
}

function reachableUncached(dialect: Dialect, root: unknown, into = new Set<unknown>()): Set<unknown> {
  const stack: unknown[] = [root];
  while (stack.length) {
    const s = stack.pop();
    if (!s || typeof s !== 'object' || into.has(s)) continue;
    into.add(s);
    if (Array.isArray(s)) { stack.push(...s); continue; }
    for (const [k, v] of Object.entries(s as Schema)) {
      if (k === '$ref' && typeof v === 'string') stack.push(resolveRef(dialect, v));
      else if (k !== 'enum' && k !== 'const' && k !== 'examples' && k !== 'default') stack.push(v);
    }
  }
  return into;
}

function deref(dialect: Dialect, s: unknown): Schema | undefined {
  let cur = s;
  for (let i = 0; i < 10 && cur && typeof cur === 'object' && typeof (cur as Schema).$ref === 'string'; i++) {
    cur = resolveRef(dialect, (cur as Schema).$ref as string);
  }
  return cur && typeof cur === 'object' ? (cur as Schema) : undefined;
}

function jsType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The JSON types a schema admits (undefined = any). */
function typesOf(dialect: Dialect, s: unknown): Set<string> | undefined {
  const d = deref(dialect, s);
  if (!d) return undefined;
  if (typeof d.type === 'string') return new Set([d.type]);
  if (Array.isArray(d.type)) return new Set(d.type as string[]);
  const values = Array.isArray(d.enum) ? d.enum : 'const' in d ? [d.const] : undefined;
  if (values) return new Set(values.map(jsType));
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(d[k])) {
      const all = new Set<string>();
      for (const b of d[k] as unknown[]) {
        const t = typesOf(dialect, b);
        if (!t) return undefined;
        t.forEach((x) => all.add(x));
      }
      return all;
    }
  }
  return undefined;
}

function admits(types: Set<string> | undefined, t: string): boolean {
  if (!types) return true;
  return types.has(t) || (t === 'integer' && types.has('number'));
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false',
  object: 'a mapping (key: value)', array: 'a list', null: 'empty',
};

export function describeTypes(types: Iterable<string>): string {
  const words = [...new Set([...types].map((t) => TYPE_WORDS[t] ?? t))];
  return words.length <= 1 ? words[0] ?? 'something else' : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** How one alternative of an anyOf reads in a message. */
function describeBranch(dialect: Dialect, s: unknown): string {
  const d = deref(dialect, s);
  if (!d) return 'something else';
  if (typeof d.pattern === 'string' && d.pattern.includes('\\$\\{\\{')) return 'a ${{ }} expression';
  if (Array.isArray(d.enum)) return d.enum.map((x) => JSON.stringify(x)).join(', ');
  const types = typesOf(dialect, d);
  let text = types ? describeTypes(types) : 'something else';
  if (typeof d.minimum === 'number' && typeof d.maximum === 'number') text += ` from ${d.minimum} to ${d.maximum}`;
  else if (typeof d.minimum === 'number') text += ` of at least ${d.minimum}`;
  return text;
}

function isExclusiveKeys(branches: unknown[]): string[] | undefined {
  const keys: string[] = [];
  for (const b of branches) {
    if (!b || typeof b !== 'object') return undefined;
    const entries = Object.keys(b as Schema);
    const req = (b as Schema).required;
    if (entries.length !== 1 || !Array.isArray(req) || req.length !== 1) return undefined;
    keys.push(String(req[0]));
  }
  return keys;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * `(pointer, idx)` → the errors before `idx` at or below `pointer`, in error order. A sorted index
 * instead of a scan per combinator: a file with thousands of tasks has thousands of oneOf errors,
 * and scanning every earlier error for each was quadratic (20,000 empty tasks took minutes).
 */
function errorsUnder(errors: ErrorObject[]): (pointer: string, idx: number) => ErrorObject[] {
  const sorted = errors.map((e, i) => ({ p: e.instancePath, i })).sort((a, b) => (a.p < b.p ? -1 : a.p > b.p ? 1 : a.i - b.i));
  return (pointer, idx) => {
    let lo = 0, hi = sorted.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid]!.p < pointer) lo = mid + 1; else hi = mid; }
    const hits: number[] = [];
    for (let j = lo; j < sorted.length && sorted[j]!.p.startsWith(pointer); j++) {
      const { p, i } = sorted[j]!;
      if (i < idx && isPrefix(pointer, p)) hits.push(i);
    }
    return hits.sort((a, b) => a - b).map((i) => errors[i]!);
  };
}

export function explain(dialect: Dialect, errors: ErrorObject[], value: unknown): Finding[] {
  const findings: Finding[] = [];
  const consumed = new Set<ErrorObject>();
  const path = (e: ErrorObject) => pointerToPath(e.instancePath, value);

  // 1. Alternatives (anyOf / oneOf): outermost first — they appear after their branches' errors.
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const delegated = new Set<ErrorObject>();
  const indexOf = new Map(errors.map((e, i) => [e, i]));
  const before = errorsUnder(errors);
  for (const c of combinators.reverse()) {
    if (consumed.has(c)) continue;
    consumed.add(c);
    const branches = (Array.isArray(c.schema) ? c.schema : []) as unknown[];
    const reach = branches.map((b) => reachable(dialect, b));
    const idx = indexOf.get(c)!;
    const sub = before(c.instancePath, idx).filter((e) => !consumed.has(e) && reach.some((r) => r.has(e.parentSchema)));
    sub.forEach((e) => consumed.add(e));
    const exclusive = isExclusiveKeys(branches);
    const data = c.data;
    if (exclusive) {
      const present = exclusive.filter((k) => data && typeof data === 'object' && k in (data as object));
      if (present.length === 0) findings.push({ kind: 'exclusive-none', path: path(c), keys: exclusive });
      else if (present.length > 1) findings.push({ kind: 'exclusive-many', path: path(c), keys: present });
      continue;
    }
    const t = jsType(data);
    const fitting = branches.map((b, i) => ({ i, b })).filter(({ b }) => admits(typesOf(dialect, b), t));
    if (fitting.length === 0) {
      findings.push({ kind: 'bad-value', path: path(c), keyword: 'type', message: `must be ${branches.map((b) => describeBranch(dialect, b)).join(' or ')}` });
      continue;
    }
    // The alternative whose type fits is what the author meant; report why it failed.
    let best = fitting[0];
    let bestErrs = sub.filter((e) => reach[best.i].has(e.parentSchema));
    for (const f of fitting.slice(1)) {
      const errs = sub.filter((e) => reach[f.i].has(e.parentSchema));
      if (errs.length < bestErrs.length) { best = f; bestErrs = errs; }
    }
    // A plain string where "a number or a ${{ }} expression" is expected fits the expression
    // alternative by type only; say what the field takes instead of quoting a regex.
    const bestIsExpression = describeBranch(dialect, best.b) === 'a ${{ }} expression';
    if (bestErrs.length === 0 || (bestIsExpression && typeof data === 'string' && !data.includes('${{'))) {
      findings.push({ kind: 'bad-value', path: path(c), keyword: c.keyword, message: `must be ${branches.map((b) => describeBranch(dialect, b)).join(' or ')}` });
    } else {
      for (const e of bestErrs) delegated.add(e);
    }
  }

  // 2. Everything else, keyword by keyword.
  const rest = errors.filter((e) => !consumed.has(e) || delegated.has(e));
  const byName = new Map<string, ErrorObject[]>();
  for (const e of rest) {
    const pn = (e as ErrorObject & { propertyName?: string }).propertyName;
    if (pn !== undefined && e.keyword !== 'propertyNames') {
      const key = `${e.instancePath}\u0000${pn}`;
      byName.set(key, [...(byName.get(key) ?? []), e]);
    }
  }
  for (const e of rest) {
    if ((e as ErrorObject & { propertyName?: string }).propertyName !== undefined && e.keyword !== 'propertyNames') continue;
    const p = path(e);
    const ps = (e.parentSchema ?? {}) as Schema;
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'if':
        break;
      case 'additionalProperties': {
        const props = ps.properties && typeof ps.properties === 'object' ? Object.keys(ps.properties as Schema) : [];
        findings.push({ kind: 'unknown-key', path: p, key: String(params.additionalProperty), candidates: props });
        break;
      }
      case 'required':
        findings.push({ kind: 'missing-key', path: p, key: String(params.missingProperty) });
        break;
      case 'propertyNames': {
        const name = String(params.propertyName);
        const inner = byName.get(`${e.instancePath}\u0000${name}`) ?? [];
        const first = inner[0];
        const ips = (first?.parentSchema ?? {}) as Schema;
        const message = typeof ips['x-nika-message'] === 'string' ? ips['x-nika-message'] as string
          : first?.keyword === 'pattern' ? patternMessage(String(first.params.pattern)) : 'is not an allowed name here';
        findings.push({ kind: 'bad-key-name', path: p, key: name, message, code: typeof ips['x-nika-code'] === 'string' ? ips['x-nika-code'] as string : undefined });
        break;
      }
      case 'not': {
        if (typeof ps['x-nika-message'] === 'string') {
          findings.push({
            kind: 'constraint', path: p, message: ps['x-nika-message'] as string,
            code: typeof ps['x-nika-code'] === 'string' ? ps['x-nika-code'] as string : undefined,
            at: typeof ps['x-nika-at'] === 'string' ? ps['x-nika-at'] as string : undefined,
          });
        } else {
          findings.push({ kind: 'bad-value', path: p, keyword: 'not', message: 'is not allowed here' });
        }
        break;
      }
      case 'type':
        findings.push({ kind: 'bad-value', path: p, keyword: 'type', message: `must be ${describeTypes(String(params.type).split(','))}` });
        break;
      case 'enum': {
        const allowed = (params.allowedValues as unknown[]) ?? [];
        findings.push({ kind: 'bad-value', path: p, keyword: 'enum', message: `must be one of ${allowed.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(', ')}`, allowed });
        break;
      }
      case 'const':
        findings.push({ kind: 'bad-value', path: p, keyword: 'const', message: `must be ${JSON.stringify(params.allowedValue)}`, allowed: [params.allowedValue] });
        break;
      case 'pattern':
        findings.push({ kind: 'bad-value', path: p, keyword: 'pattern', message: patternMessage(String(params.pattern)), pattern: String(params.pattern) });
        break;
      case 'minimum': case 'exclusiveMinimum':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: `must be at least ${params.limit}` });
        break;
      case 'maximum': case 'exclusiveMaximum':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: `must be at most ${params.limit}` });
        break;
      case 'minItems':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: `must have at least ${plural(Number(params.limit), 'item')}` });
        break;
      case 'minProperties':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: Number(params.limit) === 1 ? 'must not be empty' : `must have at least ${plural(Number(params.limit), 'entry')}` });
        break;
      case 'minLength':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: Number(params.limit) === 1 ? 'must not be empty' : `must be at least ${plural(Number(params.limit), 'character')} long` });
        break;
      case 'maxLength':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: `must be at most ${plural(Number(params.limit), 'character')} long` });
        break;
      case 'maxItems':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: `must have at most ${plural(Number(params.limit), 'item')}` });
        break;
      case 'uniqueItems':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: `must not repeat items (items ${params.j} and ${params.i} are equal)` });
        break;
      case 'dependencies': case 'dependentRequired':
        findings.push({ kind: 'constraint', path: p, message: `"${params.property}" is only allowed together with "${params.missingProperty}"`, at: String(params.property) });
        break;
      case 'false schema':
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: 'is not allowed here' });
        break;
      default:
        findings.push({ kind: 'bad-value', path: p, keyword: e.keyword, message: e.message ?? 'is not valid' });
    }
  }
  return findings;
}

/** Plain-language descriptions of the patterns our schemas use. */
const PATTERNS: Array<[RegExp, string]> = [
  [/^\^\[a-z\]\[a-z0-9-\]\*\$$/, 'must be kebab-case: a lowercase letter, then lowercase letters, digits or hyphens'],
  [/^\^\[a-z\]\[a-z0-9_\]\*\$$/, 'must be snake_case: a lowercase letter, then lowercase letters, digits or underscores (no hyphens)'],
  [/^\^\[a-z\]\[a-z0-9_-\]\*\$$/, 'must start with a lowercase letter, then lowercase letters, digits, _ or -'],
  [/^\^nika:/, 'is not a tool id: use nika:<builtin> or mcp:<server>/<tool>'],
  [/^\^\(\?:\[a-z\]\[a-z0-9_-\]\*\//, 'must be <provider>/<name>, e.g. anthropic/claude-sonnet-4-5, ollama/qwen3.5:4b or mock/echo'],
  [/^\^NIKA-/, 'must be a Nika error code such as NIKA-EXEC-001'],
  [/^\^\[A-Za-z_\]\[A-Za-z0-9_\]\*\$$/, 'must be a name of letters, digits and underscores, not starting with a digit'],
  [/^\^\[A-Za-z_\]\[A-Za-z0-9_\]\*\(/, 'must be a dotted value path such as inputs.prompt'],
  [/^\^\(\?=/, 'must be a positive duration such as "30s", "1h30m" or "250ms"'],
  [/\\\$\\\{\\\{/, 'must be a ${{ }} expression'],
  [/^\^nika\/workflow@/, 'must be nika/workflow@0.N'],
];

export function patternMessage(pattern: string): string {
  for (const [re, text] of PATTERNS) if (re.test(pattern)) return text;
  return `does not have the expected form (${pattern})`;
}
