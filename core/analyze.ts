// One entry point from text to everything the server and the engine need.
import type { SliceLayout } from './incremental/resplit.js';
import { runChecks } from './checks/index.js';
import { EMPTY_CATALOG, type ToolCatalog } from './catalog/mcp.js';
import type { NikaDiagnostic } from './diagnostic.js';
import { detectDialect, type DialectInfo } from './dialect.js';
import { parseNikaDocument, type NikaDocument } from './document.js';
import type { Dialect, Workflow } from './ir.js';
import { normalize } from './normalize.js';

export interface Analysis {
  doc: NikaDocument;
  dialect: Dialect;
  dialectInfo: DialectInfo;
  workflow: Workflow;
  diagnostics: NikaDiagnostic[];
  /**
   * How the text was cut into slices, when the incremental analyzer read it that way (valid, like
   * the analysis, until that analyzer's next call).
   */
  layout?: SliceLayout;
}

export interface AnalyzeOptions {
  uri?: string;
  catalog?: ToolCatalog;
  /** Skip the static checks (the engine re-analyzes files that already passed). */
  skipChecks?: boolean;
}

export function analyze(text: string, opts: AnalyzeOptions = {}): Analysis {
  const doc = parseNikaDocument(text);
  const dialectInfo = detectDialect(doc.root);
  const workflow = normalize(doc, dialectInfo);
  const diagnostics = [...doc.parseDiagnostics];
  if (!doc.tooLarge && !opts.skipChecks) {
    diagnostics.push(...runChecks({ doc, dialect: dialectInfo, workflow, catalog: opts.catalog ?? EMPTY_CATALOG }));
  }
  return { doc, dialect: dialectInfo.dialect, dialectInfo, workflow, diagnostics };
}
