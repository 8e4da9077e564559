// One analyzed version of one document, shared by every feature. The expression sites and name
// occurrences are derived lazily: a hover never pays for semantic tokens and vice versa.
import { analyze, type Analysis } from '../core/analyze.js';
import { EMPTY_CATALOG, type ToolCatalog } from '../core/catalog/mcp.js';
import { collectOccurrences, type Occurrence } from './features/occurrences.js';
import { scanExpressionsCached, type ExprSite } from '../core/scan.js';

export interface DocModel {
  readonly analysis: Analysis;
  readonly catalog: ToolCatalog;
  readonly text: string;
  readonly sites: readonly ExprSite[];
  readonly occurrences: Occurrence[];
}

export function modelOf(analysis: Analysis, catalog: ToolCatalog = EMPTY_CATALOG): DocModel {
  let sites: readonly ExprSite[] | undefined;
  let occurrences: Occurrence[] | undefined;
  return {
    analysis,
    catalog,
    text: analysis.doc.text,
    get sites() {
      return (sites ??= analysis.doc.tooLarge ? [] : scanExpressionsCached(analysis.doc, analysis.workflow));
    },
    get occurrences() {
      return (occurrences ??= analysis.doc.tooLarge ? [] : collectOccurrences(analysis.doc, analysis.workflow, this.sites));
    },
  };
}

/** Analyzes a text and wraps it (tests and the server use the same path). */
export function buildModel(text: string, catalog: ToolCatalog = EMPTY_CATALOG): DocModel {
  return modelOf(analyze(text, { catalog }), catalog);
}
