// The "Runs" view: each run, then its tasks with their status icon, duration and error code.
// Clicking a task opens its full output; runs can be re-run or cancelled inline.
import * as vscode from 'vscode';
import { runRow, taskRow, type RowModel } from '../model/runsTree.js';
import { RunningTicker } from './runningTicker.js';
import type { RunStore } from './store.js';
import { throttle } from '../util.js';

export type RunNode = { kind: 'run'; key: string } | { kind: 'task'; key: string; taskId: string };

export class RunsView implements vscode.TreeDataProvider<RunNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<RunNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly refresh = throttle(() => this.emitter.fire(undefined), 250);
  private readonly sub: vscode.Disposable;
  private readonly ticker: RunningTicker;

  constructor(private readonly store: RunStore) {
    this.ticker = new RunningTicker(store, () => this.refresh());
    this.sub = store.onDidChange(() => {
      this.refresh();
      this.ticker.poke();
    });
  }


  getChildren(node?: RunNode): RunNode[] {
    if (!node) return this.store.runs.map((r) => ({ kind: 'run', key: r.key }));
    if (node.kind === 'run') {
      const run = this.store.get(node.key);
      return run ? run.order.map((taskId) => ({ kind: 'task', key: run.key, taskId })) : [];
    }
    return [];
  }

  getParent(node: RunNode): RunNode | undefined {
    return node.kind === 'task' ? { kind: 'run', key: node.key } : undefined;
  }

  getTreeItem(node: RunNode): vscode.TreeItem {
    const run = this.store.get(node.key);
    if (!run) return new vscode.TreeItem('(gone)');
    const now = Date.now();
    if (node.kind === 'run') {
      const row = runRow(run, now);
      const item = toItem(row, row.collapsible ? (run === this.store.runs[0] ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed) : vscode.TreeItemCollapsibleState.None);
      item.id = run.key;
      item.command = { command: 'nika.showRunOutput', title: 'Show output', arguments: [node] };
      return item;
    }
    const task = run.tasks.get(node.taskId);
    if (!task) return new vscode.TreeItem(node.taskId);
    const item = toItem(taskRow(run, task, now), vscode.TreeItemCollapsibleState.None);
    item.id = `${run.key}/${task.id}`;
    item.command = { command: 'nika.showTranscript', title: 'Open task output', arguments: [node] };
    return item;
  }

  dispose(): void {
    this.ticker.dispose();
    this.refresh.dispose();
    this.sub.dispose();
    this.emitter.dispose();
  }
}

function toItem(row: RowModel, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  const item = new vscode.TreeItem(row.label, state);
  item.description = row.description;
  item.tooltip = new vscode.MarkdownString(row.tooltip);
  item.iconPath = row.icon.color ? new vscode.ThemeIcon(row.icon.id, new vscode.ThemeColor(row.icon.color)) : new vscode.ThemeIcon(row.icon.id);
  item.contextValue = row.contextValue;
  return item;
}
