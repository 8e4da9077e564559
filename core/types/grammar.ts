// The closed type grammar of `inputs.*.type`, `const.*.type`, `outputs.*.type` and task
// `returns:` (reference §4.8): ten primitives and eight single-key constructors. Parsing works on
// plain values (what the engine holds) and reports problems by a path relative to the type, so
// the checks can turn them into exact spans and the engine can reuse the same verdicts.
import { regexProblems } from './regex.js';

export const PRIMITIVES = ['null', 'bool', 'integer', 'number', 'string', 'bytes', 'uri', 'path', 'duration', 'timestamp'] as const;
export type Primitive = (typeof PRIMITIVES)[number];
export const CONSTRUCTORS = ['array', 'map', 'object', 'union', 'enum', 'integer', 'number', 'string'] as const;

export type TypeNode =
  | { kind: 'prim'; name: Primitive }
  | { kind: 'array'; of: TypeNode }
  | { kind: 'map'; of: TypeNode }
  | { kind: 'object'; fields: Array<{ name: string; type: TypeNode; optional: boolean }>; additional: boolean }
  | { kind: 'union'; of: TypeNode[] }
  | { kind: 'enum'; values: string[] }
  | { kind: 'int-range' | 'num-range'; min?: number; max?: number }
  | { kind: 'string'; pattern?: string; minLen?: number; maxLen?: number }
  /** What a malformed part is read as, so the rest of the type can still be judged. */
  | { kind: 'any' };

export type TypePath = Array<string | number>;

export interface TypeProblem {
  code: 'NIKA-TYPE-001' | 'NIKA-TYPE-006';
  message: string;
  /** Where, relative to the type expression. */
  path: TypePath;
  /** The key at `path` is at fault (an unknown constructor), rather than the value. */
  onKey?: boolean;
  /** Offset of the fault inside the string value at `path` (regex constructs). */
  offset?: number;
  length?: number;
  /** A replacement for the value (or key) at `path`. */
  suggestion?: string;
  /**
   * The project's JSON Schema for workflows already refuses this shape (unknown primitive names,
   * unknown constructor keys, short unions …); the structure checks report those, so the deep
   * check skips them to avoid saying the same thing twice.
   */
  schemaReports?: boolean;
}

/** Old or neighbouring spellings and the type each one means today. */
const RENAMED: Record<string, string> = {
  boolean: 'bool', bool_: 'bool', float: 'number', double: 'number', decimal: 'number', int: 'integer', long: 'integer',
  text: 'string', str: 'string', url: 'uri', file: 'path', filepath: 'path', datetime: 'timestamp', date: 'timestamp',
  time: 'timestamp', binary: 'bytes', blob: 'bytes', nil: 'null', none: 'null',
};
const CONTAINER_WORDS: Record<string, string> = {
  list: '{ array: T }', array: '{ array: T }', object: '{ object: { field: T } } or { map: T }', dict: '{ map: T }', record: '{ object: { field: T } }',
  any: 'a union of the types you accept', json: 'a union of the types you accept',
};
const RESERVED = new Set(['result', 'secret', 'money', 'artifact']);

export interface ParsedType { type: TypeNode; problems: TypeProblem[] }

export function parseType(value: unknown): ParsedType {
  const problems: TypeProblem[] = [];
  const type = parse(value, [], false, problems, 0);
  return { type, problems };
}

function parse(v: unknown, path: TypePath, fieldPosition: boolean, problems: TypeProblem[], depth: number): TypeNode {
  if (depth > 64) return { kind: 'any' };
  if (v === null || v === undefined) return { kind: 'prim', name: 'null' };
  if (typeof v === 'string') return parseName(v, path, problems);
  if (typeof v !== 'object' || Array.isArray(v)) {
    problems.push({ code: 'NIKA-TYPE-001', message: `${JSON.stringify(v)} is not a type: write a type name such as string, or a constructor such as { array: string }.`, path, schemaReports: true });
    return { kind: 'any' };
  }
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  if ('optional' in obj && keys.length === 1) {
    if (!fieldPosition) {
      problems.push({ code: 'NIKA-TYPE-001', message: '{ optional: T } only marks a field inside { object: { … } } as possibly absent; here write T, or { union: [T, null] } for a nullable value.', path: [...path, 'optional'], onKey: true });
    }
    return parse(obj.optional, [...path, 'optional'], false, problems, depth + 1);
  }
  const ctors = keys.filter((k) => (CONSTRUCTORS as readonly string[]).includes(k));
  const unknown = keys.filter((k) => !(CONSTRUCTORS as readonly string[]).includes(k) && !(k === 'additional' && 'object' in obj) && k !== 'optional');
  for (const k of unknown) {
    const s = suggestKey(k);
    problems.push({ code: 'NIKA-TYPE-001', message: `"${k}" is not a type constructor (array, map, object, union, enum, integer, number, string).${s ? ` Did you mean "${s}"?` : ''}`, path: [...path, k], onKey: true, suggestion: s, schemaReports: true });
  }
  if ('optional' in obj) {
    problems.push({ code: 'NIKA-TYPE-001', message: 'optional: wraps a whole field type ({ optional: T }) and cannot sit next to another constructor.', path: [...path, 'optional'], onKey: true });
  }
  if (ctors.length === 0) {
    if (keys.length === 0) problems.push({ code: 'NIKA-TYPE-001', message: 'An empty mapping is not a type.', path, schemaReports: true });
    return { kind: 'any' };
  }
  for (const extra of ctors.slice(1)) {
    problems.push({ code: 'NIKA-TYPE-001', message: `A type constructor is a single-key mapping; "${ctors[0]}" and "${extra}" cannot be combined (use { union: [ … ] } for either-or).`, path: [...path, extra], onKey: true });
  }
  const ctor = ctors[0];
  const arg = obj[ctor];
  const at = [...path, ctor];
  switch (ctor) {
    case 'array': return { kind: 'array', of: parse(arg, at, false, problems, depth + 1) };
    case 'map': return { kind: 'map', of: parse(arg, at, false, problems, depth + 1) };
    case 'object': {
      const fields: Array<{ name: string; type: TypeNode; optional: boolean }> = [];
      if (arg && typeof arg === 'object' && !Array.isArray(arg)) {
        for (const [name, ft] of Object.entries(arg as Record<string, unknown>)) {
          const optional = !!ft && typeof ft === 'object' && !Array.isArray(ft) && Object.keys(ft).length === 1 && 'optional' in ft;
          fields.push({ name, type: parse(ft, [...at, name], true, problems, depth + 1), optional });
        }
      } else {
        problems.push({ code: 'NIKA-TYPE-001', message: 'object: takes a mapping of field name → type, e.g. { object: { name: string } }.', path: at, schemaReports: true });
      }
      const additional = obj.additional === true;
      if ('additional' in obj && typeof obj.additional !== 'boolean') {
        problems.push({ code: 'NIKA-TYPE-001', message: 'additional: is true or false.', path: [...path, 'additional'], schemaReports: true });
      }
      return { kind: 'object', fields, additional };
    }
    case 'union': {
      if (!Array.isArray(arg) || arg.length < 2) {
        problems.push({ code: 'NIKA-TYPE-001', message: 'union: takes a list of at least two types, e.g. { union: [string, null] }.', path: at, schemaReports: true });
        return Array.isArray(arg) && arg.length === 1 ? parse(arg[0], [...at, 0], false, problems, depth + 1) : { kind: 'any' };
      }
      return { kind: 'union', of: arg.map((t, i) => parse(t, [...at, i], false, problems, depth + 1)) };
    }
    case 'enum': {
      if (!Array.isArray(arg) || arg.length === 0) {
        problems.push({ code: 'NIKA-TYPE-001', message: 'enum: takes a non-empty list of strings.', path: at, schemaReports: true });
        return { kind: 'any' };
      }
      const values: string[] = [];
      arg.forEach((x, i) => {
        if (typeof x !== 'string') problems.push({ code: 'NIKA-TYPE-001', message: `enum values are strings; quote ${JSON.stringify(x)}.`, path: [...at, i], suggestion: JSON.stringify(String(x)), schemaReports: true });
        else if (values.includes(x)) problems.push({ code: 'NIKA-TYPE-001', message: `"${x}" is listed twice.`, path: [...at, i], schemaReports: true });
        else values.push(x);
      });
      return { kind: 'enum', values };
    }
    case 'integer': case 'number': {
      const b = bounds(arg, at, problems);
      return { kind: ctor === 'integer' ? 'int-range' : 'num-range', ...b };
    }
    case 'string': {
      const s: TypeNode & { kind: 'string' } = { kind: 'string' };
      if (arg === null || arg === undefined) return s;
      if (typeof arg !== 'object' || Array.isArray(arg)) {
        problems.push({ code: 'NIKA-TYPE-001', message: 'string: takes { pattern, min_len, max_len }.', path: at, schemaReports: true });
        return s;
      }
      const o = arg as Record<string, unknown>;
      if (typeof o.pattern === 'string') {
        s.pattern = o.pattern;
        for (const r of regexProblems(o.pattern)) problems.push({ code: 'NIKA-TYPE-006', message: r.message, path: [...at, 'pattern'], offset: r.offset, length: r.length });
      }
      if (typeof o.min_len === 'number') s.minLen = o.min_len;
      if (typeof o.max_len === 'number') s.maxLen = o.max_len;
      if (s.minLen !== undefined && s.maxLen !== undefined && s.minLen > s.maxLen) {
        problems.push({ code: 'NIKA-TYPE-001', message: `min_len (${s.minLen}) is greater than max_len (${s.maxLen}): no string fits.`, path: [...at, 'min_len'] });
      }
      return s;
    }
  }
  return { kind: 'any' };
}

function bounds(arg: unknown, at: TypePath, problems: TypeProblem[]): { min?: number; max?: number } {
  if (!arg || typeof arg !== 'object' || Array.isArray(arg)) return {};
  const o = arg as Record<string, unknown>;
  const b: { min?: number; max?: number } = {};
  if (typeof o.min === 'number') b.min = o.min;
  if (typeof o.max === 'number') b.max = o.max;
  if (b.min !== undefined && b.max !== undefined && b.min > b.max) {
    problems.push({ code: 'NIKA-TYPE-001', message: `min (${b.min}) is greater than max (${b.max}): no number fits.`, path: [...at, 'min'] });
  }
  return b;
}

function parseName(name: string, path: TypePath, problems: TypeProblem[]): TypeNode {
  if ((PRIMITIVES as readonly string[]).includes(name)) return { kind: 'prim', name: name as Primitive };
  const lower = name.toLowerCase();
  let suggestion: string | undefined;
  let message: string;
  if ((PRIMITIVES as readonly string[]).includes(lower)) {
    suggestion = lower;
    message = `Unknown type "${name}"; type names are lowercase: "${lower}".`;
  } else if (RENAMED[lower]) {
    suggestion = RENAMED[lower];
    message = `Unknown type "${name}"; the Nika spelling is "${suggestion}".`;
  } else if (CONTAINER_WORDS[lower]) {
    message = `Unknown type "${name}"; write ${CONTAINER_WORDS[lower]}.`;
  } else if (RESERVED.has(lower.replace(/<.*$/, ''))) {
    message = `"${name}" is a reserved type name, not an authorable type.`;
  } else if (/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    message = `Unknown type "${name}": named types are gone; write the type inline (e.g. { object: { … } }).`;
  } else {
    const near = nearest(lower, PRIMITIVES);
    suggestion = near;
    message = `Unknown type "${name}".${near ? ` Did you mean "${near}"?` : ''} Types: ${PRIMITIVES.join(', ')}, or a constructor such as { array: string }.`;
  }
  problems.push({ code: 'NIKA-TYPE-001', message, path, suggestion, schemaReports: true });
  return { kind: 'any' };
}

function suggestKey(k: string): string | undefined {
  const lower = k.toLowerCase();
  if (lower === 'list' || lower === 'items') return 'array';
  if (lower === 'dict' || lower === 'record') return 'map';
  if (lower === 'oneof' || lower === 'anyof' || lower === 'one_of') return 'union';
  if (lower === 'properties' || lower === 'fields') return 'object';
  return nearest(lower, CONSTRUCTORS);
}

function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let score = Infinity;
  for (const c of candidates) {
    const d = distance(name, c);
    if (d < score) { score = d; best = c; }
  }
  return best !== undefined && score <= Math.max(1, Math.floor(Math.max(name.length, best.length) / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

/** The type as a short human string, for messages and hovers. */
export function showType(t: TypeNode): string {
  switch (t.kind) {
    case 'prim': return t.name;
    case 'array': return `array of ${showType(t.of)}`;
    case 'map': return `map of ${showType(t.of)}`;
    case 'object': return `object { ${t.fields.map((f) => `${f.name}${f.optional ? '?' : ''}: ${showType(f.type)}`).join(', ')}${t.additional ? ', …' : ''} }`;
    case 'union': return t.of.map(showType).join(' | ');
    case 'enum': return t.values.map((v) => JSON.stringify(v)).join(' | ');
    case 'int-range': case 'num-range': return `${t.kind === 'int-range' ? 'integer' : 'number'}${t.min !== undefined ? ` ≥ ${t.min}` : ''}${t.max !== undefined ? ` ≤ ${t.max}` : ''}`;
    case 'string': return 'string' + (t.pattern ? ` matching /${t.pattern}/` : '');
    case 'any': return 'any';
  }
}
