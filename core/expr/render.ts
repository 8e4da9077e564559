// Template rendering for the engine (reference §4.1): a string that is exactly one island yields
// the island's raw value; any other string gets each island's value spliced in as text.
import { scanTemplate } from './islands.js';
import { evaluate, ExprEvalError, isBytes, parseCached, type EvalScope } from './evaluate.js';

export const VAR_007 = 'NIKA-VAR-007';
export const VAR_008 = 'NIKA-VAR-008';

export function renderTemplate(s: string, scope: EvalScope): unknown {
  if (!s.includes('${{')) return s;
  const parts = scanTemplate(s);
  const only = parts.length === 1 && parts[0].kind === 'island' ? parts[0].island : undefined;
  if (only && only.closed && only.start === 0 && only.end === s.length && !only.backslashes) {
    return evalIsland(only.source, scope);
  }
  let out = '';
  for (const p of parts) {
    if (p.kind === 'text') {
      out += p.text;
      continue;
    }
    if (!p.island.closed) {
      throw new ExprEvalError(VAR_008, `unclosed \${{ at offset ${p.island.start} (missing '}}')`, { start: p.island.start, end: p.island.end });
    }
    out += stringifyValue(evalIsland(p.island.source, scope));
  }
  return out;
}

/** Renders every string leaf of a YAML-shaped value; keys are left as written. */
export function interpolateDeep(value: unknown, scope: EvalScope): unknown {
  if (typeof value === 'string') return renderTemplate(value, scope);
  if (Array.isArray(value)) return value.map((v) => interpolateDeep(v, scope));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolateDeep(v, scope);
    return out;
  }
  return value;
}

/** How a value reads when spliced into a string: strings verbatim, containers as sorted compact JSON. */
export function stringifyValue(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (isBytes(v)) throw new ExprEvalError(VAR_007, 'bytes cannot be interpolated into a string (pass the value whole, or decode it first)');
  return toSortedJson(v);
}

/** Compact JSON with object keys sorted at every level, so renderings are stable. */
export function toSortedJson(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}

function sortKeys(v: unknown): unknown {
  if (isBytes(v)) throw new ExprEvalError(VAR_007, 'bytes cannot be rendered into a string');
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

function evalIsland(source: string, scope: EvalScope): unknown {
  return evaluate(parseCached(source), scope);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
