// Quick-fix edits on the `permits:` block: add one grant to a category, creating the category
// (and the `fs:`/`net:` level above it) when it is missing, in the author's own layout.
import { isMap, isScalar, isSeq } from 'yaml';
import type { YAMLMap, YAMLSeq } from 'yaml';
import { getNode, getPair, spanOf, type NikaDocument } from '../../document.js';
import type { DiagnosticData } from '../../diagnostic.js';
import type { Span } from '../../text.js';
import { appendToMap, eolOf, type TextEdit } from '../semantic/edits.js';

export type GrantCategory = 'exec' | 'tools' | 'env' | 'fs.read' | 'fs.write' | 'net.http';

/** Appends one item (YAML text) to a sequence, flow or block. */
export function appendToSeq(doc: NikaDocument, seq: YAMLSeq<unknown>, item: string): TextEdit | undefined {
  const text = doc.text;
  const span = spanOf(seq);
  if (!span) return undefined;
  const last = seq.items[seq.items.length - 1];
  if (seq.flow) {
    const lastSpan = spanOf(last);
    if (lastSpan) return { span: { start: lastSpan.end, end: lastSpan.end }, newText: `, ${item}` };
    const open = text.indexOf('[', span.start);
    if (open < 0 || open >= span.end) return undefined;
    return { span: { start: open + 1, end: open + 1 }, newText: item };
  }
  const firstSpan = spanOf(seq.items[0]);
  const lastSpan = spanOf(last);
  if (!firstSpan || !lastSpan) return undefined;
  const pos = doc.lines.positionAt(firstSpan.start);
  const lineStart = doc.lines.lineStarts[pos.line];
  const dash = text.lastIndexOf('-', firstSpan.start - 1);
  if (dash < lineStart) return undefined;
  const indent = ' '.repeat(dash - lineStart);
  let end = lastSpan.end;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  const at = doc.lines.lineEnd(doc.lines.positionAt(Math.max(0, end - 1)).line);
  return { span: { start: at, end: at }, newText: `${eolOf(text)}${indent}- ${item}` };
}

/** The edit that grants `item` (already YAML text, e.g. a JSON-quoted string) in `category`. */
export function grantEdit(doc: NikaDocument, category: GrantCategory, item: string): TextEdit | undefined {
  const permits = getNode(doc.root, 'permits');
  if (!isMap(permits)) return undefined;
  const [head, tail] = category.split('.') as [string, string | undefined];
  if (!tail) {
    const pair = getPair(permits, head);
    if (!pair) return appendToMap(doc, permits as YAMLMap<unknown, unknown>, [[head, `[${item}]`]]);
    if (isSeq(pair.value)) return appendToSeq(doc, pair.value as YAMLSeq<unknown>, item);
    if (head === 'exec' && isScalar(pair.value) && pair.value.value === false) {
      const s = spanOf(pair.value);
      return s ? { span: s, newText: `[${item}]` } : undefined;
    }
    return undefined;
  }
  const group = getPair(permits, head);
  if (!group) return appendToMap(doc, permits as YAMLMap<unknown, unknown>, [[head, `{ ${tail}: [${item}] }`]]);
  if (!isMap(group.value)) return undefined;
  const inner = getPair(group.value, tail);
  if (!inner) return appendToMap(doc, group.value as YAMLMap<unknown, unknown>, [[tail, `[${item}]`]]);
  return isSeq(inner.value) ? appendToSeq(doc, inner.value as YAMLSeq<unknown>, item) : undefined;
}

/** `exec: true` in place of `exec: false`/an allowlist, or added when missing. */
export function execTrueEdit(doc: NikaDocument): TextEdit | undefined {
  const permits = getNode(doc.root, 'permits');
  if (!isMap(permits)) return undefined;
  const pair = getPair(permits, 'exec');
  if (!pair) return appendToMap(doc, permits as YAMLMap<unknown, unknown>, [['exec', 'true']]);
  const s = spanOf(pair.value);
  return s ? { span: s, newText: 'true' } : undefined;
}

export function fixData(title: string, edit: TextEdit | undefined, preferred = true): DiagnosticData | undefined {
  return edit ? { fixes: [{ title, edits: [edit], preferred }] } : undefined;
}

export type { Span, TextEdit };
