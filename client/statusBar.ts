// The status bar item: engine state and running tasks; click shows the runs, cancels, or
// restarts the language server depending on what is going on.
import * as vscode from 'vscode';
import { statusView, type StatusInput } from './model/status.js';
import { runningTaskCount } from './model/runState.js';
import type { RunStore } from './runs/store.js';
import { throttle } from './util.js';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('nika.status', vscode.StatusBarAlignment.Left, 10);
  private server: StatusInput['server'] = 'starting';
  private readonly sub: vscode.Disposable;
  private readonly update = throttle(() => this.render(), 250);

  constructor(private readonly store: RunStore) {
    this.item.name = 'Nika';
    this.sub = store.onDidChange(() => this.update());
    this.render();
    this.item.show();
  }

  setServer(state: StatusInput['server']): void {
    this.server = state;
    this.update();
  }

  private render(): void {
    const running = this.store.running();
    const last = this.store.runs.find((r) => r.status !== 'running');
    const v = statusView({
      trusted: vscode.workspace.isTrusted,
      server: this.server,
      runningRuns: running.length,
      runningTasks: running.reduce((n, r) => n + runningTaskCount(r), 0),
      lastRun: last ? { workflow: last.workflow, status: last.status } : undefined,
    });
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.command = v.command === 'cancel' ? 'nika.cancelRun' : v.command === 'restart' ? 'nika.restartServer' : 'nika.runs.focus';
    this.item.backgroundColor = v.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.update.dispose();
    this.sub.dispose();
    this.item.dispose();
  }
}
