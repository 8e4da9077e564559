// Public surface of the `${{ }}` expression module (cel-subset/0.1, reference §4).
export type { Island, ExprNode, ExprError, Reference } from './api.js';
export { findIslands, hasIslands, islandAt, scanTemplate, type TemplatePart } from './islands.js';
export { parseExpression } from './parser.js';
export { collectReferences } from './references.js';
export {
  evaluate, evaluateSource, ExprEvalError, typeName, pathText,
  type EvalScope, type TaskRecord, type ValueType,
} from './evaluate.js';
export { renderTemplate, interpolateDeep, stringifyValue, toSortedJson } from './render.js';
export { staticType, type StaticType } from './types.js';
