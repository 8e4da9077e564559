// Wiring only: LSP requests → pure features over one cached analysis per (uri, version).
// Every handler is guarded so a bug answers with an empty result instead of killing the server.
import { format } from 'node:util';
import {
  CodeActionKind, ResponseError, ErrorCodes, TextDocumentSyncKind, TextDocuments, DocumentDiagnosticReportKind,
  type CompletionItem, type Connection, type InitializeParams, type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../core/text.js';
import { IncrementalAnalyzer } from '../core/incremental/analyzer.js';
import { commonPrefix, commonSuffix } from '../core/incremental/resplit.js';
import type { ToolCatalog } from '../core/catalog/mcp.js';
import { modelOf, type DocModel } from './model.js';
import { normalizeCatalog } from './catalog.js';
import { diagnostics } from './features/diagnostics.js';
import { completion, resolveCompletionItem, type CompletionOptions } from './features/completion.js';
import { hover } from './features/hover.js';
import { definition, documentHighlights, prepareRename, references, rename } from './features/navigation.js';
import { documentSymbols } from './features/symbols.js';
import { foldingRanges } from './features/folding.js';
import { LEGEND, semanticTokens } from './features/semanticTokens.js';
import { CODE_ACTION_KINDS, codeActions } from './features/codeActions.js';

export const TRIGGER_CHARACTERS = ['.', ':', '/', '{', '$', ' ', '"'];

/**
 * Validation waits this long after a change: a burst of keystrokes is validated once, and a
 * request sent right behind a keystroke (completion) is answered from the unchecked model before
 * the checks occupy the thread (vscode-jsonrpc hands over one message per event-loop turn).
 */
const COALESCE_MS = 5;

export function startServer(connection: Connection): void {
  redirectConsole(connection);
  const documents = new TextDocuments(TextDocument);
  let catalog: ToolCatalog = { servers: [] };
  let catalogVersion = 0;
  let pull = false;
  let completionOptions: CompletionOptions = {};
  // `checked`: the model carries diagnostics. Completion, hover and the like take an unchecked
  // model (parse, IR and expression sites only), so a keystroke never waits for the checks.
  const cache = new Map<string, { version: number; catalogVersion: number; model: DocModel; checked: boolean }>();
  const pending = new Map<string, () => void>();
  // One incremental analyzer per open document: unchanged slices are not parsed or checked again.
  const analyzers = new Map<string, IncrementalAnalyzer>();
  const cancel = (uri: string) => pending.get(uri)?.();

  const modelFor = (uri: string, checked = false): DocModel | undefined => {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const hit = cache.get(uri);
    if (hit && hit.version === doc.version && hit.catalogVersion === catalogVersion && (hit.checked || !checked)) return hit.model;
    let analyzer = analyzers.get(uri);
    if (!analyzer) analyzers.set(uri, (analyzer = new IncrementalAnalyzer()));
    const model = modelOf(analyzer.analyze(doc.getText(), { uri, catalog, skipChecks: !checked }), catalog);
    cache.set(uri, { version: doc.version, catalogVersion, model, checked });
    return model;
  };

  function guard<P, R>(name: string, fallback: R, f: (params: P) => R): (params: P) => R {
    return (params: P) => {
      try {
        return f(params);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        connection.console.error(`nika: ${name} failed: ${(e as Error)?.stack ?? String(e)}`);
        return fallback;
      }
    };
  }

  const publish = (uri: string) => {
    pending.delete(uri);
    const model = modelFor(uri, true);
    if (!model) return;
    const doc = documents.get(uri)!;
    void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: diagnostics(model) });
  };
  const schedule = (uri: string, delay = COALESCE_MS) => {
    if (pull) return;
    cancel(uri);
    const run = guard('diagnostics', undefined, () => publish(uri));
    if (delay > 0) {
      // When the delay is up, two more turns of the event loop: a request read from the client in
      // the meantime (a completion typed right behind the keystroke) is handled before the checks
      // hold the thread (vscode-jsonrpc handles one message per turn, from setImmediate).
      const t = setTimeout(() => {
        const first = setImmediate(() => {
          const second = setImmediate(run);
          pending.set(uri, () => clearImmediate(second));
        });
        pending.set(uri, () => clearImmediate(first));
      }, delay);
      pending.set(uri, () => clearTimeout(t));
    } else {
      const t = setImmediate(run);
      pending.set(uri, () => clearImmediate(t));
    }
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const opts = (params.initializationOptions ?? {}) as { diagnostics?: 'push' | 'pull'; catalog?: unknown };
    const clientPulls = !!params.capabilities.textDocument?.diagnostic;
    pull = opts.diagnostics ? opts.diagnostics === 'pull' && clientPulls : clientPulls;
    if (opts.catalog) catalog = normalizeCatalog(opts.catalog);
    const completionCaps = params.capabilities.textDocument?.completion;
    completionOptions = {
      itemDefaults: completionCaps?.completionList?.itemDefaults,
      resolvesDetail: !!completionCaps?.completionItem?.resolveSupport?.properties.includes('detail'),
    };
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: TRIGGER_CHARACTERS, resolveProvider: true },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: { label: 'Nika' },
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: LEGEND, full: true },
        codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS },
        ...(pull ? { diagnosticProvider: { identifier: 'nika', interFileDependencies: false, workspaceDiagnostics: false } } : {}),
      },
      serverInfo: { name: 'nika-language-server', version: '0.1.0' },
    };
  });

  documents.onDidOpen((e) => schedule(e.document.uri, 0));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidClose((e) => {
    cancel(e.document.uri);
    pending.delete(e.document.uri);
    cache.delete(e.document.uri);
    analyzers.delete(e.document.uri);
    if (!pull) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.languages.diagnostics.on(guard('pull diagnostics', { kind: DocumentDiagnosticReportKind.Full, items: [] }, (p) => {
    const model = modelFor(p.textDocument.uri, true);
    return { kind: DocumentDiagnosticReportKind.Full, items: model ? diagnostics(model) : [] };
  }));

  connection.onNotification('nika/toolCatalog', guard('nika/toolCatalog', undefined, (params: unknown) => {
    catalog = normalizeCatalog(params);
    catalogVersion++;
    cache.clear();
    if (pull) void connection.languages.diagnostics.refresh().catch(() => undefined);
    else for (const d of documents.all()) schedule(d.uri, 0);
  }));

  const withModel = <P extends { textDocument: { uri: string } }, R>(name: string, fallback: R, f: (m: DocModel, p: P) => R, checked = false) =>
    guard<P, R>(name, fallback, (p) => {
      const m = modelFor(p.textDocument.uri, checked);
      return m ? f(m, p) : fallback;
    });

  const complete = guard('completion', null, (p: { textDocument: { uri: string }; position: { line: number; character: number } }) => {
    const uri = p.textDocument.uri;
    const doc = documents.get(uri);
    if (!doc) return null;
    // Right behind a keystroke the model is of the version before it: when the keystroke is in
    // the cursor's task (the usual case) that model serves, and this version is analyzed once,
    // with its checks, when validation runs.
    const hit = cache.get(uri);
    if (hit && hit.version !== doc.version && hit.catalogVersion === catalogVersion) {
      const text = doc.getText();
      if (onCursorLine(hit.model.text, text, doc.offsetAt(p.position))) {
        const list = completion(hit.model, p.position, { ...completionOptions, uri }, { text, lines: new LineIndex(text) });
        if (list) return list;
      }
    }
    const m = modelFor(uri);
    return m ? completion(m, p.position, { ...completionOptions, uri }) : null;
  });
  connection.onCompletion((p) => {
    const list = complete(p);
    // The answer is written after this handler returns: pending validation waits until it is out.
    if (pending.has(p.textDocument.uri)) schedule(p.textDocument.uri);
    return list;
  });
  connection.onCompletionResolve((item: CompletionItem) => {
    try {
      return resolveCompletionItem(item, (uri) => modelFor(uri));
    } catch (e) {
      connection.console.error(`nika: completion resolve failed: ${(e as Error)?.stack ?? String(e)}`);
      return item;
    }
  });
  connection.onHover(withModel('hover', null, (m, p) => hover(m, p.position)));
  connection.onDefinition(withModel('definition', [], (m, p) => definition(m, p.textDocument.uri, p.position)));
  connection.onReferences(withModel('references', [], (m, p) => references(m, p.textDocument.uri, p.position, p.context.includeDeclaration)));
  connection.onDocumentHighlight(withModel('highlights', [], (m, p) => documentHighlights(m, p.position)));
  connection.onPrepareRename(withModel('prepareRename', null, (m, p) => {
    const r = prepareRename(m, p.position);
    if (!r.ok) throw new ResponseError(ErrorCodes.InvalidRequest, r.message);
    return { range: r.range, placeholder: r.placeholder };
  }));
  connection.onRenameRequest(withModel('rename', null, (m, p) => {
    const r = rename(m, p.textDocument.uri, p.position, p.newName);
    if (!r.ok) throw new ResponseError(ErrorCodes.InvalidRequest, r.message);
    return r.edit;
  }));
  connection.onDocumentSymbol(withModel('symbols', [], (m) => documentSymbols(m)));
  connection.onFoldingRanges(withModel('folding', [], (m) => foldingRanges(m)));
  connection.languages.semanticTokens.on(withModel('semanticTokens', { data: [] }, (m) => semanticTokens(m)));
  connection.onCodeAction(withModel('codeActions', [], (m, p) => codeActions(m, p.textDocument.uri, p.range, p.context.diagnostics, p.context.only), true));

  documents.listen(connection);
  connection.listen();
}

/** Whether `after` differs from `before` only on the line holding `cursor` (an offset in `after`). */
export function onCursorLine(before: string, after: string, cursor: number): boolean {
  // Flat-string compares (resplit.ts), not a loop over characters: the edit may be far away.
  const start = commonPrefix(before, after);
  if (start === before.length && start === after.length) return true;
  const tail = commonSuffix(before, after, Math.min(before.length, after.length) - start);
  const from = Math.min(start, cursor);
  const to = Math.max(after.length - tail, cursor);
  return !after.slice(from, to).includes('\n');
}

/** stdout carries LSP frames: anything printed by accident must go to the client's log instead. */
function redirectConsole(connection: Connection): void {
  const send = (level: 'log' | 'info' | 'warn' | 'error') => (...args: unknown[]) => connection.console[level](format(...args));
  console.log = send('log');
  console.info = send('info');
  console.debug = send('log');
  console.warn = send('warn');
  console.error = send('error');
}

export { CodeActionKind };
