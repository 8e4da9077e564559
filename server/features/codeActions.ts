// Code actions: every fix a check attached to a diagnostic (did-you-mean, add required arguments,
// hoist tasks.* into with:, …) as a quick fix; converting a tasks list to a map; and migrating a
// v1-draft or legacy file to current v1 as one whole-file edit.
import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver';
import type { NikaDiagnostic } from '../../core/diagnostic.js';
import { getNode, spanOf } from '../../core/document.js';
import { convertTaskListToMap, migrateToCurrent } from '../../core/migrate.js';
import type { Span } from '../../core/text.js';
import { isSeq } from 'yaml';
import type { DocModel } from '../model.js';
import { toLspDiagnostic } from './diagnostics.js';

export const MIGRATE_SOURCE_KIND = `${CodeActionKind.Source}.nika.migrate`;
export const MIGRATE_REFACTOR_KIND = `${CodeActionKind.RefactorRewrite}.nika.migrate`;
export const CONVERT_KIND = `${CodeActionKind.RefactorRewrite}.nika.tasksMap`;
export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite, MIGRATE_REFACTOR_KIND, CONVERT_KIND, MIGRATE_SOURCE_KIND];

const MIGRATE_TITLE = 'Migrate this file to current v1';
const CONVERT_TITLE = 'Convert the tasks list to a map keyed by id';

export function codeActions(model: DocModel, uri: string, range: Range, contextDiagnostics: Diagnostic[] = [], only?: string[]): CodeAction[] {
  const { doc, dialect } = model.analysis;
  if (doc.tooLarge) return [];
  const lines = doc.lines;
  const want = (kind: string) => !only?.length || only.some((o) => kind === o || kind.startsWith(`${o}.`));
  const reqStart = lines.offsetAt(range.start);
  const reqEnd = lines.offsetAt(range.end);
  const overlaps = (s: Span) => s.start <= reqEnd && reqStart <= s.end;
  const editOf = (edits: Array<{ span: Span; newText: string }>) => ({ changes: { [uri]: edits.map((e): TextEdit => ({ range: lines.rangeOf(e.span), newText: e.newText })) } });
  // Prefer the client's copy of a diagnostic (same identity in its UI); our analysis is the truth.
  const lspFor = (d: NikaDiagnostic): Diagnostic => {
    const r = lines.rangeOf(d.span);
    return contextDiagnostics.find((c) => c.code === d.code && sameRange(c.range, r)) ?? toLspDiagnostic(lines, d);
  };

  const out: CodeAction[] = [];
  let migrateOffered = false;
  let convertOffered = false;
  const migrate = () => (dialect === 'v1' ? undefined : migrateToCurrent(model.text, { fileName: fileName(uri) }));
  const wholeFile = (newText: string) => editOf([{ span: { start: 0, end: model.text.length }, newText }]);

  for (const d of model.analysis.diagnostics) {
    if (!overlaps(d.span)) continue;
    for (const fix of d.data?.fixes ?? []) {
      if (!want(CodeActionKind.QuickFix) || !fix.edits?.length) continue;
      out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [lspFor(d)], isPreferred: !!fix.preferred, edit: editOf(fix.edits) });
    }
    if (d.data?.migrate && !migrateOffered && want(CodeActionKind.QuickFix)) {
      const m = migrate();
      if (m) {
        migrateOffered = true;
        out.push({ title: MIGRATE_TITLE, kind: CodeActionKind.QuickFix, diagnostics: [lspFor(d)], edit: wholeFile(m.text) });
      }
    }
    if (d.data?.convert === 'tasks-list-to-map' && !convertOffered && want(CodeActionKind.QuickFix)) {
      const c = convertTaskListToMap(model.text);
      if (c) {
        convertOffered = true;
        out.push({ title: CONVERT_TITLE, kind: CodeActionKind.QuickFix, diagnostics: [lspFor(d)], isPreferred: true, edit: editOf([c]) });
      }
    }
  }

  // Refactorings offered anywhere they apply.
  if (dialect !== 'v1' && (want(MIGRATE_SOURCE_KIND) || want(MIGRATE_REFACTOR_KIND))) {
    const m = migrate();
    if (m) {
      if (!migrateOffered && want(MIGRATE_REFACTOR_KIND)) out.push({ title: MIGRATE_TITLE, kind: MIGRATE_REFACTOR_KIND, edit: wholeFile(m.text) });
      if (want(MIGRATE_SOURCE_KIND) && only?.length) out.push({ title: MIGRATE_TITLE, kind: MIGRATE_SOURCE_KIND, edit: wholeFile(m.text) });
    }
  }
  const tasksNode = doc.root ? getNode(doc.root, 'tasks') : undefined;
  const tasksSpan = spanOf(tasksNode);
  if (!convertOffered && isSeq(tasksNode) && tasksSpan && overlaps(tasksSpan) && want(CONVERT_KIND)) {
    const c = convertTaskListToMap(model.text);
    if (c) out.push({ title: CONVERT_TITLE, kind: CONVERT_KIND, edit: editOf([c]) });
  }
  return out;
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

function fileName(uri: string): string | undefined {
  try {
    const path = decodeURIComponent(new URL(uri).pathname);
    return path.split('/').pop() || undefined;
  } catch {
    return uri.split('/').pop() || undefined;
  }
}
