// Parsing a .nika.yaml text into a YAML AST with offsets, and the small set of node helpers
// every feature uses (path lookup, plain values, what sits under a cursor).
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument as parseYaml } from 'yaml';
import type { Document, Node, Pair, ParsedNode, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { diag, type NikaDiagnostic } from './diagnostic.js';
import { LineIndex, type Span } from './text.js';
import type { YamlPath } from './ir.js';

/** Documents over this many bytes are refused before parsing (NIKA-YAML-010, reference §11.1). */
export const MAX_DOCUMENT_BYTES = 1_048_576;

export interface NikaDocument {
  text: string;
  lines: LineIndex;
  /** Absent when the document is too large to parse. */
  yaml?: Document.Parsed;
  /** The top-level mapping, when the document is one. */
  root?: YAMLMap<unknown, unknown>;
  /** YAML syntax errors (NIKA-PARSE-001) and the size refusal. */
  parseDiagnostics: NikaDiagnostic[];
  tooLarge: boolean;
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function parseNikaDocument(text: string): NikaDocument {
  const lines = new LineIndex(text);
  if (text.length > MAX_DOCUMENT_BYTES / 4 && utf8Length(text) > MAX_DOCUMENT_BYTES) {
    return {
      text, lines, tooLarge: true,
      parseDiagnostics: [diag('NIKA-YAML-010', `Document is ${utf8Length(text)} bytes; the limit is ${MAX_DOCUMENT_BYTES} bytes (1 MiB). Nothing else is checked.`, { start: 0, end: Math.min(text.length, lines.lineEnd(0)) })],
    };
  }
  let yaml: Document.Parsed;
  try {
    // No source tokens and no line counter: nothing reads them, and on a large document they cost
    // more memory than the tree itself.
    yaml = parseYaml(text, { uniqueKeys: false, strict: false, prettyErrors: false }) as Document.Parsed;
  } catch (e) {
    // The parser is not expected to throw, but hostile input must never take the server down.
    return { text, lines, tooLarge: false, parseDiagnostics: [diag('NIKA-PARSE-001', `YAML could not be parsed: ${(e as Error).message}`, { start: 0, end: 0 })] };
  }
  const parseDiagnostics: NikaDiagnostic[] = [];
  for (const err of yaml.errors) parseDiagnostics.push(yamlErrorDiagnostic(err.message, err.pos[0], err.pos[1], text, lines));
  const root = isMap(yaml.contents) ? (yaml.contents as YAMLMap<unknown, unknown>) : undefined;
  return { text, lines, yaml, root, parseDiagnostics, tooLarge: false };
}

/** NIKA-PARSE-001 for one error of the `yaml` parser, at `[s, e)` of `text`. */
export function yamlErrorDiagnostic(message: string, s: number, e: number, text: string, lines: LineIndex): NikaDiagnostic {
  const start = Math.max(0, Math.min(s, text.length));
  let end = Math.max(start, Math.min(e, text.length));
  const line = lines.positionAt(start).line;
  if (end === start) end = Math.min(text.length, Math.max(start + 1, lines.lineEnd(line)));
  return diag('NIKA-PARSE-001', yamlMessage(message, text.slice(lines.lineStarts[line], lines.lineEnd(line))), { start, end });
}

function yamlMessage(message: string, lineText: string): string {
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  if (/^\s*\$schema=/.test(lineText)) {
    return `${first}. This looks like a de-commented schema modeline: write it as a comment, "# yaml-language-server: $schema=…".`;
  }
  return `YAML syntax error: ${first}`;
}

// ---- node helpers ---------------------------------------------------------------------------

export function spanOf(node: unknown): Span | undefined {
  const r = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return r ? { start: r[0], end: r[1] } : undefined;
}

/** The span of a pair's key (or, for a null key, the pair's value). */
export function keySpan(pair: Pair<unknown, unknown>): Span | undefined {
  return spanOf(pair.key) ?? spanOf(pair.value);
}

/** Span of a key-value pair from the key's start to the value's end. */
export function pairSpan(pair: Pair<unknown, unknown>): Span | undefined {
  const k = spanOf(pair.key);
  const v = spanOf(pair.value);
  if (k && v) return { start: k.start, end: Math.max(k.end, v.end) };
  return k ?? v;
}

export function keyName(pair: Pair<unknown, unknown>): string | undefined {
  const k = pair.key;
  if (isScalar(k)) return k.value === null ? undefined : String(k.value);
  return undefined;
}

export function getPair(map: unknown, key: string): Pair<unknown, unknown> | undefined {
  if (!isMap(map)) return undefined;
  for (const item of map.items) if (keyName(item) === key) return item;
  return undefined;
}

export function getNode(map: unknown, key: string): unknown {
  return getPair(map, key)?.value;
}

export function nodeAtPath(doc: NikaDocument, path: YamlPath): unknown {
  let node: unknown = doc.yaml?.contents;
  for (const seg of path) {
    if (typeof seg === 'number') node = isSeq(node) ? node.items[seg] : undefined;
    else node = getNode(node, seg);
    if (node === undefined) return undefined;
  }
  return node;
}

export function isStringScalar(node: unknown): node is Scalar<string> {
  return isScalar(node) && typeof node.value === 'string';
}

/**
 * Document offset of character `i` of a string scalar's value. Exact for plain scalars,
 * quoted scalars without escapes, and literal block scalars (`|`); other styles are mapped by
 * finding the value's line in the source, which is right unless a line repeats.
 */
export function scalarValueOffset(doc: NikaDocument, node: Scalar, i: number): number {
  const span = spanOf(node)!;
  if (node.type === 'PLAIN') return span.start + i;
  const layout = scalarLayout(doc, node, span);
  if (layout.quotedVerbatim) return span.start + 1 + i;
  // Which line of the value holds character i (binary search over cached line starts).
  const starts = layout.valueLineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= i) lo = mid; else hi = mid - 1;
  }
  const col = i - starts[lo];
  if (layout.contentLineOffsets) {
    const off = layout.contentLineOffsets[lo];
    return off === undefined ? span.end : span.start + off + col;
  }
  let at = layout.foundLine.get(lo);
  if (at === undefined) {
    const value = String(node.value);
    const lineText = value.slice(starts[lo], lo + 1 < starts.length ? starts[lo + 1] - 1 : value.length);
    const src = doc.text.slice(span.start, span.end);
    at = lineText ? src.indexOf(lineText) : -1;
    layout.foundLine.set(lo, at);
  }
  return at >= 0 ? span.start + at + col : span.start;
}

interface ScalarLayout {
  quotedVerbatim: boolean;
  /** Index in the value where each of its lines starts. */
  valueLineStarts: number[];
  /**
   * Literal block scalars: offset of each value line's first character from the scalar's start
   * (relative, so the layout stays right when an incremental parse moves the node).
   */
  contentLineOffsets?: number[];
  /** Other styles: where each value line was found in the source (-1: not found). */
  foundLine: Map<number, number>;
}

// Scans ask for many offsets inside one scalar (every island of a long prompt); computing its
// line layout once per node keeps each lookup logarithmic instead of linear in the scalar.
const layouts = new WeakMap<Scalar, ScalarLayout>();

function scalarLayout(doc: NikaDocument, node: Scalar, span: Span): ScalarLayout {
  const cached = layouts.get(node);
  if (cached) return cached;
  const value = String(node.value);
  const srcLen = span.end - span.start;
  const layout: ScalarLayout = {
    quotedVerbatim: (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && srcLen === value.length + 2,
    valueLineStarts: [0],
    foundLine: new Map(),
  };
  for (let k = value.indexOf('\n'); k >= 0; k = value.indexOf('\n', k + 1)) layout.valueLineStarts.push(k + 1);
  if (node.type === 'BLOCK_LITERAL') {
    const src = doc.text.slice(span.start, span.end);
    const lines = src.split(/\r\n|\r|\n/);
    let indent = Infinity;
    for (let k = 1; k < lines.length; k++) {
      const l = lines[k];
      if (l.trim() !== '') indent = Math.min(indent, l.length - l.trimStart().length);
    }
    const ind = Number.isFinite(indent) ? indent : 0;
    const offsets: number[] = [];
    let off = span.start + lines[0].length;
    off += doc.text.startsWith('\r\n', off) ? 2 : 1;
    for (let k = 1; k < lines.length; k++) {
      offsets.push(off - span.start + Math.min(ind, lines[k].length));
      off += lines[k].length;
      off += doc.text.startsWith('\r\n', off) ? 2 : 1;
    }
    layout.contentLineOffsets = offsets;
  }
  layouts.set(node, layout);
  return layout;
}

/**
 * The plain JS value of a node. Aliases are not expanded (they read as null), so alias bombs
 * cost nothing here (the profile check reports them). The node budget only bounds pathological
 * shapes; it is far above any document under the 1 MiB limit (a 5,000-task workflow is ~60,000
 * nodes), so real workflows are never cut short.
 */
export function plain(node: unknown, budget = { n: 2_000_000 }): unknown {
  if (--budget.n < 0) return null;
  if (node === null || node === undefined) return node ?? null;
  if (isScalar(node)) return node.value;
  if (isAlias(node)) return null;
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const p of node.items) {
      // Complex keys become JSON text; capped, because nested complex keys re-escape each level
      // and the text would double per level (`[{[{[{…` as a key crashed with an invalid string length).
      const k = isScalar(p.key) ? String(p.key.value) : p.key == null ? '' : (JSON.stringify(plain(p.key, budget)) ?? '').slice(0, 1024);
      if (!(k in out)) out[k] = plain(p.value, budget);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((i) => plain(i, budget));
  if (isPair(node)) return plain(node.value, budget);
  return null;
}

// ---- what is under the cursor ---------------------------------------------------------------

export interface CursorLocation {
  /** Path of the innermost node containing the offset (for a key: the path of its value). */
  path: YamlPath;
  /** Nodes from the root to the innermost one. */
  chain: Node[];
  node?: Node;
  /** The pair whose key or value holds the cursor. */
  pair?: Pair<unknown, unknown>;
  /** The collection that owns `pair` / the item. */
  parent?: YAMLMap<unknown, unknown> | YAMLSeq<unknown>;
  onKey: boolean;
}

function contains(node: unknown, offset: number): boolean {
  const s = spanOf(node);
  return !!s && s.start <= offset && offset <= s.end;
}

export function locate(doc: NikaDocument, offset: number): CursorLocation {
  const loc: CursorLocation = { path: [], chain: [], onKey: false };
  let node: unknown = doc.yaml?.contents;
  let guard = 0;
  while (node && guard++ < 200) {
    loc.chain.push(node as Node);
    loc.node = node as Node;
    if (isMap(node)) {
      let next: unknown;
      for (const pair of node.items) {
        const k = pair.key;
        if (k && contains(k, offset)) {
          loc.pair = pair; loc.parent = node; loc.onKey = true;
          loc.path.push(keyName(pair) ?? '');
          return loc;
        }
        if (pair.value && contains(pair.value, offset)) {
          loc.pair = pair; loc.parent = node; loc.onKey = false;
          loc.path.push(keyName(pair) ?? '');
          next = pair.value;
          break;
        }
      }
      if (next === undefined) return loc;
      node = next;
    } else if (isSeq(node)) {
      let idx = -1;
      node.items.forEach((it, i) => { if (idx < 0 && contains(it, offset)) idx = i; });
      if (idx < 0) return loc;
      loc.parent = node; loc.pair = undefined; loc.onKey = false;
      loc.path.push(idx);
      node = node.items[idx];
    } else {
      return loc;
    }
  }
  return loc;
}

export type { ParsedNode };
