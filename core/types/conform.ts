// Does a value fit a type (reference §4.8)? Used for `inputs.*.default` and typed `const` values
// (NIKA-DEFAULT-001) and by the engine for inputs given at run time. Answers with the first
// misfits and where they are, so the finding can sit on the exact sub-value.
import { parseDuration } from '../duration.js';
import { showType, type TypeNode, type TypePath } from './grammar.js';

export interface Misfit { path: TypePath; message: string }

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;

/** Misfits of `value` against `type` (empty = fits). At most `limit` are collected. */
export function conform(type: TypeNode, value: unknown, limit = 5): Misfit[] {
  const out: Misfit[] = [];
  check(type, value, [], out, limit, 0);
  return out;
}

export function fits(type: TypeNode, value: unknown): boolean {
  return conform(type, value, 1).length === 0;
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v === 'number' ? (Number.isInteger(v) ? 'the integer' : 'the number') : 'the boolean'} ${String(v)}`;
}

function check(t: TypeNode, v: unknown, path: TypePath, out: Misfit[], limit: number, depth: number): void {
  if (out.length >= limit || depth > 64) return;
  const miss = (message: string, at: TypePath = path): void => { out.push({ path: at, message }); };
  const expect = (): void => miss(`expected ${showType(t)}, got ${describe(v)}`);
  switch (t.kind) {
    case 'any': return;
    case 'prim':
      switch (t.name) {
        case 'null': if (v !== null && v !== undefined) expect(); return;
        case 'bool': if (typeof v !== 'boolean') expect(); return;
        case 'integer': if (typeof v !== 'number' || !Number.isInteger(v)) expect(); return;
        case 'number': if (typeof v !== 'number' || !Number.isFinite(v)) expect(); return;
        case 'string': case 'path': case 'bytes': if (typeof v !== 'string') expect(); return;
        case 'uri': if (typeof v !== 'string' || !URI.test(v)) miss(typeof v === 'string' ? `expected a URI with a scheme (https://…), got ${describe(v)}` : `expected uri, got ${describe(v)}`); return;
        case 'duration': {
          if (typeof v !== 'string') { expect(); return; }
          const d = parseDuration(v);
          if (!d.ok) miss(`expected a duration such as "30s": ${d.reason}`);
          return;
        }
        case 'timestamp': if (typeof v !== 'string' || !TIMESTAMP.test(v)) miss(`expected an RFC 3339 timestamp such as "2026-01-31T12:00:00Z", got ${describe(v)}`); return;
      }
      return;
    case 'array':
      if (!Array.isArray(v)) { expect(); return; }
      v.forEach((x, i) => check(t.of, x, [...path, i], out, limit, depth + 1));
      return;
    case 'map':
      if (!isObject(v)) { expect(); return; }
      for (const [k, x] of Object.entries(v)) check(t.of, x, [...path, k], out, limit, depth + 1);
      return;
    case 'object': {
      if (!isObject(v)) { expect(); return; }
      const names = new Set(t.fields.map((f) => f.name));
      for (const f of t.fields) {
        if (!(f.name in v)) { if (!f.optional) miss(`missing field "${f.name}" (${showType(f.type)})`); continue; }
        check(f.type, v[f.name], [...path, f.name], out, limit, depth + 1);
      }
      if (!t.additional) for (const k of Object.keys(v)) if (!names.has(k)) miss(`unexpected field "${k}" (the object type is closed; add additional: true to allow more)`, [...path, k]);
      return;
    }
    case 'union':
      if (!t.of.some((m) => conform(m, v, 1).length === 0)) expect();
      return;
    case 'enum':
      if (typeof v !== 'string' || !t.values.includes(v)) miss(`expected one of ${t.values.map((x) => JSON.stringify(x)).join(', ')}, got ${describe(v)}`);
      return;
    case 'int-range': case 'num-range':
      if (typeof v !== 'number' || !Number.isFinite(v) || (t.kind === 'int-range' && !Number.isInteger(v))) { expect(); return; }
      if (t.min !== undefined && v < t.min) miss(`${v} is below the minimum ${t.min}`);
      else if (t.max !== undefined && v > t.max) miss(`${v} is above the maximum ${t.max}`);
      return;
    case 'string': {
      if (typeof v !== 'string') { expect(); return; }
      const len = [...v].length;
      if (t.minLen !== undefined && len < t.minLen) miss(`the string has ${len} characters; at least ${t.minLen} are required`);
      else if (t.maxLen !== undefined && len > t.maxLen) miss(`the string has ${len} characters; at most ${t.maxLen} are allowed`);
      else if (t.pattern !== undefined) {
        let re: RegExp | undefined;
        try { re = new RegExp(t.pattern); } catch { re = undefined; }
        if (re && !re.test(v)) miss(`${describe(v)} does not match the pattern /${t.pattern}/`);
      }
      return;
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
