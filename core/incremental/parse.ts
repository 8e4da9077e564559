// Parsing slices at their document offsets and stitching them into one YAML AST that is the same
// (node for node, range for range) as parsing the whole text. Slices are cached by content; a
// cached slice that moved is shifted in place (see offsets.ts), so a document's AST belongs to one
// session and an older version's nodes are reused (and re-offset) by the next one.
import { Composer, Document, isMap, isScalar, Parser, YAMLMap } from 'yaml';
import type { Node, Pair } from 'yaml';
import type { Offsets } from './offsets.js';
import type { Slice, Split } from './split.js';

export const PARSE_OPTIONS = { uniqueKeys: false, strict: false, prettyErrors: false } as const;

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

/** Every offset the parsed slice itself holds (the `tasks:` header's own value, not the stitched map). */
export function addSliceOffsets(p: ParsedSlice, to: Offsets): void {
  to.addRange(p.doc.range);
  to.addRange((p.doc.contents as Node | null)?.range);
  to.addNode(p.pair.key);
  to.addNode(p.value);
}

export interface Stitched {
  yaml: Document.Parsed;
  root: YAMLMap<unknown, unknown>;
}

/**
 * One Document from parsed slices in order. `tasks` are the task slices under the `tasks:`
 * header at `split.tasksAt` (their pairs become that header's map).
 */
export function stitch(split: Pick<Split, 'tasksAt'>, top: ParsedSlice[], tasks: ParsedSlice[], textLength: number): Stitched {
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
