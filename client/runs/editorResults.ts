// Results in the editor, at each task: an end-of-line badge (status, duration, short output),
// and for agent/infer tasks an inline comment thread with the live transcript that keeps the
// final answer after the run. Both go away for a task once its text is edited.
import * as vscode from 'vscode';
import type { Analysis } from '../../core/analyze.js';
import { analysisOf, isNikaDocument, taskText } from '../analysisCache.js';
import { taskBadge, type Tone } from '../model/decorations.js';
import { renderInline } from '../model/transcript.js';
import { budgetText } from '../model/decorations.js';
import type { RunView, TaskRun } from '../model/runState.js';
import { readSettings } from '../settings.js';
import { debounce, throttle } from '../util.js';
import { RunningTicker } from './runningTicker.js';
import type { RunStore } from './store.js';

const TONE_COLOR: Record<Tone, string> = {
  running: 'charts.blue',
  success: 'testing.iconPassed',
  failure: 'testing.iconFailed',
  skipped: 'disabledForeground',
  cancelled: 'disabledForeground',
  waiting: 'disabledForeground',
};

export class EditorResults implements vscode.Disposable {
  private readonly types = new Map<Tone, vscode.TextEditorDecorationType>();
  private readonly comments: vscode.CommentController;
  /** Threads by `${fileUri}#${taskId}`. */
  private readonly threads = new Map<string, { thread: vscode.CommentThread; runKey: string; revision: number; status: string }>();
  private readonly subs: vscode.Disposable[] = [];
  private readonly render = throttle(() => this.renderAll(), 200);
  private readonly onEdit = debounce((doc: vscode.TextDocument) => this.checkEdits(doc), 300);
  private readonly ticker: RunningTicker;

  constructor(private readonly store: RunStore) {
    this.ticker = new RunningTicker(store, () => this.render());
    for (const tone of Object.keys(TONE_COLOR) as Tone[]) {
      this.types.set(tone, vscode.window.createTextEditorDecorationType({
        after: { color: new vscode.ThemeColor(TONE_COLOR[tone]), margin: '0 0 0 2.5em', fontStyle: tone === 'running' || tone === 'waiting' ? 'italic' : 'normal' },
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
      }));
    }
    this.comments = vscode.comments.createCommentController('nika.output', 'Nika task output');
    this.comments.options = { placeHolder: 'Output of the task (read-only)', prompt: 'Task output' };
    this.subs.push(
      store.onDidChange(() => {
        this.render();
        this.ticker.poke();
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.render()),
      vscode.workspace.onDidChangeTextDocument((e) => { if (isNikaDocument(e.document) && e.contentChanges.length) this.onEdit(e.document); }),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('nika.editor')) this.render(); }),
    );
  }


  /** Edits to a task's text hide its results: they no longer describe what is written. */
  private checkEdits(doc: vscode.TextDocument): void {
    const a = analysisOf(doc);
    const file = doc.uri.toString();
    for (const run of this.store.runs) {
      if (run.file !== file) continue;
      const x = this.store.extrasOf(run.key);
      if (!x) continue;
      for (const [taskId, before] of x.snapshots) {
        if (!x.dismissed.has(taskId) && taskText(a, taskId) !== before) x.dismissed.add(taskId);
      }
    }
    this.render();
  }

  private renderAll(): void {
    const settings = readSettings();
    const now = Date.now();
    const seen = new Set<string>();
    const docs = new Map<string, vscode.TextDocument>();
    for (const editor of vscode.window.visibleTextEditors) if (isNikaDocument(editor.document)) docs.set(editor.document.uri.toString(), editor.document);
    for (const editor of vscode.window.visibleTextEditors) {
      if (!isNikaDocument(editor.document)) continue;
      const a = analysisOf(editor.document);
      const byTone = new Map<Tone, vscode.DecorationOptions[]>();
      for (const t of a.workflow.tasks) {
        const hit = this.store.latestTask(editor.document.uri.toString(), t.id);
        if (!hit) continue;
        const badge = settings.runDecorations ? taskBadge(hit.run, hit.task, now) : undefined;
        if (!badge) continue;
        const line = a.doc.lines.positionAt(t.idSpan.start).line;
        const end = editor.document.lineAt(line).range.end;
        const list = byTone.get(badge.tone) ?? [];
        const hover = new vscode.MarkdownString(badge.hover);
        list.push({ range: new vscode.Range(end, end), hoverMessage: hover, renderOptions: { after: { contentText: badge.text } } });
        byTone.set(badge.tone, list);
      }
      for (const [tone, type] of this.types) editor.setDecorations(type, byTone.get(tone) ?? []);
    }
    // Inline threads: for every document with results (visible or not, threads live per URI).
    if (settings.inlineOutput !== 'off') {
      const files = new Set(this.store.runs.map((r) => r.file).filter((f): f is string => !!f));
      for (const file of files) {
        const doc = docs.get(file) ?? vscode.workspace.textDocuments.find((d) => d.uri.toString() === file);
        if (!doc) continue;
        const a = analysisOf(doc);
        for (const t of a.workflow.tasks) {
          const hit = this.store.latestTask(file, t.id);
          if (!hit || !wantsThread(hit.task, settings.inlineOutput)) continue;
          const key = `${file}#${t.id}`;
          seen.add(key);
          this.upsertThread(key, doc, a, hit.run, hit.task);
        }
      }
    }
    for (const [key, th] of this.threads) {
      if (!seen.has(key)) {
        th.thread.dispose();
        this.threads.delete(key);
      }
    }
  }

  private upsertThread(key: string, doc: vscode.TextDocument, a: Analysis, run: RunView, task: TaskRun): void {
    const t = a.workflow.tasks.find((x) => x.id === task.id)!;
    const line = a.doc.lines.positionAt(t.idSpan.start).line;
    const range = new vscode.Range(line, 0, line, 0);
    const existing = this.threads.get(key);
    if (existing && existing.runKey === run.key && existing.revision === task.revision && existing.status === task.status) {
      if (existing.thread.range?.start.line !== line) existing.thread.range = range;
      return;
    }
    const body = new vscode.MarkdownString(renderInline(run, task));
    body.isTrusted = { enabledCommands: ['nika.showTranscript'] };
    body.supportThemeIcons = true;
    const link = `\n\n[Open the full transcript](command:nika.showTranscript?${encodeURIComponent(JSON.stringify([{ kind: 'task', key: run.key, taskId: task.id }]))})`;
    body.appendMarkdown(link);
    const comment: vscode.Comment = {
      body,
      mode: vscode.CommentMode.Preview,
      author: { name: `${task.verb ?? 'task'} ${task.id}` },
      label: task.status === 'running' ? 'live' : task.status,
      contextValue: `nikaOutput:${run.key}:${task.id}`,
    };
    const label = `${task.verb ?? 'task'} ${task.id} · ${task.status}${task.verb === 'agent' ? ` · ${budgetText(task)}` : ''}`;
    if (existing && existing.runKey === run.key) {
      existing.thread.comments = [comment];
      existing.thread.label = label;
      if (existing.thread.range?.start.line !== line) existing.thread.range = range;
      existing.revision = task.revision;
      existing.status = task.status;
      return;
    }
    existing?.thread.dispose();
    const thread = this.comments.createCommentThread(doc.uri, range, [comment]);
    thread.canReply = false;
    thread.label = label;
    thread.contextValue = `nikaOutput:${run.key}:${task.id}`;
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    this.threads.set(key, { thread, runKey: run.key, revision: task.revision, status: task.status });
  }

  dispose(): void {
    this.ticker.dispose();
    this.render.dispose();
    this.onEdit.dispose();
    this.subs.forEach((s) => s.dispose());
    for (const th of this.threads.values()) th.thread.dispose();
    this.comments.dispose();
    for (const t of this.types.values()) t.dispose();
  }
}

function wantsThread(t: TaskRun, mode: 'agent+infer' | 'agent' | 'off'): boolean {
  if (mode === 'off') return false;
  if (t.verb === 'agent') return true;
  if (t.verb === 'infer' && mode === 'agent+infer') return t.streamed !== '' || t.hasOutput || t.status === 'running' || t.status === 'failure';
  return false;
}
