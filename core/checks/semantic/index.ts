// Meaning checks: expressions, references, the task graph, tools and models. Each runs on the
// shared semantic model (scan + task graph) built once per analysis.
import type { Check } from '../index.js';
import { taskLocal } from '../locality.js';
import { checkExpressionSyntax } from './expressions.js';
import { checkCycles, checkEdges, checkRecoverAndUnwind } from './graph.js';
import { checkLegacyTemplates } from './legacy.js';
import { checkMcpTools } from './mcp.js';
import { checkModels } from './models.js';
import { semanticModel } from './model.js';
import { checkReferences } from './references.js';
import { checkToolIds } from './tools.js';
import { checkUnused } from './unused.js';
import { checkStatusLiterals, checkWhen } from './when.js';

/**
 * Findings inside an island whose inner offsets are approximate (escapes or folding inside the
 * island) are widened to the whole scalar and lose their text-edit fixes, which could otherwise
 * rewrite the wrong characters.
 */
function guardInexact(check: Check): Check {
  const guarded: Check = (ctx) => {
    const found = check(ctx);
    if (found.length === 0) return found;
    const model = semanticModel(ctx);
    return found.map((d) => {
      const site = model.inexactSiteAt(d.span.start);
      if (!site) return d;
      const { fixes: _drop, ...rest } = d.data ?? {};
      return { ...d, span: site.scalarSpan, data: d.data ? rest : undefined };
    });
  };
  Object.defineProperty(guarded, 'name', { value: check.name });
  return guarded;
}

export const SEMANTIC_CHECKS: Check[] = [
  taskLocal(checkExpressionSyntax),
  checkReferences,
  taskLocal(checkLegacyTemplates),
  taskLocal(checkWhen),
  taskLocal(checkStatusLiterals),
  checkEdges,
  checkCycles,
  checkRecoverAndUnwind,
  taskLocal(checkToolIds),
  taskLocal(checkMcpTools),
  taskLocal(checkModels),
  checkUnused,
].map(guardInexact);
