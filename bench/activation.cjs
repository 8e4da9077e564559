// Activation of dist/extension.js under a stand-in `vscode` module: time to load the bundle and
// run activate(). Every vscode API is a recursive no-op proxy, so this measures our own work at
// activation (module evaluation, registrations), not the editor's. Prints JSON: wall and CPU
// milliseconds (CPU is the steadier figure on a busy machine), the same for what activate()
// deferred to the next turns, and which of our lazily loaded bundles (dist/engine.js,
// dist/analysis.js, dist/languageClient.js) were loaded by then — activation itself should load
// none; the language client follows right after.
// Usage: node bench/activation.cjs [extension root, default: this repository]
const Module = require('node:module');
const path = require('node:path');

function fake(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined; // not a thenable
      if (prop === Symbol.toPrimitive) return () => name;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'toString') return () => name;
      return fake(`${name}.${String(prop)}`);
    },
    set() { return true; },
    apply() { return fake(`${name}()`); },
    construct() { return fake(`new ${name}`); },
  });
}
// The bundle copies the module's own keys (esModule interop), so the namespaces must be listed.
const NAMES = ['window', 'workspace', 'commands', 'languages', 'env', 'extensions', 'tests', 'debug', 'tasks', 'comments', 'authentication', 'l10n', 'scm', 'notebooks', 'chat', 'lm',
  'Uri', 'EventEmitter', 'Disposable', 'Range', 'Position', 'Selection', 'Location', 'ThemeIcon', 'ThemeColor', 'TreeItem', 'TreeItemCollapsibleState', 'MarkdownString',
  'CodeLens', 'StatusBarAlignment', 'ViewColumn', 'ProgressLocation', 'ConfigurationTarget', 'CancellationTokenSource', 'RelativePattern', 'CommentMode',
  'CommentThreadCollapsibleState', 'CompletionItem', 'CompletionList', 'CompletionItemKind', 'CodeAction', 'CodeActionKind', 'Diagnostic', 'DiagnosticTag', 'DocumentLink',
  'InlayHint', 'InlayHintKind', 'TypeHierarchyItem', 'CallHierarchyItem', 'WorkspaceSymbol', 'SymbolInformation', 'SymbolKind', 'DocumentSymbol', 'Hover', 'SignatureHelp',
  'FoldingRange', 'SemanticTokens', 'SemanticTokensLegend', 'SemanticTokensBuilder', 'TextEdit', 'WorkspaceEdit', 'SnippetString', 'InlineValueText', 'InlineCompletionItem',
  'LinkedEditingRanges', 'SelectionRange', 'ColorInformation', 'Color', 'ColorPresentation', 'DocumentHighlight', 'CodeActionTriggerKind', 'TextDocumentSaveReason',
  'FileSystemError', 'CancellationError', 'TestRunProfileKind', 'TestMessage', 'TabInputText', 'NotebookCellKind', 'LogLevel', 'UIKind', 'EndOfLine', 'Comment', 'DiagnosticSeverity', 'OverviewRulerLane', 'DecorationRangeBehavior', 'TextEditorRevealType', 'QuickPickItemKind', 'FileType', 'ExtensionMode', 'version'];
const names = {};
for (const n of NAMES) names[n] = fake(`vscode.${n}`);
names.version = '1.95.0'; // vscode-languageclient refuses to construct without a real one
const vscode = new Proxy(names, {
  get: (t, p) => (p in t ? t[p] : p === 'then' || p === '__esModule' ? undefined : (t[p] = fake(`vscode.${String(p)}`))),
});
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'vscode') return vscode;
  return load.call(this, request, ...rest);
};

const root = path.resolve(process.argv[2] || path.join(__dirname, '..'));
const memento = () => { const m = new Map(); return { get: (k, d) => (m.has(k) ? m.get(k) : d), update: async (k, v) => { m.set(k, v); }, keys: () => [...m.keys()], setKeysForSync() {} }; };
const context = {
  subscriptions: [],
  extensionPath: root,
  extensionUri: vscode.Uri.file(root),
  asAbsolutePath: (p) => path.join(root, p),
  globalState: memento(),
  workspaceState: memento(),
  secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: () => ({ dispose() {} }) },
  storageUri: undefined,
  globalStorageUri: vscode.Uri.file('/tmp/nika-bench-storage'),
  logUri: vscode.Uri.file('/tmp/nika-bench-log'),
  extensionMode: 1,
  environmentVariableCollection: vscode,
};

// Whatever activation left running may fail against the stand-in; that is reported, not fatal.
const late = [];
process.on('unhandledRejection', (e) => { late.push(String(e && e.message || e)); });

(async () => {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const ext = require(path.join(root, 'dist', 'extension.js'));
  const t1 = process.hrtime.bigint();
  const c1 = process.cpuUsage(c0);
  let error;
  try {
    await Promise.race([Promise.resolve(ext.activate(context)), new Promise((r) => setTimeout(r, 5000))]);
  } catch (e) {
    error = String(e && e.message || e);
  }
  const t2 = process.hrtime.bigint();
  const c2 = process.cpuUsage(c0);
  const lazy = () => Object.keys(require.cache).filter((f) => /[\\/]dist[\\/](engine|analysis|languageClient)\.js$/.test(f)).map((f) => path.basename(f));
  const loadedByActivation = lazy();
  // What activate() deferred to the next turns (the language client library, then the client's
  // start): measured apart, so the figure for activation does not hide it.
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  const t3 = process.hrtime.bigint();
  const c3 = process.cpuUsage(c0);
  const cpu = (c) => (c.user + c.system) / 1000;
  process.stdout.write(JSON.stringify({
    requireMs: Number(t1 - t0) / 1e6, activateMs: Number(t2 - t1) / 1e6,
    requireCpuMs: cpu(c1), activateCpuMs: cpu(c2) - cpu(c1),
    deferredMs: Number(t3 - t2) / 1e6, deferredCpuMs: cpu(c3) - cpu(c2),
    loadedByActivation, loadedAfter: lazy(), error, late: late.length ? late : undefined,
  }) + '\n');
  process.exit(0);
})();
