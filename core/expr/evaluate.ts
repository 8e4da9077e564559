// Evaluation of cel-subset/0.1 for the engine (reference §4.2–4.3). Strongly typed like CEL:
// values are null, bool, number (int and double are one domain), string, bytes, list or map, and
// mixing types is an error (NIKA-VAR-006) except that null may be compared with anything.
import type { ExprNode } from './api.js';
import type { Span } from '../text.js';
import { parseExpression } from './parser.js';

export interface TaskRecord {
  status: string;
  output: unknown;
  error: unknown;
  duration_ms?: number;
  started_at?: string;
  ended_at?: string;
  /** `extract:` bindings. */
  [extract: string]: unknown;
}

export interface EvalScope {
  inputs?: Record<string, unknown>;
  const?: Record<string, unknown>;
  secrets?: Record<string, unknown>;
  with?: Record<string, unknown>;
  tasks?: Record<string, TaskRecord>;
  group?: Record<string, unknown[]>;
  item?: unknown;
  index?: number;
  /** `item`/`index` are readable only inside a for_each iteration; defaults to "item or index is set". */
  inLoop?: boolean;
  /** v1-draft only: absent means the root does not exist. */
  vars?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

export class ExprEvalError extends Error {
  constructor(readonly code: string, message: string, readonly span?: Span) {
    super(message);
    this.name = 'ExprEvalError';
  }
}

export const VAR_001 = 'NIKA-VAR-001';
export const VAR_005 = 'NIKA-VAR-005';
export const VAR_006 = 'NIKA-VAR-006';

type Call = Extract<ExprNode, { kind: 'call' }>;

const PROJECTIONS = new Set(['output', 'status', 'error', 'duration_ms', 'started_at', 'ended_at']);
const NAMESPACES = ['inputs', 'const', 'secrets', 'with', 'tasks', 'group'] as const;

export function evaluate(ast: ExprNode, scope: EvalScope): unknown {
  return new Evaluator(scope).eval(ast);
}

/** Parses and evaluates a bare expression (no `${{ }}`); a syntax error throws NIKA-VAR-005. */
export function evaluateSource(src: string, scope: EvalScope): unknown {
  return evaluate(parseCached(src), scope);
}

// for_each iterations evaluate the same few sources many times.
const cache = new Map<string, ExprNode | ExprEvalError>();

export function parseCached(src: string): ExprNode {
  let hit = cache.get(src);
  if (!hit) {
    const { ast, errors } = parseExpression(src);
    hit = errors.length ? new ExprEvalError(errors[0].code, `invalid expression '${src.trim()}': ${errors[0].message}`, errors[0].span) : ast!;
    if (cache.size >= 500) cache.delete(cache.keys().next().value!);
    cache.set(src, hit);
  }
  if (hit instanceof ExprEvalError) throw hit;
  return hit;
}

class Evaluator {
  constructor(private readonly scope: EvalScope) {}

  eval(node: ExprNode): unknown {
    switch (node.kind) {
      case 'literal': return node.value;
      case 'list': return node.items.map((i) => this.eval(i));
      case 'ident': return this.root(node.name, node.span);
      case 'member': return this.member(node);
      case 'index': return this.index(node);
      case 'call': return this.call(node);
      case 'unary': {
        if (node.op === '-') throw new ExprEvalError(VAR_005, 'unary minus is only allowed before a number literal', node.span);
        return !this.bool(this.eval(node.operand), "operand of '!'", node.operand.span);
      }
      case 'ternary': {
        const test = this.bool(this.eval(node.test), 'ternary condition', node.test.span);
        return this.eval(test ? node.consequent : node.alternate);
      }
      case 'binary': return this.binary(node);
    }
  }

  private root(name: string, span: Span): unknown {
    const s = this.scope;
    if (name === '') throw new ExprEvalError(VAR_005, 'incomplete expression', span);
    if ((NAMESPACES as readonly string[]).includes(name)) return s[name as (typeof NAMESPACES)[number]] ?? {};
    if (name === 'item' || name === 'index') {
      const inLoop = s.inLoop ?? ('item' in s || 'index' in s);
      if (!inLoop) throw new ExprEvalError(VAR_001, `'${name}' is only defined inside a for_each task`, span);
      return s[name] ?? null;
    }
    if (name === 'vars' || name === 'env') {
      if (s[name] !== undefined) return s[name];
      throw new ExprEvalError(VAR_001, `'${name}' is not defined: only v1-draft workflows with a \`${name}:\` block have it`, span);
    }
    throw new ExprEvalError(VAR_001, `unknown root '${name}' (expected one of inputs, const, secrets, with, tasks, group, item, index)`, span);
  }

  private member(node: Extract<ExprNode, { kind: 'member' }>): unknown {
    const obj = this.eval(node.object);
    return this.lookup(obj, node.property, node.object, node, 'field');
  }

  private index(node: Extract<ExprNode, { kind: 'index' }>): unknown {
    const obj = this.eval(node.object);
    const key = this.eval(node.index);
    if (Array.isArray(obj)) {
      if (typeof key !== 'number') throw new ExprEvalError(VAR_006, `a list index must be a number, got ${typeName(key)} in ${pathText(node)}`, node.index.span);
      if (!Number.isInteger(key)) throw new ExprEvalError(VAR_006, `list index ${key} is not an integer in ${pathText(node)}`, node.index.span);
      if (key < 0) throw new ExprEvalError(VAR_006, `negative index ${key} is not allowed in ${pathText(node)}`, node.index.span);
      if (key >= obj.length) throw new ExprEvalError(VAR_001, `${pathText(node)} is not defined: index ${key} is out of range (length ${obj.length})`, node.span);
      return obj[key] === undefined ? null : obj[key];
    }
    if (isMap(obj) && typeof key !== 'string') {
      throw new ExprEvalError(VAR_006, `a map key must be a string, got ${typeName(key)} in ${pathText(node)}`, node.index.span);
    }
    if (obj !== null && obj !== undefined && !isMap(obj)) {
      throw new ExprEvalError(VAR_006, `${pathText(node.object)} is a ${typeName(obj)} and cannot be indexed`, node.span);
    }
    return this.lookup(obj, key as string, node.object, node, 'key');
  }

  private lookup(obj: unknown, key: string, objNode: ExprNode, node: ExprNode, what: 'field' | 'key'): unknown {
    const path = pathText(node);
    if (obj === null || obj === undefined) {
      throw new ExprEvalError(VAR_001, `${path} is not defined: ${pathText(objNode)} is null`, node.span);
    }
    if (!isMap(obj)) {
      throw new ExprEvalError(VAR_006, `${path}: cannot read ${what} '${key}' of a ${typeName(obj)}`, node.span);
    }
    if (Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined) return obj[key];
    if (isTaskRecordNode(objNode) && PROJECTIONS.has(key)) return null;
    if (isTasksRootNode(objNode)) {
      throw new ExprEvalError(VAR_001, `${path} is not defined: task '${key}' has no record (unknown, or not settled yet)`, node.span);
    }
    throw new ExprEvalError(VAR_001, `${path} is not defined: ${pathText(objNode)} has no ${what} '${key}'`, node.span);
  }

  private call(node: Call): unknown {
    if (node.callee === 'has' && !node.target && node.args.length === 1) {
      try {
        const v = this.eval(node.args[0]);
        return v !== null && v !== undefined;
      } catch {
        return false;
      }
    }
    if (node.callee === 'size' && node.args.length === (node.target ? 0 : 1)) {
      return size(this.eval(node.target ?? node.args[0]), node);
    }
    if (node.target && node.args.length === 1 && (node.callee === 'contains' || node.callee === 'startsWith' || node.callee === 'endsWith')) {
      const s = this.eval(node.target);
      const arg = this.eval(node.args[0]);
      if (typeof s !== 'string' || typeof arg !== 'string') {
        const hint = Array.isArray(s) && node.callee === 'contains' ? " (use 'x in list' for list membership)" : '';
        throw new ExprEvalError(VAR_006, `${node.callee}() needs string operands, got ${typeName(s)} and ${typeName(arg)}${hint}`, node.span);
      }
      if (node.callee === 'contains') return s.includes(arg);
      return node.callee === 'startsWith' ? s.startsWith(arg) : s.endsWith(arg);
    }
    throw new ExprEvalError(VAR_005, `'${node.callee || '(…)'}()' is not a cel-subset/0.1 callable`, node.calleeSpan);
  }

  private binary(node: Extract<ExprNode, { kind: 'binary' }>): unknown {
    if (node.op === '&&' || node.op === '||') {
      const left = this.bool(this.eval(node.left), `left operand of '${node.op}'`, node.left.span);
      if (node.op === '&&' ? !left : left) return left;
      return this.bool(this.eval(node.right), `right operand of '${node.op}'`, node.right.span);
    }
    const a = this.eval(node.left);
    const b = this.eval(node.right);
    switch (node.op) {
      case '==': return equals(a, b, node.span);
      case '!=': return !equals(a, b, node.span);
      case 'in': return member(a, b, node.span);
      default: {
        const c = compare(a, b, node.op, node.span);
        switch (node.op) {
          case '<': return c < 0;
          case '<=': return c <= 0;
          case '>': return c > 0;
          case '>=': return c >= 0;
        }
      }
    }
  }

  private bool(v: unknown, what: string, span: Span): boolean {
    if (typeof v !== 'boolean') throw new ExprEvalError(VAR_006, `${what} must be a bool, got ${typeName(v)}`, span);
    return v;
  }
}

// ── value semantics ─────────────────────────────────────────────────────────────────────────────

export type ValueType = 'null' | 'bool' | 'number' | 'string' | 'bytes' | 'list' | 'map';

export function typeName(v: unknown): ValueType {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'string') return 'string';
  if (isBytes(v)) return 'bytes';
  if (Array.isArray(v)) return 'list';
  return 'map';
}

export function isBytes(v: unknown): v is Uint8Array | ArrayBuffer {
  return v instanceof Uint8Array || v instanceof ArrayBuffer;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeName(v) === 'map';
}

/** CEL equality; throws NIKA-VAR-006 on a type mismatch, null equals only null. */
function equals(a: unknown, b: unknown, span: Span): boolean {
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta === 'null' || tb === 'null') return ta === tb;
  if (ta !== tb) throw new ExprEvalError(VAR_006, `cannot compare ${ta} with ${tb} (${preview(a)} vs ${preview(b)})`, span);
  switch (ta) {
    case 'list': {
      const x = a as unknown[];
      const y = b as unknown[];
      return x.length === y.length && x.every((v, i) => equals(v, y[i], span));
    }
    case 'map': {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x).filter((k) => x[k] !== undefined);
      const ky = Object.keys(y).filter((k) => y[k] !== undefined);
      return kx.length === ky.length && kx.every((k) => k in y && equals(x[k], y[k], span));
    }
    case 'bytes': {
      const x = toBytes(a);
      const y = toBytes(b);
      return x.length === y.length && x.every((v, i) => v === y[i]);
    }
    case 'number': return Number(a) === Number(b);
    default: return a === b;
  }
}

/** `x in list` / `key in map`. A list element of another type is simply not a match. */
function member(a: unknown, b: unknown, span: Span): boolean {
  if (Array.isArray(b)) {
    return b.some((v) => {
      try { return equals(a, v, span); } catch { return false; }
    });
  }
  if (isMap(b)) {
    if (typeof a !== 'string') throw new ExprEvalError(VAR_006, `'in' on a map needs a string key, got ${typeName(a)}`, span);
    return Object.prototype.hasOwnProperty.call(b, a) && b[a] !== undefined;
  }
  const hint = typeof b === 'string' ? " (use s.contains(sub) for substrings)" : '';
  throw new ExprEvalError(VAR_006, `'in' needs a list or a map on the right, got ${typeName(b)}${hint}`, span);
}

function compare(a: unknown, b: unknown, op: string, span: Span): number {
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta !== tb || (ta !== 'number' && ta !== 'string' && ta !== 'bool')) {
    throw new ExprEvalError(VAR_006, `cannot order ${ta} ${op} ${tb} (${preview(a)} ${op} ${preview(b)})`, span);
  }
  if (ta === 'string') return compareCodePoints(a as string, b as string);
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** CEL orders strings by code point; plain `<` compares UTF-16 units, which differs above U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function size(v: unknown, node: Call): number {
  if (typeof v === 'string') {
    let n = 0;
    for (const _ of v) n++;
    return n;
  }
  if (Array.isArray(v)) return v.length;
  if (isBytes(v)) return v.byteLength;
  if (isMap(v)) return Object.keys(v).filter((k) => v[k] !== undefined).length;
  throw new ExprEvalError(VAR_006, `size() needs a string, list or map, got ${typeName(v)}`, node.span);
}

function toBytes(v: unknown): Uint8Array {
  return v instanceof Uint8Array ? v : new Uint8Array(v as ArrayBuffer);
}

function preview(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (Array.isArray(v)) return '[…]';
  if (isBytes(v)) return 'bytes';
  if (v !== null && typeof v === 'object') return '{…}';
  return String(v ?? null);
}

// ── paths for messages ──────────────────────────────────────────────────────────────────────────

function isTasksRootNode(n: ExprNode): boolean {
  return n.kind === 'ident' && n.name === 'tasks';
}

/** `tasks.X` or `tasks['X']`: the node whose value is a task record. */
function isTaskRecordNode(n: ExprNode): boolean {
  return (n.kind === 'member' || n.kind === 'index') && isTasksRootNode(n.object);
}

/** Source-like rendering of a reference (`tasks.fetch.output['k-dash'][0]`). */
export function pathText(n: ExprNode): string {
  switch (n.kind) {
    case 'ident': return n.name;
    case 'member': return `${pathText(n.object)}.${n.property}`;
    case 'index': {
      const i = n.index;
      const inner = i.kind === 'literal' ? (typeof i.value === 'string' ? `'${i.value}'` : String(i.value)) : pathText(i);
      return `${pathText(n.object)}[${inner}]`;
    }
    case 'call': return n.target ? `${pathText(n.target)}.${n.callee}(…)` : `${n.callee}(…)`;
    case 'literal': return typeof n.value === 'string' ? `'${n.value}'` : String(n.value);
    default: return '(…)';
  }
}
