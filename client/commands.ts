// Command handlers. Arguments arrive from lenses (uri, task id), tree rows (nodes), comment
// threads, or nothing at all (palette): each handler resolves what it acts on, asking only when
// it cannot tell.
import * as vscode from 'vscode';
import { analysisOf, isNikaDocument } from './analysisCache.js';
import { RunDocuments, openReadOnly } from './documents.js';
import { callToolFlow } from './mcp/callTool.js';
import type { McpExplorer, McpNode } from './mcp/explorer.js';
import { loadAnalysis } from './lazy.js';
import { exampleMcpJson, type ToolView } from './model/mcpTree.js';
import { safeJson } from './model/format.js';
import type { RunMode, RunView } from './model/runState.js';
import type { RunController } from './runs/controller.js';
import type { RunNode } from './runs/runsView.js';
import type { RunStore } from './runs/store.js';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  store: RunStore;
  runs: () => Promise<RunController>;
  mcp: McpExplorer;
  docs: RunDocuments;
  mcpLog: vscode.OutputChannel;
}

export async function pickWorkflow(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  const active = vscode.window.activeTextEditor?.document;
  if (isNikaDocument(active)) return active.uri;
  const files = await vscode.workspace.findFiles('**/*.nika.{yaml,yml}', '**/node_modules/**', 500);
  if (files.length === 0) {
    void vscode.window.showInformationMessage('No *.nika.yaml workflow in this workspace. Create one with "Nika: New workflow from template".', 'New Workflow').then((p) => {
      if (p) void vscode.commands.executeCommand('nika.newWorkflow');
    });
    return undefined;
  }
  if (files.length === 1) return files[0];
  const pick = await vscode.window.showQuickPick(files.map((f) => ({ label: vscode.workspace.asRelativePath(f), f })), { placeHolder: 'Which workflow?' });
  return pick?.f;
}

async function pickTask(uri: vscode.Uri, arg: unknown): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  const doc = await vscode.workspace.openTextDocument(uri);
  const a = analysisOf(doc);
  if (a.workflow.tasks.length === 0) {
    void vscode.window.showInformationMessage('This workflow has no tasks.');
    return undefined;
  }
  const editor = vscode.window.activeTextEditor;
  const cursor = editor && editor.document.uri.toString() === uri.toString() ? doc.offsetAt(editor.selection.active) : -1;
  const here = a.workflow.tasks.find((t) => Math.min(t.idSpan.start, t.span.start) <= cursor && cursor <= t.span.end);
  const items = a.workflow.tasks.map((t) => ({ label: t.id, description: t.verb ?? '', picked: t === here }));
  if (here) items.unshift(items.splice(items.findIndex((i) => i.label === here.id), 1)[0]);
  return (await vscode.window.showQuickPick(items, { placeHolder: 'Which task?' }))?.label;
}

function runOf(store: RunStore, arg: unknown): RunView | undefined {
  const key = (arg as { key?: string } | undefined)?.key;
  return key ? store.get(key) : undefined;
}

async function toolFromArg(mcp: McpExplorer, arg: unknown, purpose: string): Promise<{ server: string; tool: ToolView } | undefined> {
  const n = arg as McpNode | undefined;
  if (n && n.kind === 'tool') return { server: n.server, tool: n.tool };
  let tools = mcp.tools();
  if (tools.length === 0) {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting MCP servers…' }, () => mcp.refresh());
    tools = mcp.tools();
  }
  if (tools.length === 0) {
    void vscode.window.showInformationMessage('No MCP tools available: no server is configured or connected. See the MCP Tools view.', 'Open MCP Tools').then((p) => {
      if (p) void vscode.commands.executeCommand('nika.mcpTools.focus');
    });
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(tools.map((t) => ({ label: `mcp:${t.server}/${t.tool.name}`, detail: t.tool.description?.split('\n')[0], t })), { placeHolder: `Tool to ${purpose}`, matchOnDetail: true });
  return pick?.t;
}

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const { store, mcp } = d;
  const startRun = async (mode: RunMode, uriArg: unknown, taskArg?: unknown) => {
    const uri = await pickWorkflow(uriArg);
    if (!uri) return;
    const task = mode === 'task' || mode === 'upstream' ? await pickTask(uri, taskArg) : undefined;
    if ((mode === 'task' || mode === 'upstream') && !task) return;
    await (await d.runs()).start({ uri, mode, task });
  };
  const reg = vscode.commands.registerCommand;
  return [
    reg('nika.runWorkflow', (u) => startRun('workflow', u)),
    reg('nika.runMock', (u) => startRun('mock', u)),
    reg('nika.runTask', (u, t) => startRun('task', u, t)),
    reg('nika.runTaskWithUpstream', (u, t) => startRun('upstream', u, t)),
    reg('nika.checkWorkflow', async (u) => {
      const uri = await pickWorkflow(u);
      if (!uri) return;
      const doc = await vscode.workspace.openTextDocument(uri);
      const a = analysisOf(doc);
      const count = (s: string) => a.diagnostics.filter((x) => x.severity === s).length;
      const [e, w] = [count('error'), count('warning')];
      const head = `${vscode.workspace.asRelativePath(uri)} (${a.dialect}, ${a.workflow.tasks.length} task${a.workflow.tasks.length === 1 ? '' : 's'})`;
      if (e + w === 0) {
        void vscode.window.showInformationMessage(`✓ ${head}: no problems.`);
        return;
      }
      const codes = [...new Set(a.diagnostics.filter((x) => x.severity === 'error' || x.severity === 'warning').map((x) => x.code))].join(', ');
      const msg = `${head}: ${e} error${e === 1 ? '' : 's'}, ${w} warning${w === 1 ? '' : 's'} (${codes}).`;
      const pick = await (e ? vscode.window.showErrorMessage(msg, 'Show Problems') : vscode.window.showWarningMessage(msg, 'Show Problems'));
      if (pick) void vscode.commands.executeCommand('workbench.actions.view.problems');
    }),
    reg('nika.cancelRun', async (arg) => {
      let run = runOf(store, arg);
      if (!run) {
        const running = store.running();
        if (running.length === 0) {
          void vscode.commands.executeCommand('nika.runs.focus');
          return;
        }
        run = running.length === 1 ? running[0] : (await vscode.window.showQuickPick(running.map((r) => ({ label: r.workflow, description: r.mode, r })), { placeHolder: 'Cancel which run?' }))?.r;
      }
      if (run) (await d.runs()).cancel(run);
    }),
    reg('nika.rerun', (arg) => {
      const run = runOf(store, arg) ?? store.runs[0];
      if (run) store.extrasOf(run.key)?.rerun?.();
    }),
    reg('nika.showRunOutput', (arg) => {
      const run = runOf(store, arg) ?? store.runs[0];
      const ch = run && store.extrasOf(run.key)?.channel;
      if (ch) ch.show(false);
      else if (run) void openReadOnly(RunDocuments.runUri(run.key, run.workflow));
    }),
    reg('nika.showRunSummary', (arg) => {
      const run = runOf(store, arg) ?? store.runs[0];
      if (run) void openReadOnly(RunDocuments.runUri(run.key, run.workflow));
    }),
    reg('nika.showTranscript', async (arg, taskArg) => {
      // From a tree row or command link: {key, taskId}; from a comment thread: its contextValue.
      let key: string | undefined;
      let taskId: string | undefined;
      const a = arg as { key?: string; taskId?: string; contextValue?: string } | undefined;
      if (a?.key && a.taskId) [key, taskId] = [a.key, a.taskId];
      else if (typeof a?.contextValue === 'string' && a.contextValue.startsWith('nikaOutput:')) [, key, taskId] = a.contextValue.split(':');
      else {
        const uri = await pickWorkflow(arg);
        if (!uri) return;
        taskId = await pickTask(uri, taskArg);
        if (!taskId) return;
        key = store.latestTask(uri.toString(), taskId)?.run.key;
        if (!key) {
          void vscode.window.showInformationMessage(`Task ${taskId} has not run yet in this window.`);
          return;
        }
      }
      await openReadOnly(RunDocuments.taskUri(key!, taskId!));
    }),
    reg('nika.goToTask', async (arg: RunNode) => {
      const run = runOf(store, arg);
      if (!run?.file || arg.kind !== 'task') return;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(run.file));
      const t = analysisOf(doc).workflow.tasks.find((x) => x.id === arg.taskId);
      const pos = doc.positionAt(t?.idSpan.start ?? 0);
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
    }),
    reg('nika.clearRuns', () => {
      store.clearFinished();
    }),

    // ---- MCP ----
    reg('nika.mcp.refresh', () => vscode.window.withProgress({ location: { viewId: 'nika.mcpTools' } }, () => mcp.refresh())),
    reg('nika.mcp.startServer', (n: McpNode) => {
      if (n?.kind === 'server') return vscode.window.withProgress({ location: { viewId: 'nika.mcpTools' } }, () => mcp.start(n.server));
    }),
    reg('nika.mcp.stopServer', (n: McpNode) => {
      if (n?.kind === 'server') return mcp.stop(n.server);
    }),
    reg('nika.mcp.copyToolId', async (n: unknown) => {
      const t = await toolFromArg(mcp, n, 'copy');
      if (!t) return;
      const id = `mcp:${t.server}/${t.tool.name}`;
      await vscode.env.clipboard.writeText(id);
      vscode.window.setStatusBarMessage(`Copied ${id}`, 3000);
    }),
    reg('nika.mcp.callTool', async (n: unknown) => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage('Calling MCP tools needs a trusted workspace.');
        return;
      }
      const t = await toolFromArg(mcp, n, 'call');
      if (!t) return;
      await callToolFlow(t.server, t.tool, {
        call: (s, tool, args, signal) => mcp.callTool(s, tool, args, signal),
        show: (name, text) => openReadOnly(d.docs.put(name, text), 'json'),
        draftsDir: vscode.Uri.joinPath(d.context.globalStorageUri, 'tool-calls'),
      });
    }),
    reg('nika.mcp.readResource', async (n: McpNode) => {
      if (n?.kind !== 'resource') return;
      try {
        const value = await mcp.readResource(n.server, n.resource.uri);
        const json = typeof value !== 'string';
        await openReadOnly(d.docs.put(`${n.server}-resource.${json ? 'json' : 'txt'}`, json ? safeJson(value) : value as string), json ? 'json' : undefined);
      } catch (e) {
        void vscode.window.showErrorMessage(`Could not read ${n.resource.uri}: ${(e as Error).message}`);
      }
    }),
    reg('nika.mcp.insertInvokeTask', async (n: unknown) => {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => isNikaDocument(e.document));
      if (!editor || !isNikaDocument(editor.document)) {
        void vscode.window.showInformationMessage('Open a *.nika.yaml workflow and place the cursor where the task should go.');
        return;
      }
      const t = await toolFromArg(mcp, n, 'insert as an invoke task');
      if (!t) return;
      const doc = editor.document;
      const plan = loadAnalysis().planInvokeInsertion(analysisOf(doc), doc.offsetAt(editor.selection.active), { server: t.server, name: t.tool.name, inputSchema: t.tool.inputSchema });
      if ('error' in plan) {
        void vscode.window.showErrorMessage(plan.error);
        return;
      }
      const ok = await editor.edit((b) => {
        for (const e of plan.edits) b.replace(new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
      });
      if (!ok) return;
      // Put the cursor on the new task's id so the user can rename it right away.
      const a = analysisOf(doc);
      const task = a.workflow.tasks.find((x) => x.id === plan.taskId);
      if (task) {
        const s = doc.positionAt(task.idSpan.start);
        const e = doc.positionAt(task.idSpan.end);
        editor.selection = new vscode.Selection(s, e);
        editor.revealRange(new vscode.Range(s, e), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
      await vscode.window.showTextDocument(doc, editor.viewColumn);
      vscode.window.setStatusBarMessage(`Inserted task ${plan.taskId}${plan.grantAdded ? ` and granted ${plan.toolId} in permits.tools` : ''}`, 4000);
    }),
    reg('nika.mcp.createConfig', async () => {
      const root = vscode.workspace.workspaceFolders?.[0]?.uri;
      if (!root) {
        void vscode.window.showInformationMessage('Open a folder first: .vscode/mcp.json lives in the workspace.');
        return;
      }
      const uri = vscode.Uri.joinPath(root, '.vscode', 'mcp.json');
      let exists = true;
      try { await vscode.workspace.fs.stat(uri); } catch { exists = false; }
      if (!exists) {
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, '.vscode'));
        await vscode.workspace.fs.writeFile(uri, Buffer.from(exampleMcpJson(), 'utf8'));
      }
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      await mcp.load();
    }),
    reg('nika.mcp.showLog', () => d.mcpLog.show()),
  ];
}
