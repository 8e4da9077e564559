// Structured output (`schema:`): turning a model's answer into a value and checking it, plus the
// zero-valued defaults the mock answers with.
import Ajv from 'ajv';
import { NikaError } from '../contracts.js';

type Schema = Record<string, unknown>;

/** Models often wrap JSON in a code fence or a sentence; take the fenced block or the outermost {…}/[…]. */
export function parseJsonText(text: string): unknown {
  const attempts: string[] = [text.trim()];
  const fence = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(text);
  if (fence) attempts.push(fence[1]!.trim());
  for (const [open, close] of [['{', '}'], ['[', ']']] as const) {
    const a = text.indexOf(open);
    const b = text.lastIndexOf(close);
    if (a >= 0 && b > a) attempts.push(text.slice(a, b + 1));
  }
  for (const s of attempts) {
    try {
      return JSON.parse(s);
    } catch { /* next */ }
  }
  throw new NikaError('NIKA-INFER-004', `structured output is not JSON: ${text.length > 200 ? text.slice(0, 200) + '…' : text}`, {
    details: { raw: text },
  });
}

let ajv: Ajv | undefined;

/** Throws NIKA-INFER-004 listing the schema violations. An invalid schema is reported the same way. */
export function checkAgainstSchema(value: unknown, schema: Schema): void {
  ajv ??= new Ajv({ strict: false, allErrors: true });
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (e) {
    throw new NikaError('NIKA-INFER-004', `schema: is not a valid JSON Schema: ${(e as Error).message}`);
  }
  if (!validate(value)) {
    const errs = (validate.errors ?? []).map((x) => `${x.instancePath || '/'} ${x.message ?? ''}`.trim());
    throw new NikaError('NIKA-INFER-004', `structured output does not match schema: ${errs.join('; ')}`, {
      details: { errors: errs, output: value },
    });
  }
}

/** A value of the schema's shape made of zeros: object → each property's zero, string → "", enum → first. */
export function zeroValue(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 16) return null;
  const s = schema as Schema;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const k of ['oneOf', 'anyOf', 'allOf'] as const) {
    const alts = s[k];
    if (Array.isArray(alts) && alts.length > 0 && !s.type) return zeroValue(alts[0], depth + 1);
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type) {
    case 'string': return '';
    case 'number':
    case 'integer': return 0;
    case 'boolean': return false;
    case 'array': return [];
    case 'null': return null;
    case 'object':
    case undefined: {
      const props = s.properties;
      if (!props || typeof props !== 'object') return type === 'object' ? {} : null;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props as Schema)) out[k] = zeroValue(v, depth + 1);
      return out;
    }
    default: return null;
  }
}
