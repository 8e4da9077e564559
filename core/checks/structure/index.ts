// Shape checks: schema validation, keys, ids, verb bodies, dialect rules.
import type { Check } from '../index.js';
import { taskLocal } from '../locality.js';
import { deprecationsCheck } from './deprecations.js';
import { duplicateKeysCheck } from './duplicate-keys.js';
import { nikaMarkCheck } from './nika-mark.js';
import { schemaCheck } from './schema.js';

export const STRUCTURE_CHECKS: Check[] = [duplicateKeysCheck, schemaCheck, nikaMarkCheck, deprecationsCheck].map(taskLocal);
