// Run lenses: "▶ Run workflow · Check · Run on mock/echo" at the top, "▶ Run task · ▶ Run with
// upstream" on every task. Computed here (not in the language server) because they start runs,
// which only the extension host can do.
import * as vscode from 'vscode';
import { analysisOf } from './analysisCache.js';
import { lensPlan } from './model/lenses.js';
import type { RunStore } from './runs/store.js';

export class RunLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly subs: vscode.Disposable[];
  private lastRunning = 0;

  constructor(private readonly store: RunStore) {
    this.subs = [
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.emitter.fire()),
      // Only a change in what is running alters the lenses (a running file offers Cancel).
      store.onDidChange(() => {
        const n = store.running().length;
        if (n !== this.lastRunning) {
          this.lastRunning = n;
          this.emitter.fire();
        }
      }),
    ];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const a = analysisOf(doc);
    const uri = doc.uri;
    const lenses: vscode.CodeLens[] = [];
    const trusted = vscode.workspace.isTrusted;
    const running = this.store.running().find((r) => r.file === uri.toString());
    for (const spot of lensPlan(a.workflow, a.doc.lines)) {
      const range = new vscode.Range(spot.line, 0, spot.line, 0);
      if (spot.kind === 'workflow') {
        if (!trusted) {
          lenses.push(new vscode.CodeLens(range, { title: '$(shield) Runs need a trusted workspace', command: 'workbench.trust.manage' }));
        } else if (running) {
          lenses.push(new vscode.CodeLens(range, { title: '■ Cancel run', command: 'nika.cancelRun', arguments: [{ kind: 'run', key: running.key }] }));
        } else {
          lenses.push(new vscode.CodeLens(range, { title: '▶ Run workflow', command: 'nika.runWorkflow', arguments: [uri] }));
        }
        lenses.push(new vscode.CodeLens(range, { title: 'Check', command: 'nika.checkWorkflow', arguments: [uri] }));
        if (trusted) lenses.push(new vscode.CodeLens(range, { title: 'Run on mock/echo', tooltip: 'Rehearse offline: every model is replaced by mock/echo', command: 'nika.runMock', arguments: [uri] }));
      } else if (trusted) {
        lenses.push(new vscode.CodeLens(range, { title: '▶ Run task', tooltip: `Run ${spot.taskId}, reusing upstream results from earlier runs`, command: 'nika.runTask', arguments: [uri, spot.taskId] }));
        lenses.push(new vscode.CodeLens(range, { title: '▶ Run with upstream', tooltip: `Run ${spot.taskId} and every task it depends on`, command: 'nika.runTaskWithUpstream', arguments: [uri, spot.taskId] }));
        const hit = this.store.latestTask(uri.toString(), spot.taskId);
        if (hit && (hit.task.hasOutput || hit.task.transcript.length || hit.task.error)) {
          lenses.push(new vscode.CodeLens(range, { title: 'Output', tooltip: 'Open the full output of the last run of this task', command: 'nika.showTranscript', arguments: [{ kind: 'task', key: hit.run.key, taskId: spot.taskId }] }));
        }
      }
    }
    return lenses;
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
    this.emitter.dispose();
  }
}
