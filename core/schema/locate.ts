// From a path in the validated value back to the YAML text: the node, the pair holding it and
// the smallest span worth underlining. `plain()` keeps the first of duplicate keys, and so
// does getPair(), so both walks agree.
import { isMap, isSeq } from 'yaml';
import type { Pair } from 'yaml';
import { getPair, keySpan, spanOf, type NikaDocument } from '../document.js';
import type { Span } from '../text.js';
import type { ValuePath } from './explain.js';

export interface Located {
  node: unknown;
  /** The pair whose value is `node` (absent for the root and for list items). */
  pair?: Pair<unknown, unknown>;
  /** The deepest path prefix that exists in the document. */
  depth: number;
}

export function locatePath(doc: NikaDocument, path: ValuePath): Located {
  let node: unknown = doc.yaml?.contents;
  let pair: Pair<unknown, unknown> | undefined;
  let depth = 0;
  for (const seg of path) {
    if (typeof seg === 'number' && isSeq(node)) {
      const next = node.items[seg];
      if (next === undefined) break;
      node = next; pair = undefined;
    } else if (isMap(node)) {
      const p = getPair(node, String(seg));
      if (!p) break;
      pair = p; node = p.value;
    } else {
      break;
    }
    depth++;
  }
  return { node, pair, depth };
}

function nonEmpty(s: Span | undefined): Span | undefined {
  return s && s.end > s.start ? s : undefined;
}

/** The first line of the document's content, for findings about the whole file. */
function firstLine(doc: NikaDocument): Span {
  const text = doc.text;
  let i = 0;
  while (i < text.length) {
    const end = doc.lines.lineEnd(doc.lines.positionAt(i).line);
    const line = text.slice(i, end);
    if (line.trim() !== '' && !line.trimStart().startsWith('#') && line.trim() !== '---') {
      const lead = line.length - line.trimStart().length;
      return { start: i + lead, end };
    }
    if (end >= text.length) break;
    i = end + (text.startsWith('\r\n', end) ? 2 : 1);
  }
  return { start: 0, end: Math.min(text.length, doc.lines.lineEnd(0)) };
}

/**
 * Span for "this object is missing something": the key that holds the object; for a list
 * item, its first key; for the root, its first key (never the whole document).
 */
export function ownerSpan(doc: NikaDocument, path: ValuePath): Span {
  const loc = locatePath(doc, path);
  if (loc.depth === path.length) {
    if (loc.pair) return nonEmpty(keySpan(loc.pair)) ?? nonEmpty(spanOf(loc.node)) ?? firstLine(doc);
    if (isMap(loc.node) && loc.node.items.length > 0) {
      const k = nonEmpty(keySpan(loc.node.items[0] as Pair<unknown, unknown>));
      if (k) return k;
    }
    const own = nonEmpty(spanOf(loc.node));
    if (own && path.length > 0) return firstLineOf(doc, own);
  }
  return firstLine(doc);
}

function firstLineOf(doc: NikaDocument, s: Span): Span {
  const end = Math.min(s.end, doc.lines.lineEnd(doc.lines.positionAt(s.start).line));
  return { start: s.start, end: Math.max(end, s.start + 1) };
}

/** Span of the key `key` inside the mapping at `path` (falls back to the owner). */
export function keySpanAt(doc: NikaDocument, path: ValuePath, key: string): Span {
  const loc = locatePath(doc, path);
  if (loc.depth === path.length && isMap(loc.node)) {
    const p = getPair(loc.node, key);
    const s = p && nonEmpty(keySpan(p));
    if (s) return s;
  }
  return ownerSpan(doc, path);
}

/** Span of the value at `path`; an empty value (`key:` with nothing) is reported on its key. */
export function valueSpan(doc: NikaDocument, path: ValuePath): Span {
  const loc = locatePath(doc, path);
  if (loc.depth === path.length) {
    const v = nonEmpty(spanOf(loc.node));
    // A wrong collection is named by its key: underlining a whole block helps nobody.
    if (v && (isMap(loc.node) || isSeq(loc.node))) {
      const oneLine = doc.lines.positionAt(v.start).line === doc.lines.positionAt(v.end).line;
      if (oneLine) return v;
      return (loc.pair && nonEmpty(keySpan(loc.pair))) ?? firstLineOf(doc, v);
    }
    if (v) return v;
    if (loc.pair) return nonEmpty(keySpan(loc.pair)) ?? ownerSpan(doc, path.slice(0, -1));
  }
  return ownerSpan(doc, path.slice(0, loc.depth));
}
