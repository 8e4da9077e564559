// Deep rules: types, the YAML profile, run/for_each/retry shapes, liveness, jq, per-builtin
// rules and lints. Current-v1 law unless a check says otherwise (the profile also warns on older
// dialects; jq also judges v1-draft extract bindings).
//
// Task-local (locality.ts): types, builtin rules and lints judge one task's own YAML (or the
// envelope's inputs/const/outputs) and nothing else. The others look past the task or at the
// whole text (the profile's caps and aliases, run rules' line-ending style, liveness, jq's
// reshape lint) and memoize per task instead.
import type { Check } from '../index.js';
import { taskLocal } from '../locality.js';
import { builtinRulesCheck } from './builtin-rules.js';
import { jqCheck } from './jq.js';
import { lintsCheck } from './lints.js';
import { livenessCheck } from './liveness.js';
import { yamlProfileCheck } from './profile.js';
import { runRulesCheck } from './run-rules.js';
import { typesCheck } from './types.js';

export const DEEP_CHECKS: Check[] = [yamlProfileCheck, taskLocal(typesCheck), runRulesCheck, livenessCheck, jqCheck, taskLocal(builtinRulesCheck), taskLocal(lintsCheck)];
