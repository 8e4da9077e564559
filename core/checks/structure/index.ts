// Shape checks: schema validation, keys, ids, verb bodies, dialect rules.
import type { Check } from '../index.js';

export const STRUCTURE_CHECKS: Check[] = [];
