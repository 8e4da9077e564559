// Activation of dist/extension.js under a stand-in `vscode` module: time to load the bundle and
// run activate(). Every vscode API is a recursive no-op proxy, so this measures our own work at
// activation (module evaluation, registrations), not the editor's. Prints JSON.
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
const vscode = new Proxy(names, {
  get: (t, p) => (p in t ? t[p] : p === 'then' || p === '__esModule' ? undefined : (t[p] = fake(`vscode.${String(p)}`))),
});
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'vscode') return vscode;
  return load.call(this, request, ...rest);
};

const root = path.join(__dirname, '..');
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

(async () => {
  const t0 = process.hrtime.bigint();
  const ext = require(path.join(root, 'dist', 'extension.js'));
  const t1 = process.hrtime.bigint();
  let error;
  try {
    await Promise.race([Promise.resolve(ext.activate(context)), new Promise((r) => setTimeout(r, 5000))]);
  } catch (e) {
    error = String(e && e.message || e);
  }
  const t2 = process.hrtime.bigint();
  process.stdout.write(JSON.stringify({ requireMs: Number(t1 - t0) / 1e6, activateMs: Number(t2 - t1) / 1e6, error }) + '\n');
  process.exit(0);
})();
