// Nika type expressions (reference §4.8): grammar, conformance, lowering to JSON Schema.
export { parseType, showType, PRIMITIVES, CONSTRUCTORS, type TypeNode, type TypeProblem, type TypePath, type ParsedType, type Primitive } from './grammar.js';
export { conform, fits, type Misfit } from './conform.js';
export { toJsonSchema, DURATION_PATTERN } from './lower.js';
export { regexProblems, MAX_PATTERN_LENGTH, type RegexProblem } from './regex.js';
