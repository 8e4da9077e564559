// Text edits for quick fixes that add entries to a YAML mapping while keeping the author's layout:
// block maps get new lines at the right indentation (CRLF kept), flow maps get `, k: v`.
import { isMap } from 'yaml';
import type { YAMLMap } from 'yaml';
import { getPair, pairSpan, spanOf, type NikaDocument } from '../../document.js';
import type { Span } from '../../text.js';

export interface TextEdit { span: Span; newText: string }

export function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Offset just past the last non-blank character before `end`. */
function contentEnd(text: string, end: number): number {
  let i = end;
  while (i > 0 && /\s/.test(text[i - 1])) i--;
  return i;
}

function column(doc: NikaDocument, offset: number): { lineStart: number; col: number } {
  const pos = doc.lines.positionAt(offset);
  return { lineStart: doc.lines.lineStarts[pos.line], col: pos.character };
}

/** Appends `entries` (key, YAML value text) to an existing mapping. */
export function appendToMap(doc: NikaDocument, map: YAMLMap<unknown, unknown>, entries: Array<[string, string]>): TextEdit | undefined {
  const text = doc.text;
  const span = spanOf(map);
  if (!span || entries.length === 0) return undefined;
  if (map.flow) {
    const last = map.items[map.items.length - 1];
    if (last) {
      const at = pairSpan(last)!.end;
      return { span: { start: at, end: at }, newText: entries.map(([k, v]) => `, ${k}: ${v}`).join('') };
    }
    const open = text.indexOf('{', span.start);
    if (open < 0 || open >= span.end) return undefined;
    return { span: { start: open + 1, end: open + 1 }, newText: ` ${entries.map(([k, v]) => `${k}: ${v}`).join(', ')} ` };
  }
  const first = map.items[0];
  const last = map.items[map.items.length - 1];
  const firstKey = first && spanOf(first.key);
  if (!firstKey || !last) return undefined;
  const indent = ' '.repeat(column(doc, firstKey.start).col);
  const end = contentEnd(text, pairSpan(last)!.end);
  const at = doc.lines.lineEnd(doc.lines.positionAt(Math.max(0, end - 1)).line);
  const eol = eolOf(text);
  return { span: { start: at, end: at }, newText: entries.map(([k, v]) => `${eol}${indent}${k}: ${v}`).join('') };
}

/**
 * Puts `entries` under `key` of `parent`: appended to the existing mapping, or a new `key:` block
 * created first or last in `parent`. Undefined when the layout is not one we can edit safely.
 */
export function addEntries(doc: NikaDocument, parent: unknown, key: string, entries: Array<[string, string]>, where: 'first' | 'last' = 'last'): TextEdit | undefined {
  if (!isMap(parent)) return undefined;
  const existing = getPair(parent, key);
  if (existing) return isMap(existing.value) ? appendToMap(doc, existing.value as YAMLMap<unknown, unknown>, entries) : undefined;
  const text = doc.text;
  const flowValue = `{ ${entries.map(([k, v]) => `${k}: ${v}`).join(', ')} }`;
  const span = spanOf(parent);
  if (!span) return undefined;
  if (parent.flow) {
    const last = parent.items[parent.items.length - 1];
    if (where === 'last' && last) {
      const at = pairSpan(last)!.end;
      return { span: { start: at, end: at }, newText: `, ${key}: ${flowValue}` };
    }
    const open = text.indexOf('{', span.start);
    if (open < 0) return undefined;
    return { span: { start: open + 1, end: open + 1 }, newText: ` ${key}: ${flowValue}${parent.items.length ? ',' : ' '}` };
  }
  const first = parent.items[0];
  const firstKey = first && spanOf(first.key);
  if (!firstKey) return undefined;
  const eol = eolOf(text);
  const { lineStart, col } = column(doc, firstKey.start);
  const indent = ' '.repeat(col);
  const block = (lead: string, trail: string) =>
    `${lead}${indent}${key}:${entries.map(([k, v]) => `${eol}${indent}  ${k}: ${v}`).join('')}${trail}`;
  // A key that opens its own line can be preceded by the new block; after `- ` it cannot.
  if (where === 'first' && text.slice(lineStart, firstKey.start).trim() === '') {
    return { span: { start: lineStart, end: lineStart }, newText: block('', eol) };
  }
  const last = parent.items[parent.items.length - 1];
  const end = contentEnd(text, pairSpan(last)!.end);
  const at = doc.lines.lineEnd(doc.lines.positionAt(Math.max(0, end - 1)).line);
  return { span: { start: at, end: at }, newText: block(eol, '') };
}

/** Applies non-overlapping edits (tests and the CLI's --fix use this). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.span.start - a.span.start || b.span.end - a.span.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}
