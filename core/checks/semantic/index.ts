// Meaning checks: expressions, references, the task graph, tools and models. Each runs on the
// shared semantic model (scan + task graph) built once per analysis.
import type { Check } from '../index.js';
import { checkExpressionSyntax } from './expressions.js';
import { checkCycles, checkEdges, checkRecoverAndUnwind } from './graph.js';
import { checkLegacyTemplates } from './legacy.js';
import { checkMcpTools } from './mcp.js';
import { checkModels } from './models.js';
import { checkReferences } from './references.js';
import { checkToolIds } from './tools.js';
import { checkUnused } from './unused.js';
import { checkStatusLiterals, checkWhen } from './when.js';

export const SEMANTIC_CHECKS: Check[] = [
  checkExpressionSyntax,
  checkReferences,
  checkLegacyTemplates,
  checkWhen,
  checkStatusLiterals,
  checkEdges,
  checkCycles,
  checkRecoverAndUnwind,
  checkToolIds,
  checkMcpTools,
  checkModels,
  checkUnused,
];
