// Asking for a workflow's required inputs before a run: which ones to ask, how to present
// each type, and turning what was typed into a value of that type (reference §1.3, §4.8).
import type { InputDecl } from '../../core/ir.js';

export type InputKind = 'string' | 'integer' | 'number' | 'bool' | 'enum' | 'json';

export interface InputQuestion {
  name: string;
  kind: InputKind;
  typeLabel: string;
  description?: string;
  options?: string[];
  min?: number;
  max?: number;
  pattern?: string;
}

/** Required inputs that have no default and were not already supplied. */
export function inputQuestions(inputs: Record<string, InputDecl>, supplied: Record<string, unknown> = {}): InputQuestion[] {
  const out: InputQuestion[] = [];
  for (const [name, decl] of Object.entries(inputs)) {
    if (!decl.required || decl.hasDefault || name in supplied) continue;
    out.push({ name, description: decl.description, ...kindOf(decl.type) });
  }
  return out;
}

function kindOf(type: unknown): Omit<InputQuestion, 'name' | 'description'> {
  if (typeof type === 'string') {
    switch (type) {
      case 'bool': case 'boolean': return { kind: 'bool', typeLabel: 'bool' };
      case 'integer': case 'int': return { kind: 'integer', typeLabel: 'integer' };
      case 'number': case 'float': return { kind: 'number', typeLabel: 'number' };
      case 'string': case 'text': case 'path': case 'uri': case 'duration': case 'timestamp': case 'bytes':
        return { kind: 'string', typeLabel: type };
      default: return { kind: 'string', typeLabel: type };
    }
  }
  if (type && typeof type === 'object' && !Array.isArray(type)) {
    const o = type as Record<string, unknown>;
    if (Array.isArray(o.enum)) return { kind: 'enum', typeLabel: 'enum', options: o.enum.map(String) };
    for (const k of ['integer', 'number'] as const) {
      if (k in o) {
        const b = (o[k] ?? {}) as { min?: number; max?: number };
        return { kind: k, typeLabel: k, min: num(b.min), max: num(b.max) };
      }
    }
    if ('string' in o) return { kind: 'string', typeLabel: 'string', pattern: (o.string as { pattern?: string } | null)?.pattern };
    if ('union' in o && Array.isArray(o.union)) {
      const nonNull = o.union.filter((u) => u !== null && u !== 'null');
      if (nonNull.length === 1) return kindOf(nonNull[0]);
    }
    const label = Object.keys(o)[0] ?? 'value';
    return { kind: 'json', typeLabel: `${label} (JSON)` };
  }
  return { kind: 'string', typeLabel: 'string' };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

export type Coerced = { ok: true; value: unknown } | { ok: false; error: string };

/** Turns typed text into the input's value, or says exactly what is wrong with it. */
export function coerceInput(q: InputQuestion, raw: string): Coerced {
  const s = raw.trim();
  switch (q.kind) {
    case 'string':
      if (q.pattern) {
        try {
          if (!new RegExp(q.pattern).test(raw)) return { ok: false, error: `must match ${q.pattern}` };
        } catch { /* a pattern the checker flags; do not block the run on it */ }
      }
      return { ok: true, value: raw };
    case 'bool':
      if (/^(true|yes|y|1)$/i.test(s)) return { ok: true, value: true };
      if (/^(false|no|n|0)$/i.test(s)) return { ok: true, value: false };
      return { ok: false, error: 'expected true or false' };
    case 'integer':
    case 'number': {
      if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return { ok: false, error: `expected ${q.kind === 'integer' ? 'an integer' : 'a number'}` };
      const n = Number(s);
      if (q.kind === 'integer' && !Number.isSafeInteger(n)) return { ok: false, error: 'expected an integer' };
      if (q.min !== undefined && n < q.min) return { ok: false, error: `must be ≥ ${q.min}` };
      if (q.max !== undefined && n > q.max) return { ok: false, error: `must be ≤ ${q.max}` };
      return { ok: true, value: n };
    }
    case 'enum':
      return q.options?.includes(raw) ? { ok: true, value: raw } : { ok: false, error: `expected one of ${q.options?.join(', ')}` };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(s) };
      } catch (e) {
        return { ok: false, error: `not valid JSON: ${(e as Error).message}` };
      }
  }
}
