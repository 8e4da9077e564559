// Entry of dist/analysis.js: the core analysis (YAML parse, IR, checks, ajv) and the planner that
// builds on it, required the first time a Nika document needs a lens, a decoration or a command
// (client/lazy.ts). Activation itself never parses a workflow, so it does not pay for this code.
export { analyze } from '../core/analyze.js';
export { planInvokeInsertion } from './model/invokeTask.js';
