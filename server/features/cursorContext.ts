// What the cursor is on, even in a half-typed document. The current line is patched the way the
// GitHub Actions language service does it (a placeholder where the user types, and a `:` after a
// bare word so it parses as a key), the patched text is parsed a second time, and the placeholder
// tells us the path. Given the analysis of the unpatched text, only the slice holding the cursor
// is parsed (patchedSlice.ts); otherwise, or when that view cannot be trusted, the whole patched
// text is, and that parse is cached separately from the real analysis.
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { Analysis } from '../../core/analyze.js';
import { getNode, keyName, locate, parseNikaDocument, spanOf, type NikaDocument } from '../../core/document.js';
import { detectDialect, type DialectInfo } from '../../core/dialect.js';
import type { Workflow, YamlPath } from '../../core/ir.js';
import { normalize } from '../../core/normalize.js';
import type { Span } from '../../core/text.js';
import { patchedView } from './patchedSlice.js';

export const PLACEHOLDER = 'nikaCursor__';

export interface CursorContext {
  kind: 'key' | 'value' | 'expression';
  /** key: path of the map that receives the key. value/expression: path of the value. */
  path: YamlPath;
  /** Keys already present in that map (key kind), or in the value's parent map. */
  presentKeys: Set<string>;
  /** What the user typed so far of the token under the cursor. */
  word: string;
  /** Range the completion replaces: the whole token under the cursor. */
  replace: Span;
  inFlow: boolean;
  /** Key kind: the key already has its `:` (the cursor is inside an existing key). */
  keyHasColon: boolean;
  /** Inside a quoted scalar (the quote character). */
  quote?: '"' | "'";
  /** For expressions: the source between `${{` and the cursor. */
  exprPrefix?: string;
  /**
   * The patched parse (for reading sibling values such as `tool:` next to `args:`); by slices, a
   * view of it whose `tasks:` holds only the cursor's task.
   */
  doc: NikaDocument;
  workflow: Workflow;
  dialect: DialectInfo;
}

let patchedCache: { text: string; doc: NikaDocument; dialect: DialectInfo; workflow: Workflow } | undefined;

/** Tests turn `slices` off to compare with the whole-document parse. */
export const cursorContextOptions = { slices: true };
/** Which way the last cursorContext() read the patched text, and why not by slices. */
export const cursorContextStats: { path: 'slice' | 'whole' | 'none' | 'refused'; reason?: string } = { path: 'none' };

function parsePatched(text: string) {
  if (patchedCache?.text === text) return patchedCache;
  const doc = parseNikaDocument(text);
  const dialect = detectDialect(doc.root);
  const workflow = normalize(doc, dialect);
  patchedCache = { text, doc, dialect, workflow };
  return patchedCache;
}

const KEYISH = /^(\s*)((?:-\s+)*)([A-Za-z0-9_.-]*)$/;
/** Characters that end a value token (YAML flow indicators, quotes, whitespace). */
const TOKEN_CHAR = /[^\s[\]{},"']/;

/**
 * `analysis`, when given, is the analysis of `text` or of an earlier version that differs from it
 * only inside the cursor's task or top-level key (the keystroke that asked for completion): the
 * patched text is then parsed only around the cursor, and the workflow's other tasks are taken
 * from it. With `sliceOnly`, a context that would need the whole patched text parsed is not
 * computed (undefined, with `cursorContextStats.path` 'refused').
 */
export function cursorContext(text: string, offset: number, lines: { positionAt(o: number): { line: number; character: number }; lineStarts: number[]; lineEnd(l: number): number }, analysis?: Analysis, opts: { sliceOnly?: boolean } = {}): CursorContext | undefined {
  cursorContextStats.path = 'none';
  cursorContextStats.reason = undefined;
  const pos = lines.positionAt(offset);
  const lineStart = lines.lineStarts[pos.line];
  const lineEnd = lines.lineEnd(pos.line);
  const prefix = text.slice(lineStart, offset);
  const suffix = text.slice(offset, lineEnd);
  // Comments are not completed.
  if (/(^|\s)#/.test(stripQuoted(prefix))) return undefined;

  // Right after `key:` (the `:` trigger) there is nothing to offer until a space is typed.
  if (/^\s*(?:-\s+)*[A-Za-z0-9_-]+:$/.test(prefix) || /[{,]\s*[A-Za-z0-9_-]+:$/.test(prefix)) return undefined;

  // Inside `${{` … (not yet closed before the cursor)?
  const open = prefix.lastIndexOf('${{');
  const inExpr = open >= 0 && prefix.indexOf('}}', open + 3) < 0;

  let wordStart = offset;
  while (wordStart > lineStart && TOKEN_CHAR.test(text[wordStart - 1])) wordStart--;
  let wordEnd = offset;
  while (wordEnd < lineEnd && TOKEN_CHAR.test(text[wordEnd])) wordEnd++;

  const flowDepth = flowNesting(prefix);
  const inFlow = flowDepth > 0;
  const quote = openQuote(prefix);

  let kind: CursorContext['kind'] = 'value';
  let patchedLine: string;
  const key = KEYISH.exec(prefix);
  const onExistingKey = /^[A-Za-z0-9_-]*\s*:(\s|$)/.test(suffix);
  if (inExpr) {
    kind = 'expression';
    patchedLine = prefix + PLACEHOLDER + suffix;
  } else if (!inFlow && key && !onExistingKey && suffix.trim() === '') {
    kind = 'key';
    patchedLine = prefix + PLACEHOLDER + ':';
  } else if (!inFlow && key && onExistingKey) {
    kind = 'key';
    patchedLine = prefix + PLACEHOLDER + suffix;
  } else if (inFlow && !quote && flowKeyPosition(prefix)) {
    kind = 'key';
    patchedLine = prefix + PLACEHOLDER + ': ~' + suffix;
  } else {
    patchedLine = prefix + PLACEHOLDER + suffix;
  }
  // A key is a word: the replace range stops at the colon.
  if (kind === 'key') {
    while (wordStart < offset && !/[A-Za-z0-9_.-]/.test(text[wordStart])) wordStart++;
    wordEnd = offset;
    while (wordEnd < lineEnd && /[A-Za-z0-9_-]/.test(text[wordEnd])) wordEnd++;
  }

  const patched = text.slice(0, lineStart) + patchedLine + text.slice(lineEnd);
  const at = offset + 1;
  const current = analysis?.doc.text === text;
  let view = analysis && cursorContextOptions.slices ? patchedView(patched, lineStart, analysis, current ? lines.lineStarts : undefined, patchedLine) : 'no analysis';
  if (typeof view === 'string' && opts.sliceOnly) {
    cursorContextStats.path = 'refused';
    cursorContextStats.reason = view;
    return undefined;
  }
  if (typeof view === 'string') {
    cursorContextStats.path = 'whole';
    cursorContextStats.reason = view;
    view = { ...parsePatched(patched), tasksMap: undefined, taskIds: [] };
  } else {
    cursorContextStats.path = 'slice';
    cursorContextStats.reason = undefined;
  }
  const { doc, dialect, workflow, tasksMap, taskIds } = view;
  const loc = locate(doc, at);
  let path = loc.path;
  if (!containsPlaceholder(loc, at)) {
    const guess = indentationPath(text, lines, pos.line, prefix);
    if (!guess) return undefined;
    path = kind === 'key' ? [...guess, PLACEHOLDER] : guess;
  }
  path = path.map((s) => (typeof s === 'string' && s.includes(PLACEHOLDER) ? PLACEHOLDER : s));

  let ctxPath: YamlPath;
  let parent: unknown;
  if (kind === 'key') {
    ctxPath = path.slice(0, -1);
    parent = loc.parent;
  } else {
    ctxPath = path;
    const holder = loc.chain.length >= 2 ? loc.chain[loc.chain.length - 2] : undefined;
    parent = isMap(holder) ? holder : undefined;
  }
  const presentKeys = new Set<string>();
  if (parent && parent === tasksMap) {
    // The view's `tasks:` holds the cursor's task only.
    for (const n of taskIds) if (!n.includes(PLACEHOLDER)) presentKeys.add(n);
  } else if (isMap(parent)) {
    for (const p of (parent as YAMLMap).items) { const n = keyName(p); if (n !== undefined && !n.includes(PLACEHOLDER)) presentKeys.add(n); }
  }

  const word = text.slice(wordStart, offset);
  const ctx: CursorContext = {
    kind, path: ctxPath, presentKeys, word, replace: { start: wordStart, end: Math.max(wordEnd, offset) },
    keyHasColon: kind === 'key' && onExistingKey, inFlow, quote, doc, workflow, dialect,
  };
  if (kind === 'expression') ctx.exprPrefix = prefix.slice(open + 3);
  return ctx;
}

function containsPlaceholder(loc: ReturnType<typeof locate>, at: number): boolean {
  const n = loc.node;
  if (loc.onKey && loc.pair && isScalar(loc.pair.key)) return String(loc.pair.key.value).includes(PLACEHOLDER);
  if (isScalar(n) && typeof n.value === 'string') {
    const s = spanOf(n);
    return n.value.includes(PLACEHOLDER) && !!s && s.start <= at && at <= s.end;
  }
  return false;
}

function stripQuoted(s: string): string {
  return s.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, '""');
}

function openQuote(prefix: string): '"' | "'" | undefined {
  const m = /(^|[\s:[{,-])(["'])[^"']*$/.exec(stripQuoted(prefix));
  return m ? (m[2] as '"' | "'") : undefined;
}

/** How many flow collections (`{`/`[`) are open at the end of the line prefix. */
function flowNesting(prefix: string): number {
  let depth = 0;
  let q = '';
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i];
    if (q) { if (c === q) q = ''; continue; }
    if (c === '"' || c === "'") { if (i === 0 || /[\s:[{,]/.test(prefix[i - 1])) q = c; continue; }
    if (c === '#' && (i === 0 || /\s/.test(prefix[i - 1]))) break;
    if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth > 0) depth--;
  }
  return depth;
}

/** In a flow map, the cursor is in key position when no `:` follows the innermost `{` or its last `,`. */
function flowKeyPosition(prefix: string): boolean {
  const s = stripQuoted(prefix);
  const stack: Array<{ c: string; sep: number }> = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '{' || c === '[') stack.push({ c, sep: i });
    else if ((c === '}' || c === ']') && stack.length) stack.pop();
    else if (c === ',' && stack.length) stack[stack.length - 1].sep = i;
  }
  const top = stack[stack.length - 1];
  if (!top || top.c !== '{') return false;
  return !/:(\s|$)/.test(s.slice(top.sep + 1));
}

/**
 * Fallback when the patched text still does not parse into a tree around the cursor: the path
 * implied by the indentation of the lines above (`key:` lines and `- ` items with less indentation).
 */
function indentationPath(text: string, lines: { lineStarts: number[]; lineEnd(l: number): number }, line: number, prefix: string): YamlPath | undefined {
  const own = /^(\s*)((?:-\s+)?)/.exec(prefix)!;
  let col = own[1].length;
  const path: YamlPath = own[2] ? [itemIndex(text, lines, line, col)] : [];
  for (let l = line - 1; l >= 0 && col > 0; l--) {
    const t = text.slice(lines.lineStarts[l], lines.lineEnd(l));
    if (t.trim() === '' || t.trim().startsWith('#')) continue;
    const lead = /^\s*/.exec(t)![0].length;
    const m = /^(\s*)(-\s+)?([A-Za-z0-9_.-]+)\s*:/.exec(t);
    if (m?.[2]) {
      // `- key: …` opens a list item whose keys sit at the column after the dash.
      const keyCol = lead + m[2].length;
      if (keyCol > col) continue;
      if (keyCol < col) path.unshift(m[3]);
      path.unshift(itemIndex(text, lines, l, lead));
      col = lead;
      continue;
    }
    if (lead >= col) continue;
    if (m) path.unshift(m[3]);
    else if (t.trimStart().startsWith('-')) path.unshift(itemIndex(text, lines, l, lead));
    col = lead;
  }
  return path;
}

/** Index of the list item whose dash is on `line` (or would be), counting earlier siblings. */
function itemIndex(text: string, lines: { lineStarts: number[]; lineEnd(l: number): number }, line: number, dashIndent: number): number {
  let n = 0;
  for (let l = line - 1; l >= 0; l--) {
    const t = text.slice(lines.lineStarts[l], lines.lineEnd(l));
    if (t.trim() === '') continue;
    const lead = /^\s*/.exec(t)![0].length;
    if (lead < dashIndent) break;
    if (lead === dashIndent && t.trimStart().startsWith('-')) n++;
  }
  return n;
}

/** The string value of a sibling key in the map holding the cursor (e.g. `tool:` beside `args:`). */
export function siblingValue(ctx: CursorContext, mapPath: YamlPath, key: string): string | undefined {
  let node: unknown = ctx.doc.yaml?.contents;
  for (const seg of mapPath) {
    if (typeof seg === 'number') node = isSeq(node) ? node.items[seg] : undefined;
    else node = getNode(node, seg);
    if (node === undefined) return undefined;
  }
  const v = getNode(node, key);
  return isScalar(v) && typeof v.value === 'string' ? v.value.replace(PLACEHOLDER, '') : undefined;
}
