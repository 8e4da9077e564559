// Parsing slices at their document offsets and stitching them into one YAML AST that is the same
// (node for node, range for range) as parsing the whole text. Slices are cached by content; a
// cached slice that moved is shifted in place (see offsets.ts), so a document's AST belongs to one
// session and an older version's nodes are reused (and re-offset) by the next one.
import { Composer, Document, isMap, isScalar, Parser, YAMLMap } from 'yaml';
import type { Node, Pair } from 'yaml';
import type { Offsets } from './offsets.js';
import type { Slice, Split } from './split.js';

export const PARSE_OPTIONS = { uniqueKeys: false, strict: false, prettyErrors: false } as const;

/** A YAML error inside a slice, at offsets relative to the slice's start (they move with it). */
export interface SliceError {
  message: string;
  from: number;
  to: number;
}

export interface ParsedSlice {
  text: string;
  /** Offset the nodes currently carry. */
  base: number;
  doc: Document.Parsed;
  pair: Pair<unknown, unknown>;
  /** The pair's own value as parsed (the `tasks:` header's is replaced by the stitched map). */
  value: unknown;
  /** A task slice read in place despite YAML errors (parseTaskInPlace): the errors. */
  errors?: SliceError[];
}

/**
 * The one document `text` holds, parsed as if it began at `offset` (undefined when it holds
 * none or several: a slice never starts a second document).
 */
function composeAt(text: string, offset: number, end: number): Document.Parsed | undefined {
  const parser = new Parser();
  parser.offset = offset;
  const composer = new Composer(PARSE_OPTIONS);
  let doc: Document.Parsed | undefined;
  let count = 0;
  for (const d of composer.compose(parser.parse(text), true, end)) {
    count++;
    doc ??= d as Document.Parsed;
  }
  return count === 1 ? doc : undefined;
}

/** Parses one slice as if it sat at `slice.start`; undefined when it is not one clean `key: value`. */
export function parseSlice(slice: Slice): ParsedSlice | undefined {
  const doc = composeAt(slice.text, slice.start, slice.end);
  if (!doc || doc.errors.length || doc.warnings.length) return undefined;
  const map = doc.contents;
  if (!isMap(map) || map.flow || map.items.length !== 1 || map.anchor || map.tag) return undefined;
  const pair = map.items[0] as Pair<unknown, unknown>;
  if (!isScalar(pair.key)) return undefined;
  return { text: slice.text, base: slice.start, doc, pair, value: pair.value };
}

/** What follows a task slice: the next task, or the next top-level pair (`isTask` false). */
export interface NextPair {
  isTask: boolean;
  /** Its slice's text and start (right where the task slice ends). */
  text: string;
  start: number;
  /** Where its key starts and its value's range (start, end) when it has a value, as read alone. */
  keyStart: number;
  value?: readonly [number, number];
}

const HEADER = 'tasks:\n';

/**
 * A task slice with a YAML error (an unclosed quote or bracket while typing, say), read where it
 * sits: under a `tasks:` key at column 0 and followed by the pair after it, parsed together at
 * their document offsets. Alone, the slice would read differently (the parser's recovery depends
 * on the indentation around it). The `yaml` parser ends quoted scalars and flow collections at a
 * less indented line, so the error usually stays inside the slice; when it does not (a single
 * quote swallowing the tasks below, say), the pair after it is not found where it is, and this
 * returns undefined. Found there, with its value spanning what it spans alone, the text from its
 * key on reads as it did alone, so the rest of the document is untouched by the error.
 */
export function parseTaskInPlace(slice: Slice, next: NextPair | undefined): ParsedSlice | undefined {
  if (next && next.start !== slice.end) return undefined;
  const doc = composeAt(HEADER + slice.text + (next ? next.text : ''), slice.start - HEADER.length, slice.end + (next ? next.text.length : 0));
  if (!doc || doc.warnings.length) return undefined;
  const root = doc.contents;
  if (!isMap(root) || root.flow || root.items.length !== (next && !next.isTask ? 2 : 1)) return undefined;
  const tasks = (root.items[0] as Pair<unknown, unknown>).value;
  if (!isMap(tasks) || tasks.flow || tasks.items.length !== (next?.isTask ? 2 : 1)) return undefined;
  const pair = tasks.items[0] as Pair<unknown, unknown>;
  if (!isScalar(pair.key) || startOf(pair.key) !== slice.start + leadingSpaces(slice.text)) return undefined;
  if (next) {
    const found = (next.isTask ? tasks.items[1] : root.items[1]) as Pair<unknown, unknown>;
    if (!found || !isScalar(found.key) || startOf(found.key) !== next.keyStart) return undefined;
    const value = rangeOf(found.value);
    if (value ? !next.value || value[0] !== next.value[0] || value[1] !== next.value[1] : next.value) return undefined;
  }
  const errors: SliceError[] = [];
  for (const e of doc.errors) {
    const [from, to] = e.pos;
    // An unclosed flow collection is reported where the next key ends it (past the slice).
    if (from < slice.start || from > (next ? next.keyStart : slice.end)) return undefined;
    errors.push({ message: e.message, from: from - slice.start, to: to - slice.start });
  }
  // What a slice parsed alone carries: a document and a one-pair map over the slice. When it
  // is the last task, the map's end is where the whole task map ends (stitch reads it there).
  const map = new YAMLMap<unknown, unknown>();
  map.items = [pair];
  map.range = next?.isTask ? [startOf(pair.key)!, ((pair.value ?? pair.key) as Node).range![1], slice.end] : [...tasks.range!] as [number, number, number];
  const own = new Document(undefined, PARSE_OPTIONS) as unknown as Document.Parsed;
  own.contents = map as never;
  own.range = [slice.start, slice.end, slice.end];
  return { text: slice.text, base: slice.start, doc: own, pair, value: pair.value, errors };
}

/** A node's range, when it is a node (without allocating a span). */
export function rangeOf(node: unknown): readonly number[] | undefined {
  return (node as { range?: number[] } | null | undefined)?.range;
}

/** Where a node starts. */
export function startOf(node: unknown): number | undefined {
  return rangeOf(node)?.[0];
}

/** Whether two nodes (or two absent values) start and end at the same offsets. */
export function sameExtent(a: unknown, b: unknown): boolean {
  const ra = rangeOf(a);
  const rb = rangeOf(b);
  if (!ra || !rb) return !ra && !rb;
  return ra[0] === rb[0] && ra[1] === rb[1];
}

/** What parseTaskInPlace needs to know of a parsed pair that follows a task, moved by `delta`. */
export function nextOf(pair: Pair<unknown, unknown>, next: Omit<NextPair, 'keyStart' | 'value'>, delta = 0): NextPair | undefined {
  const key = startOf(pair.key);
  if (key === undefined) return undefined;
  const v = rangeOf(pair.value);
  return { ...next, keyStart: key + delta, value: v && [v[0] + delta, v[1] + delta] };
}

function leadingSpaces(text: string): number {
  let i = 0;
  while (text.charCodeAt(i) === 32) i++;
  return i;
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
