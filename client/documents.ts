// Read-only virtual documents on the `nika-run:` scheme: a task's full output and transcript,
// a run's summary, an MCP tool result. They re-render while the run goes on.
import * as vscode from 'vscode';
import { renderRunDocument, renderTaskDocument } from './model/transcript.js';
import type { RunStore } from './runs/store.js';
import { throttle } from './util.js';

export const RUN_SCHEME = 'nika-run';

export class RunDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly blobs = new Map<string, string>();
  private readonly dirty = new Set<string>();
  private readonly flush = throttle(() => {
    const open = new Set(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === RUN_SCHEME).map((d) => d.uri.toString()));
    for (const key of this.dirty) {
      for (const u of open) if (vscode.Uri.parse(u).path.startsWith(`/${key}/`)) this.emitter.fire(vscode.Uri.parse(u));
    }
    this.dirty.clear();
  }, 300);
  private readonly sub: vscode.Disposable;
  private seq = 0;

  constructor(private readonly store: RunStore) {
    this.sub = store.onDidChange(({ run }) => {
      if (!run) return;
      this.dirty.add(run.key);
      this.flush();
    });
  }

  static taskUri(runKey: string, taskId: string): vscode.Uri {
    return vscode.Uri.from({ scheme: RUN_SCHEME, path: `/${runKey}/${taskId}.md` });
  }

  static runUri(runKey: string, workflow: string): vscode.Uri {
    return vscode.Uri.from({ scheme: RUN_SCHEME, path: `/${runKey}/${workflow}.run.md` });
  }

  /** Stores a fixed text (an MCP result) and returns its address. */
  put(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RUN_SCHEME, path: `/mcp/${++this.seq}/${name}` });
    this.blobs.set(uri.path, text);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const blob = this.blobs.get(uri.path);
    if (blob !== undefined) return blob;
    const [, key, file] = uri.path.split('/');
    const run = this.store.get(key);
    if (!run) return `This run is no longer kept (only the newest runs are; see the nika.runs.keep setting).\n`;
    if (file.endsWith('.run.md')) return renderRunDocument(run);
    const taskId = file.replace(/\.md$/, '');
    const task = run.tasks.get(taskId);
    return task ? renderTaskDocument(run, task) : `No task "${taskId}" in this run.\n`;
  }

  dispose(): void {
    this.flush.dispose();
    this.sub.dispose();
    this.emitter.dispose();
  }
}

export async function openReadOnly(uri: vscode.Uri, language?: string): Promise<void> {
  let doc = await vscode.workspace.openTextDocument(uri);
  if (language && doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside, preserveFocus: false });
}
