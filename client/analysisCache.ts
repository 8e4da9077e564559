// One analysis per document version, shared by lenses, decorations, transcripts and commands
// (the language server has its own; this one only serves the client's views).
import * as vscode from 'vscode';
import type { Analysis } from '../core/analyze.js';
import { loadAnalysis } from './lazy.js';

const cache = new Map<string, { version: number; analysis: Analysis }>();

export function analysisOf(doc: vscode.TextDocument): Analysis {
  const key = doc.uri.toString();
  const hit = cache.get(key);
  if (hit && hit.version === doc.version) return hit.analysis;
  const analysis = loadAnalysis().analyze(doc.getText(), { uri: key });
  cache.set(key, { version: doc.version, analysis });
  return analysis;
}

export function forgetAnalysis(doc: vscode.TextDocument): void {
  cache.delete(doc.uri.toString());
}

export function isNikaDocument(doc: vscode.TextDocument | undefined): doc is vscode.TextDocument {
  return !!doc && (doc.languageId === 'nika' || /\.nika\.ya?ml$/i.test(doc.uri.path));
}

/** The text of a task as written (key through body), to notice later edits to it. */
export function taskText(a: Analysis, taskId: string): string | undefined {
  const t = a.workflow.tasks.find((x) => x.id === taskId);
  if (!t) return undefined;
  return a.doc.text.slice(Math.min(t.idSpan.start, t.span.start), Math.max(t.span.end, t.idSpan.end));
}
