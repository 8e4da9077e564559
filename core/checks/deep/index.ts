// Deep rules: types, the YAML profile, run/for_each/retry shapes, jq, builtin shapes, lints.
import type { Check } from '../index.js';

export const DEEP_CHECKS: Check[] = [];
