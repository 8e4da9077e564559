// Definition, references, highlights and rename over the occurrence index. Task ids can be
// renamed; every home is edited on exactly the id's characters.
import {
  DocumentHighlightKind,
  type DocumentHighlight, type Location, type Position, type Range, type WorkspaceEdit, type TextEdit,
} from 'vscode-languageserver';
import type { DocModel } from '../model.js';
import { occurrenceAt, sameSymbol, type Occurrence } from './occurrences.js';

export const TASK_ID = /^[a-z][a-z0-9_]*$/;

function range(model: DocModel, span: { start: number; end: number }): Range {
  return model.analysis.doc.lines.rangeOf(span);
}

function symbolAt(model: DocModel, position: Position): Occurrence | undefined {
  const offset = model.analysis.doc.lines.offsetAt(position);
  return occurrenceAt(model.occurrences, offset);
}

function declarationOf(model: DocModel, o: Occurrence): Occurrence | undefined {
  return model.occurrences.find((x) => x.home === 'declaration' && sameSymbol(x, o));
}

export function definition(model: DocModel, uri: string, position: Position): Location[] {
  const o = symbolAt(model, position);
  if (!o) return [];
  const decl = declarationOf(model, o);
  return decl ? [{ uri, range: range(model, decl.span) }] : [];
}

export function references(model: DocModel, uri: string, position: Position, includeDeclaration: boolean): Location[] {
  const o = symbolAt(model, position);
  if (!o) return [];
  return model.occurrences
    .filter((x) => sameSymbol(x, o) && (includeDeclaration || x.home !== 'declaration'))
    .map((x) => ({ uri, range: range(model, x.span) }));
}

export function documentHighlights(model: DocModel, position: Position): DocumentHighlight[] {
  const o = symbolAt(model, position);
  if (!o) return [];
  return model.occurrences
    .filter((x) => sameSymbol(x, o))
    .map((x) => ({ range: range(model, x.span), kind: x.home === 'declaration' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read }));
}

export type RenameCheck = { ok: true; range: Range; placeholder: string } | { ok: false; message: string };

export function prepareRename(model: DocModel, position: Position): RenameCheck {
  const o = symbolAt(model, position);
  if (!o || o.kind !== 'task') return { ok: false, message: 'Only task ids can be renamed: place the cursor on a task id (its key, an after: key or tasks.<id> in an expression).' };
  if (!declarationOf(model, o)) return { ok: false, message: `There is no task '${o.name}' to rename.` };
  return { ok: true, range: range(model, o.span), placeholder: o.name };
}

export type RenameResult = { ok: true; edit: WorkspaceEdit } | { ok: false; message: string };

export function rename(model: DocModel, uri: string, position: Position, newName: string): RenameResult {
  const check = prepareRename(model, position);
  if (!check.ok) return check;
  const oldName = check.placeholder;
  if (!TASK_ID.test(newName)) return { ok: false, message: `'${newName}' is not a valid task id: use lowercase letters, digits and _ and start with a letter (^[a-z][a-z0-9_]*$).` };
  if (newName === oldName) return { ok: true, edit: { changes: { [uri]: [] } } };
  if (model.analysis.workflow.tasks.some((t) => t.id === newName)) return { ok: false, message: `A task named '${newName}' already exists.` };
  const edits: TextEdit[] = model.occurrences
    .filter((x) => x.kind === 'task' && x.name === oldName)
    .map((x) => ({ range: range(model, x.span), newText: newName }));
  return { ok: true, edit: { changes: { [uri]: edits } } };
}

