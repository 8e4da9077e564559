// Shape checks: schema validation, keys, ids, verb bodies, dialect rules.
import type { Check } from '../index.js';
import { schemaCheck } from './schema.js';

export const STRUCTURE_CHECKS: Check[] = [schemaCheck];
