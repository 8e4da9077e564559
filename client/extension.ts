// Entry point. Activation only registers things: views, lenses, commands, the status item, and
// starts the language client. The engine and the MCP SDK are loaded on first use; MCP servers are
// started after the language server is up (trusted workspaces only), so completion can offer
// real tool names without slowing activation.
import * as vscode from 'vscode';
import { forgetAnalysis } from './analysisCache.js';
import { registerCommands } from './commands.js';
import { RUN_SCHEME, RunDocuments } from './documents.js';
import { LanguageClientHost } from './languageClient.js';
import { RunLenses } from './lenses.js';
import { McpExplorer } from './mcp/explorer.js';
import type { RunController } from './runs/controller.js';
import { EditorResults } from './runs/editorResults.js';
import { RunsView } from './runs/runsView.js';
import { RunStore } from './runs/store.js';
import { Secrets } from './secrets.js';
import { readSettings } from './settings.js';
import { StatusBar } from './statusBar.js';
import { debounce } from './util.js';
import { newWorkflowCommand } from './newWorkflow.js';

let host: LanguageClientHost | undefined;
let explorer: McpExplorer | undefined;
let store: RunStore | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Nika');
  const mcpLog = vscode.window.createOutputChannel('Nika MCP');
  store = new RunStore(() => readSettings().keepRuns);
  const runsStore = store;
  const secrets = new Secrets(context.secrets);
  explorer = new McpExplorer(mcpLog);
  const mcp = explorer;
  const docs = new RunDocuments(runsStore);
  const status = new StatusBar(runsStore);
  host = new LanguageClientHost(context, log);
  const lc = host;

  let controller: RunController | undefined;
  const runs = async (): Promise<RunController> => {
    if (!controller) {
      const { RunController } = await import('./runs/controller.js');
      controller = new RunController({
        store: runsStore, log,
        engineEnv: () => secrets.env(),
        poolForRun: (wf, env) => mcp.poolForRun(wf, env),
      });
    }
    return controller;
  };

  const runsView = new RunsView(runsStore);
  context.subscriptions.push(
    log, mcpLog, runsStore, mcp, docs, status, runsView,
    vscode.workspace.registerTextDocumentContentProvider(RUN_SCHEME, docs),
    vscode.window.createTreeView('nika.runs', { treeDataProvider: runsView, showCollapseAll: true }),
    vscode.window.createTreeView('nika.mcpTools', { treeDataProvider: mcp, showCollapseAll: true }),
    vscode.languages.registerCodeLensProvider({ language: 'nika' }, new RunLenses(runsStore)),
    new EditorResults(runsStore),
    vscode.workspace.onDidCloseTextDocument((d) => forgetAnalysis(d)),
    ...registerCommands({ context, store: runsStore, runs, mcp, docs, mcpLog }),
    vscode.commands.registerCommand('nika.setApiKey', () => secrets.setApiKeyCommand()),
    vscode.commands.registerCommand('nika.newWorkflow', () => newWorkflowCommand()),
    vscode.commands.registerCommand('nika.restartServer', async () => {
      await lc.restart();
      void vscode.window.setStatusBarMessage('Nika language server restarted', 3000);
    }),
    vscode.commands.registerCommand('nika.showLog', () => log.show()),
    lc.onDidChangeState((s) => status.setServer(s)),
    mcp.onDidChangeCatalog((c) => void lc.setCatalog(c)),
  );

  // MCP configuration follows its sources: the setting and the two workspace files.
  const reloadMcp = debounce(() => void mcp.refresh().catch((e) => mcpLog.appendLine(String(e))), 500);
  const watcher = vscode.workspace.createFileSystemWatcher('**/{.vscode/mcp.json,.mcp.json}');
  context.subscriptions.push(
    watcher,
    watcher.onDidChange(() => reloadMcp()), watcher.onDidCreate(() => reloadMcp()), watcher.onDidDelete(() => reloadMcp()),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('nika.mcp.servers')) reloadMcp(); }),
    // Trust granted: the disabled pools are dropped and the servers can start for real.
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      await mcp.closeAll();
      if (readSettings().mcpAutoStart) reloadMcp();
    }),
  );

  // After the server is up: tell it which MCP servers exist, then (trusted, auto-start) start them.
  let first = true;
  context.subscriptions.push(lc.onReady(() => {
    if (!first) return;
    first = false;
    void mcp.load().then(async () => {
      if (vscode.workspace.isTrusted && readSettings().mcpAutoStart && (await mcp.hasServers())) await mcp.refresh(false);
    }).catch((e) => mcpLog.appendLine(`MCP: ${String(e)}`));
  }));
  void lc.start();
}

export async function deactivate(): Promise<void> {
  for (const r of store?.running() ?? []) store?.extrasOf(r.key)?.cancel?.('the editor is closing');
  await Promise.all([host?.dispose(), explorer?.closeAll()]);
}
