// Shape of the whole file against its dialect's JSON Schema (keys, types, enums, patterns,
// exactly-one-verb and the other cross-field rules the schema encodes).
import { schemaDiagnostics } from '../../schema/diagnose.js';
import type { Check } from '../index.js';

export const schemaCheck: Check = (ctx) => schemaDiagnostics(ctx.doc, ctx.dialect.dialect);
