// "Call tool…": arguments asked from a tool's inputSchema. Flat schemas (every property a
// string, number, integer, boolean, enum, or a list of enum strings) become one quick input
// per property; anything richer goes to a JSON document the user edits and sends. Nullable
// unions are flattened first, as the MCP Inspector does.

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi-enum' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  title?: string;
  description?: string;
  options?: unknown[];
  default?: unknown;
  hasDefault: boolean;
}

export type FormPlan =
  | { kind: 'form'; fields: FormField[] }
  | { kind: 'json'; skeleton: string; reason: string };

type Schema = Record<string, unknown>;

/** `anyOf/oneOf: [X, {type: null}]` and `type: [X, "null"]` become X. */
export function flattenNullable(schema: unknown): Schema | undefined {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const s = schema as Schema;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alts = s[k];
    if (Array.isArray(alts)) {
      const nonNull = alts.filter((a) => !(a && typeof a === 'object' && (a as Schema).type === 'null'));
      if (nonNull.length === 1 && alts.length === 2) {
        const { [k]: _drop, ...rest } = s;
        return { ...rest, ...(nonNull[0] as Schema) };
      }
    }
  }
  if (Array.isArray(s.type)) {
    const types = (s.type as unknown[]).filter((t) => t !== 'null');
    if (types.length === 1) return { ...s, type: types[0] };
  }
  return s;
}

function fieldKind(p: Schema): FieldKind | undefined {
  if (Array.isArray(p.enum) && p.enum.length > 0) return 'enum';
  for (const k of ['oneOf', 'anyOf'] as const) {
    const alts = p[k];
    if (Array.isArray(alts) && alts.length > 0 && alts.every((a) => a && typeof a === 'object' && 'const' in (a as Schema))) return 'enum';
  }
  if ('const' in p) return 'enum';
  switch (p.type) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'integer': return 'integer';
    case 'boolean': return 'boolean';
    case 'array': {
      const items = flattenNullable(p.items);
      if (items && Array.isArray(items.enum) && items.enum.every((v) => typeof v === 'string')) return 'multi-enum';
      // Lists of scalars are typed as a JSON array in one box; still a flat form.
      if (items && ['string', 'number', 'integer', 'boolean'].includes(String(items.type))) return 'json';
      return undefined;
    }
    default: return undefined;
  }
}

function enumOptions(p: Schema, kind: FieldKind): unknown[] | undefined {
  if (kind === 'multi-enum') return (flattenNullable(p.items)?.enum as unknown[]) ?? [];
  if (kind !== 'enum') return undefined;
  if (Array.isArray(p.enum)) return p.enum;
  for (const k of ['oneOf', 'anyOf'] as const) {
    const alts = p[k];
    if (Array.isArray(alts)) return alts.map((a) => (a as Schema).const);
  }
  return [p.const];
}

export function planToolForm(inputSchema: unknown): FormPlan {
  const schema = flattenNullable(inputSchema) ?? { type: 'object' };
  const json = (reason: string): FormPlan => ({ kind: 'json', reason, skeleton: JSON.stringify(argsSkeleton(schema, true) ?? {}, null, 2) });
  if (schema.$ref || schema.allOf || schema.oneOf || schema.anyOf) return json('the schema combines several shapes');
  if (schema.type !== undefined && schema.type !== 'object') return json(`the arguments are a ${String(schema.type)}, not an object`);
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]).map(String) : []);
  const fields: FormField[] = [];
  for (const [name, raw] of Object.entries(props)) {
    const p = flattenNullable(raw);
    if (!p) return json(`property "${name}" has no schema`);
    const kind = fieldKind(p);
    if (!kind) return json(`property "${name}" is ${p.type === 'object' || p.properties ? 'an object' : p.type === 'array' ? 'a list of objects' : 'not a simple value'}`);
    fields.push({
      name, kind, required: required.has(name),
      title: typeof p.title === 'string' ? p.title : undefined,
      description: typeof p.description === 'string' ? p.description : undefined,
      options: enumOptions(p, kind),
      default: p.default, hasDefault: 'default' in p,
    });
  }
  // Required first, then the rest in schema order: the questions a call cannot go without come first.
  fields.sort((a, b) => Number(b.required) - Number(a.required));
  return { kind: 'form', fields };
}

export type FieldValue = { ok: true; value: unknown; omit?: boolean } | { ok: false; error: string };

/** Text typed for one field → its JSON value. Empty optional fields are left out of the call. */
export function coerceField(f: FormField, raw: string): FieldValue {
  const s = raw.trim();
  if (s === '' && f.kind !== 'string') {
    return f.required ? { ok: false, error: `${f.name} is required` } : { ok: true, value: undefined, omit: true };
  }
  if (raw === '' && f.kind === 'string' && !f.required) return { ok: true, value: undefined, omit: true };
  switch (f.kind) {
    case 'string':
      return { ok: true, value: raw };
    case 'number':
    case 'integer': {
      const n = Number(s);
      if (!Number.isFinite(n) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return { ok: false, error: `${f.name} must be a number` };
      if (f.kind === 'integer' && !Number.isSafeInteger(n)) return { ok: false, error: `${f.name} must be an integer` };
      return { ok: true, value: n };
    }
    case 'boolean':
      if (/^(true|yes|1)$/i.test(s)) return { ok: true, value: true };
      if (/^(false|no|0)$/i.test(s)) return { ok: true, value: false };
      return { ok: false, error: `${f.name} must be true or false` };
    case 'enum': {
      const hit = f.options?.find((o) => String(o) === raw);
      return hit !== undefined ? { ok: true, value: hit } : { ok: false, error: `${f.name} must be one of ${f.options?.map(String).join(', ')}` };
    }
    case 'multi-enum': {
      const picked = s.split(',').map((x) => x.trim()).filter(Boolean);
      const bad = picked.filter((x) => !f.options?.map(String).includes(x));
      return bad.length ? { ok: false, error: `${f.name}: unknown value ${bad.join(', ')}` } : { ok: true, value: picked };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(s) };
      } catch (e) {
        return { ok: false, error: `${f.name}: not valid JSON (${(e as Error).message})` };
      }
  }
}

/**
 * The inspector's default value: the schema `default`, else an empty value of the right type for
 * required properties (recursing into objects). `all` also includes optional properties, for the
 * JSON editor where seeing every key is more useful than a minimal object.
 */
export function argsSkeleton(schema: unknown, all = false, depth = 0): unknown {
  const s = flattenNullable(schema);
  if (!s || depth > 6) return null;
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ('const' in s) return s.const;
  const type = s.type ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'string': return '';
    case 'number': case 'integer': return 0;
    case 'boolean': return false;
    case 'array': return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const req = new Set(Array.isArray(s.required) ? (s.required as unknown[]).map(String) : []);
      for (const [k, p] of Object.entries(props)) if (all || req.has(k)) out[k] = argsSkeleton(p, all, depth + 1);
      return out;
    }
    default: return null;
  }
}

/** The JSON editor's text → call arguments (an object), or why not. */
export function parseArgsDocument(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const body = text.trim() === '' ? '{}' : text;
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch (e) {
    return { ok: false, error: `The arguments are not valid JSON: ${(e as Error).message}` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'The arguments must be a JSON object ({ … }).' };
  return { ok: true, value: v as Record<string, unknown> };
}

/** Required properties missing from an argument object (checked before sending, never after). */
export function missingRequired(inputSchema: unknown, args: Record<string, unknown>): string[] {
  const s = flattenNullable(inputSchema);
  const req = Array.isArray(s?.required) ? (s!.required as unknown[]).map(String) : [];
  return req.filter((k) => !(k in args));
}
