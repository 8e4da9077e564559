// Deep rules: types, the YAML profile, run/for_each/retry shapes, jq, builtin shapes, lints.
import type { Check } from '../index.js';
import { jqCheck } from './jq.js';
import { yamlProfileCheck } from './profile.js';
import { typesCheck } from './types.js';

export const DEEP_CHECKS: Check[] = [yamlProfileCheck, typesCheck, jqCheck];
