// Lowering a Nika type to JSON Schema 2020-12 (reference §4.8), for structured model output
// (`returns:` on infer/agent), validating tool results and showing types in hovers.
import type { TypeNode } from './grammar.js';

/** Go-duration strings as the engine parses them. */
export const DURATION_PATTERN = '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$';

export function toJsonSchema(t: TypeNode): Record<string, unknown> {
  switch (t.kind) {
    case 'any': return {};
    case 'prim':
      switch (t.name) {
        case 'null': return { type: 'null' };
        case 'bool': return { type: 'boolean' };
        case 'integer': return { type: 'integer' };
        case 'number': return { type: 'number' };
        case 'string': return { type: 'string' };
        case 'bytes': return { type: 'string', contentEncoding: 'base64' };
        case 'uri': return { type: 'string', format: 'uri' };
        case 'path': return { type: 'string' };
        case 'duration': return { type: 'string', pattern: DURATION_PATTERN };
        case 'timestamp': return { type: 'string', format: 'date-time' };
      }
      return {};
    case 'array': return { type: 'array', items: toJsonSchema(t.of) };
    case 'map': return { type: 'object', additionalProperties: toJsonSchema(t.of) };
    case 'object': {
      const properties: Record<string, unknown> = {};
      for (const f of t.fields) properties[f.name] = toJsonSchema(f.type);
      const required = t.fields.filter((f) => !f.optional).map((f) => f.name);
      return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: t.additional };
    }
    case 'union': return { anyOf: t.of.map(toJsonSchema) };
    case 'enum': return { type: 'string', enum: [...t.values] };
    case 'int-range': case 'num-range':
      return { type: t.kind === 'int-range' ? 'integer' : 'number', ...(t.min !== undefined ? { minimum: t.min } : {}), ...(t.max !== undefined ? { maximum: t.max } : {}) };
    case 'string':
      return { type: 'string', ...(t.pattern !== undefined ? { pattern: t.pattern } : {}), ...(t.minLen !== undefined ? { minLength: t.minLen } : {}), ...(t.maxLen !== undefined ? { maxLength: t.maxLen } : {}) };
  }
}
