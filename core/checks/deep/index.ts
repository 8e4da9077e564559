// Deep rules: types, the YAML profile, run/for_each/retry shapes, liveness, jq, per-builtin
// rules and lints. Current-v1 law unless a check says otherwise (the profile also warns on older
// dialects; jq also judges v1-draft extract bindings).
import type { Check } from '../index.js';
import { builtinRulesCheck } from './builtin-rules.js';
import { jqCheck } from './jq.js';
import { lintsCheck } from './lints.js';
import { livenessCheck } from './liveness.js';
import { yamlProfileCheck } from './profile.js';
import { runRulesCheck } from './run-rules.js';
import { typesCheck } from './types.js';

export const DEEP_CHECKS: Check[] = [yamlProfileCheck, typesCheck, runRulesCheck, livenessCheck, jqCheck, builtinRulesCheck, lintsCheck];
