// Every run of this window, newest first, and who is listening. Views subscribe to `onDidChange`
// and throttle on their side; the store only says which run (and task) moved.
import * as vscode from 'vscode';
import type { TaskSummary } from '../../engine/events.js';
import type { RunView, TaskRun } from '../model/runState.js';
import { TERMINAL } from '../model/runState.js';

/** `run` is absent when the list itself changed (runs cleared). */
export interface RunChange { run?: RunView; taskId?: string }

export interface RunExtras {
  channel?: vscode.OutputChannel;
  cancel?: (reason?: string) => void;
  /** How to start the same run again. */
  rerun?: () => void;
  /** Task text when the run started, to drop results once the user edits that task. */
  snapshots: Map<string, string>;
  /** Tasks whose results are hidden in the editor because their text changed. */
  dismissed: Set<string>;
}

export class RunStore implements vscode.Disposable {
  private readonly list: RunView[] = [];
  private readonly extras = new Map<string, RunExtras>();
  private readonly emitter = new vscode.EventEmitter<RunChange>();
  readonly onDidChange = this.emitter.event;

  constructor(private keep: () => number) {}

  get runs(): readonly RunView[] { return this.list; }

  add(run: RunView, extras: Partial<RunExtras> = {}): RunExtras {
    const x: RunExtras = { snapshots: new Map(), dismissed: new Set(), ...extras };
    this.list.unshift(run);
    this.extras.set(run.key, x);
    this.prune();
    this.emitter.fire({ run });
    return x;
  }

  get(key: string): RunView | undefined {
    return this.list.find((r) => r.key === key);
  }

  extrasOf(key: string): RunExtras | undefined {
    return this.extras.get(key);
  }

  changed(run: RunView, taskId?: string): void {
    this.emitter.fire({ run, taskId });
  }

  running(): RunView[] {
    return this.list.filter((r) => r.status === 'running');
  }

  /**
   * The result to show for a task of a file: from the newest run of that file in which the task
   * did something (a later single-task run does not hide the other tasks' results).
   */
  latestTask(file: string, taskId: string): { run: RunView; task: TaskRun } | undefined {
    for (const run of this.list) {
      if (run.file !== file) continue;
      const task = run.tasks.get(taskId);
      if (!task) continue;
      if (this.extras.get(run.key)?.dismissed.has(taskId)) return undefined;
      const touched = task.status !== 'pending' || (run.status === 'running' && (run.mode === 'workflow' || run.mode === 'mock'));
      if (touched) return { run, task };
    }
    return undefined;
  }

  /** Settled task records of the newest runs of a file, for `only` runs that reuse upstream results. */
  reuseRecords(file: string): Record<string, TaskSummary> {
    const out: Record<string, TaskSummary> = {};
    for (const run of [...this.list].reverse()) {
      if (run.file !== file || run.mode === 'mock') continue;
      const dismissed = this.extras.get(run.key)?.dismissed;
      for (const t of run.tasks.values()) {
        // A result whose task was edited since describes other code: let the engine run it again.
        if (!TERMINAL.has(t.status) || dismissed?.has(t.id)) continue;
        out[t.id] = { status: t.status as TaskSummary['status'], output: t.hasOutput ? t.output : null, error: t.error ?? null, attempts: t.attempt, duration_ms: t.durationMs ?? 0 };
      }
    }
    return out;
  }

  /** Forgets finished runs (their output channels close too). */
  clearFinished(): void {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const run = this.list[i];
      if (run.status === 'running') continue;
      this.list.splice(i, 1);
      this.extras.get(run.key)?.channel?.dispose();
      this.extras.delete(run.key);
    }
    this.emitter.fire({});
  }

  private prune(): void {
    const max = this.keep();
    while (this.list.length > max) {
      const i = this.list.map((r) => r.status !== 'running').lastIndexOf(true);
      if (i < 0) break;
      const [gone] = this.list.splice(i, 1);
      this.extras.get(gone.key)?.channel?.dispose();
      this.extras.delete(gone.key);
    }
  }

  dispose(): void {
    for (const x of this.extras.values()) {
      x.cancel?.('the editor window is closing');
      x.channel?.dispose();
    }
    this.emitter.dispose();
  }
}
