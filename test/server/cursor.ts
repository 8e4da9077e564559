// `|` marks the cursor in a test document: strip it and return where it was.
import { LineIndex, type Position } from '../../core/text.js';

export interface Cursor { text: string; offset: number; position: Position }

export function cursor(marked: string | string[], marker = '|'): Cursor {
  const src = Array.isArray(marked) ? marked.join('\n') : marked;
  const offset = src.indexOf(marker);
  if (offset < 0) throw new Error(`test document has no ${marker} cursor marker`);
  if (src.indexOf(marker, offset + 1) >= 0) throw new Error(`test document has more than one ${marker} marker (pass another marker)`);
  const text = src.slice(0, offset) + src.slice(offset + marker.length);
  return { text, offset, position: new LineIndex(text).positionAt(offset) };
}

/** Applies LSP text edits (non-overlapping) to a text. */
export function applyEdits(text: string, edits: Array<{ range: { start: Position; end: Position }; newText: string }>): string {
  const lines = new LineIndex(text);
  const sorted = edits
    .map((e) => ({ start: lines.offsetAt(e.range.start), end: lines.offsetAt(e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/** The text covered by an LSP range. */
export function textAt(text: string, range: { start: Position; end: Position }): string {
  const lines = new LineIndex(text);
  return text.slice(lines.offsetAt(range.start), lines.offsetAt(range.end));
}
