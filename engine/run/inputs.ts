// Caller-supplied values (`--var k=v`, the editor's input prompt) checked against the
// declarations: undeclared keys and missing required inputs are refused, defaults applied,
// strings coerced to the declared type (`--var n=3` with `type: integer` gives 3).
import type { Workflow } from '../../core/ir.js';
import { NikaError } from '../contracts.js';

export interface ResolvedInputs { inputs: Record<string, unknown>; vars: Record<string, unknown> }

export function resolveInputs(wf: Workflow, supplied: Record<string, unknown> = {}): ResolvedInputs {
  const inputs: Record<string, unknown> = {};
  const vars: Record<string, unknown> = { ...wf.vars };
  for (const [k, raw] of Object.entries(supplied)) {
    const decl = wf.inputs[k];
    if (decl) {
      inputs[k] = typeof raw === 'string' ? coerce(raw, decl.type, k) : raw;
    } else if (wf.dialect !== 'v1' && k in wf.vars) {
      // Draft/legacy files were parameterised through `vars:`; `--var` overrode them.
      vars[k] = typeof raw === 'string' ? coerceLoose(raw) : raw;
    } else {
      const known = Object.keys(wf.inputs);
      throw new NikaError('NIKA-VAR-001', `input '${k}' is not declared in inputs:${known.length ? ` (declared: ${known.join(', ')})` : ''}`);
    }
  }
  for (const [k, decl] of Object.entries(wf.inputs)) {
    if (k in inputs) continue;
    if (decl.hasDefault) inputs[k] = decl.default;
    else if (decl.required) throw new NikaError('NIKA-VAR-001', `required input '${k}' was not supplied (use --var ${k}=…)`);
    else inputs[k] = null;
  }
  return { inputs, vars };
}

/** `--var a=1 --var b=x` ⇒ `{a: '1', b: 'x'}`; `@env:NAME` reads the environment. */
export function parseVarFlags(flags: string[], env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of flags) {
    const eq = f.indexOf('=');
    if (eq <= 0) throw new NikaError('NIKA-VAR-001', `--var expects key=value, got '${f}'`);
    const key = f.slice(0, eq);
    let value = f.slice(eq + 1);
    if (value.startsWith('@env:')) {
      const name = value.slice(5);
      const v = env[name];
      if (v === undefined) throw new NikaError('NIKA-VAR-001', `--var ${key}=@env:${name}: ${name} is not set`);
      value = v;
    }
    out[key] = value;
  }
  return out;
}

function typeErr(name: string, want: string, got: string): NikaError {
  return new NikaError('NIKA-TYPE-101', `input '${name}' expects ${want}, got '${got}'`);
}

function coerceLoose(raw: string): unknown {
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

export function coerce(raw: string, type: unknown, name: string): unknown {
  if (type === undefined) return raw;
  if (type === null) return coercePrimitive(raw, 'null', name);
  if (typeof type === 'string') return coercePrimitive(raw, type, name);
  if (typeof type === 'object' && type !== null) {
    const [ctor, arg] = Object.entries(type as Record<string, unknown>)[0] ?? [];
    switch (ctor) {
      case 'integer': case 'number': case 'string':
        return coercePrimitive(raw, ctor, name);
      case 'enum': {
        const allowed = Array.isArray(arg) ? arg.map(String) : [];
        if (!allowed.includes(raw)) throw typeErr(name, `one of ${allowed.join(', ')}`, raw);
        return raw;
      }
      case 'union': {
        const members = Array.isArray(arg) ? arg : [];
        // Strings accept anything, so they are tried last.
        const ordered = [...members.filter((m) => !isStringy(m)), ...members.filter(isStringy)];
        for (const m of ordered) {
          try { return coerce(raw, m, name); } catch { /* next member */ }
        }
        throw typeErr(name, 'a value of the union', raw);
      }
      case 'array': case 'map': case 'object':
        return parseJson(raw, name, ctor);
    }
  }
  return raw;
}

function isStringy(t: unknown): boolean {
  return typeof t === 'string' ? ['string', 'uri', 'path', 'duration', 'timestamp', 'bytes'].includes(t)
    : typeof t === 'object' && t !== null && ('string' in t || 'enum' in t);
}

function coercePrimitive(raw: string, type: string, name: string): unknown {
  switch (type) {
    case 'integer':
      if (!/^[-+]?\d+$/.test(raw.trim())) throw typeErr(name, 'an integer', raw);
      return Number(raw.trim());
    case 'number': {
      const n = Number(raw.trim());
      if (raw.trim() === '' || !Number.isFinite(n)) throw typeErr(name, 'a number', raw);
      return n;
    }
    case 'bool': case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw typeErr(name, 'true or false', raw);
    case 'null':
      if (raw === 'null' || raw === '') return null;
      throw typeErr(name, 'null', raw);
    case 'array': case 'map': case 'object': case 'json':
      return parseJson(raw, name, type);
    default:
      return raw;
  }
}

function parseJson(raw: string, name: string, what: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw typeErr(name, `JSON for a ${what}`, raw);
  }
}
