// The heavy parts of the extension, loaded on first use. In dist/, esbuild.mjs turns these
// requires into ones of the sibling bundles dist/engine.js, dist/analysis.js and
// dist/languageClient.js; from source
// (tests) they load the TypeScript entries themselves. Synchronous on purpose: callers such as
// analysisOf() and MultiPool's errors cannot await.
export type EngineBundle = typeof import('./engineBundle.js');
export type AnalysisBundle = typeof import('./analysisBundle.js');
export type LanguageClientBundle = typeof import('./languageClientBundle.js');

let engine: EngineBundle | undefined;
let analysis: AnalysisBundle | undefined;
let languageClient: LanguageClientBundle | undefined;

/** The engine, MCP pool and their SDKs (first run, first MCP use). */
export function loadEngine(): EngineBundle {
  engine ??= require('./engineBundle.js') as EngineBundle;
  return engine;
}

/** analyze() and what builds on it (first visible Nika document or command). */
export function loadAnalysis(): AnalysisBundle {
  analysis ??= require('./analysisBundle.js') as AnalysisBundle;
  return analysis;
}

/** vscode-languageclient (when the language server is started, just after activation). */
export function loadLanguageClient(): LanguageClientBundle {
  languageClient ??= require('./languageClientBundle.js') as LanguageClientBundle;
  return languageClient;
}
