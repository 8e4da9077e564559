// Argument checks driven by the builtin catalog: the same contract the checker uses statically
// is enforced at run time, because values only become known after interpolation.
import { builtinSpec, type ArgType } from '../../core/catalog/builtins.js';
import { argError } from './errors.js';

export function checkArgs(name: string, args: Record<string, unknown>): void {
  const spec = builtinSpec(name);
  if (!spec) return;
  for (const k of Object.keys(args)) {
    if (!(k in spec.args)) throw argError(name, `unknown argument '${k}' (expected ${Object.keys(spec.args).join(', ')})`);
  }
  for (const [k, a] of Object.entries(spec.args)) {
    const v = args[k];
    if (v === undefined || v === null) {
      if (a.required && !(k === 'content' && v === null)) throw argError(name, `missing required argument '${k}'`);
      continue;
    }
    if (!fits(v, a.type)) throw argError(name, `argument '${k}' must be ${a.type}, got ${kind(v)}`);
    if (a.enum && !a.enum.includes(String(v))) throw argError(name, `argument '${k}' must be one of ${a.enum.join(', ')}, got '${String(v)}'`);
    if (typeof v === 'number') {
      if (a.minimum !== undefined && v < a.minimum) throw argError(name, `argument '${k}' must be ≥ ${a.minimum}`);
      if (a.maximum !== undefined && v > a.maximum) throw argError(name, `argument '${k}' must be ≤ ${a.maximum}`);
    }
  }
  for (const group of spec.oneOf ?? []) {
    const present = group.filter((k) => args[k] !== undefined && args[k] !== null);
    if (present.length !== 1) throw argError(name, `exactly one of ${group.join(', ')} is required${present.length ? ` (got ${present.join(' and ')})` : ''}`);
  }
  if (spec.atMostOne) {
    const present = spec.atMostOne.filter((k) => args[k] !== undefined && args[k] !== null);
    if (present.length > 1) throw argError(name, `at most one of ${spec.atMostOne.join(', ')} may be given`);
  }
}

function fits(v: unknown, t: ArgType): boolean {
  switch (t) {
    case 'any': return true;
    case 'string': return typeof v === 'string';
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'number': return typeof v === 'number';
    case 'boolean': return typeof v === 'boolean';
    case 'array': return Array.isArray(v);
    case 'object': return typeof v === 'object' && !Array.isArray(v);
  }
}

function kind(v: unknown): string {
  return Array.isArray(v) ? 'array' : typeof v;
}
