// Parsing slices at their document offsets and stitching them into one YAML AST that is the same
// (node for node, range for range) as parsing the whole text. Slices are cached by content; a
// cached slice that moved is shifted in place, so a document's AST belongs to one session and an
// older version's nodes are reused (and re-offset) by the next one.
import { Composer, Document, isAlias, isCollection, isMap, isPair, isScalar, Parser, YAMLMap } from 'yaml';
import type { Node, Pair } from 'yaml';
import type { Slice, Split } from './split.js';

export const PARSE_OPTIONS = { keepSourceTokens: true, uniqueKeys: false, strict: false, prettyErrors: false } as const;

export interface ParsedSlice {
  text: string;
  /** Offset the nodes currently carry. */
  base: number;
  doc: Document.Parsed;
  pair: Pair<unknown, unknown>;
  /** The pair's own value as parsed (the `tasks:` header's is replaced by the stitched map). */
  value: unknown;
}

/** Parses one slice as if it sat at `slice.start`; undefined when it is not one clean `key: value`. */
export function parseSlice(slice: Slice): ParsedSlice | undefined {
  const parser = new Parser();
  parser.offset = slice.start;
  const composer = new Composer(PARSE_OPTIONS);
  let doc: Document.Parsed | undefined;
  let count = 0;
  for (const d of composer.compose(parser.parse(slice.text), true, slice.end)) {
    count++;
    doc ??= d as Document.Parsed;
  }
  if (!doc || count !== 1 || doc.errors.length || doc.warnings.length) return undefined;
  const map = doc.contents;
  if (!isMap(map) || map.flow || map.items.length !== 1 || map.anchor || map.tag) return undefined;
  const pair = map.items[0] as Pair<unknown, unknown>;
  if (!isScalar(pair.key)) return undefined;
  return { text: slice.text, base: slice.start, doc, pair, value: pair.value };
}

/** Moves every offset a parsed slice holds (AST ranges and CST tokens) by `delta`. */
export function shiftSlice(p: ParsedSlice, to: number): void {
  const delta = to - p.base;
  if (delta === 0) return;
  p.base = to;
  // The `tasks:` header carries the last stitched task map; those tasks move on their own.
  const stitched = p.pair.value;
  p.pair.value = p.value;
  shiftRange(p.doc.range, delta);
  shiftNode(p.doc.contents, delta);
  p.pair.value = stitched;
  const cst = (p.doc.contents as { srcToken?: unknown } | null)?.srcToken;
  if (cst) shiftCst(cst, delta);
}

function shiftRange(r: number[] | undefined | null, delta: number): void {
  if (!r) return;
  for (let i = 0; i < r.length; i++) r[i] += delta;
}

function shiftNode(node: unknown, delta: number): void {
  if (node == null) return;
  if (isPair(node)) {
    shiftNode(node.key, delta);
    shiftNode(node.value, delta);
    return;
  }
  if (isScalar(node) || isAlias(node)) {
    shiftRange((node as Node).range, delta);
    return;
  }
  if (isCollection(node)) {
    shiftRange((node as Node).range, delta);
    for (const it of node.items) shiftNode(it, delta);
  }
}

/** CST tokens are plain objects; every numeric `offset` in them is a document offset. */
function shiftCst(token: unknown, delta: number): void {
  if (Array.isArray(token)) {
    for (const t of token) shiftCst(t, delta);
    return;
  }
  if (!token || typeof token !== 'object') return;
  const t = token as Record<string, unknown>;
  if (typeof t.offset === 'number') t.offset += delta;
  for (const k of ['start', 'key', 'sep', 'value', 'items', 'end', 'props']) {
    const v = t[k];
    if (v && typeof v === 'object') shiftCst(v, delta);
  }
}

export interface Stitched {
  yaml: Document.Parsed;
  root: YAMLMap<unknown, unknown>;
}

/**
 * One Document from parsed slices in order. `tasks` are the task slices under the `tasks:`
 * header at `split.tasksAt` (their pairs become that header's map).
 */
export function stitch(split: Split, top: ParsedSlice[], tasks: ParsedSlice[], textLength: number): Stitched {
  const root = new YAMLMap<unknown, unknown>();
  for (let i = 0; i < top.length; i++) {
    const p = top[i];
    if (i === split.tasksAt) {
      if (tasks.length) {
        const m = new YAMLMap<unknown, unknown>();
        m.items = tasks.map((t) => t.pair);
        const first = (tasks[0].doc.contents as Node).range!;
        const last = (tasks[tasks.length - 1].doc.contents as Node).range!;
        m.range = [first[0], last[1], last[2]];
        p.pair.value = m;
      } else {
        p.pair.value = p.value;
      }
    }
    root.items.push(p.pair);
  }
  const first = (top[0].doc.contents as Node).range!;
  const lastSlice = split.tasksAt === top.length - 1 && tasks.length ? tasks[tasks.length - 1] : top[top.length - 1];
  const last = (lastSlice.doc.contents as Node).range!;
  root.range = [first[0], last[1], last[2]];
  const doc = new Document(undefined, PARSE_OPTIONS) as unknown as Document.Parsed;
  doc.contents = root as never;
  doc.range = [top[0].doc.range[0], last[2], textLength];
  const head = top[0].doc;
  if (head.commentBefore) doc.commentBefore = head.commentBefore;
  const tail = lastSlice.doc;
  if (tail.comment) doc.comment = tail.comment;
  return { yaml: doc, root };
}
