// The three JSON Schemas, compiled once per process. Each dialect has its own schema; a current
// file is validated against the workflow definition directly so our dialect detection (not the
// schema's own "older dialect" guard, meant for standalone editors) decides what applies.
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Dialect } from '../ir.js';
import workflowSchema from '../../schemas/workflow.schema.json';
import draftSchema from '../../schemas/draft-workflow.schema.json';
import legacySchema from '../../schemas/legacy-workflow.schema.json';

export type JsonSchema = Record<string, unknown> | boolean;

export const SCHEMAS: Readonly<Record<Dialect, Record<string, unknown>>> = {
  v1: workflowSchema as Record<string, unknown>,
  'v1-draft': draftSchema as Record<string, unknown>,
  legacy: legacySchema as Record<string, unknown>,
};

/** Where validation starts inside each schema. */
const ENTRY: Record<Dialect, string> = { v1: '#/definitions/workflow', 'v1-draft': '#/definitions/workflow', legacy: '#/definitions/workflow' };

let ajv: Ajv | undefined;
const compiled = new Map<Dialect, ValidateFunction>();

function instance(): Ajv {
  if (!ajv) {
    // verbose: errors carry the schema objects they come from, which is how messages and
    // codes are derived (schemaPath strings restart at every $ref and cannot be trusted).
    ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateSchema: false, unicodeRegExp: true });
    for (const s of Object.values(SCHEMAS)) ajv.addSchema(s);
  }
  return ajv;
}

export function validatorFor(dialect: Dialect): ValidateFunction {
  let v = compiled.get(dialect);
  if (!v) {
    const id = SCHEMAS[dialect].$id as string;
    v = instance().getSchema(id + ENTRY[dialect]);
    if (!v) throw new Error(`schema ${id}${ENTRY[dialect]} not found`);
    compiled.set(dialect, v);
  }
  return v;
}

export function validate(dialect: Dialect, value: unknown): ErrorObject[] {
  const v = validatorFor(dialect);
  return v(value) ? [] : [...(v.errors ?? [])];
}

/** Resolves a local `$ref` ("#/definitions/x") inside the schema of a dialect. */
export function resolveRef(dialect: Dialect, ref: string): JsonSchema | undefined {
  const id = SCHEMAS[dialect].$id as string;
  const at = ref.startsWith(id) ? ref.slice(id.length) : ref;
  if (!at.startsWith('#/')) return undefined;
  let node: unknown = SCHEMAS[dialect];
  for (const raw of at.slice(2).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node as JsonSchema | undefined;
}
