// The Nika YAML profile (reference §11.1, the "R11" law set): YAML 1.2 core schema only, with
// the features that make a file mean something other than what it shows refused one by one.
// Judged on the composed AST the document already has (nodes keep their source ranges), in
// document order, in one linear walk: no second parse. The size refusal (NIKA-YAML-010) happens
// before parsing in core/document.ts and stops everything else, so it never reaches here.
//
// NIKA-YAML-004 (duplicate key) is deliberately not emitted: the structure checks already report
// every duplicate as NIKA-PARSE-017, which is what the pillar fixtures expect (reference §11.5,
// "duplicate keys" row); the same key twice under two codes would be noise.
import { isAlias, isCollection, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Node, Pair, Scalar, YAMLMap } from 'yaml';
import { spanOf, type NikaDocument } from '../document.js';
import type { Span } from '../text.js';

export const MAX_SCALAR_BYTES = 65_536;
export const MAX_DEPTH = 64;

export interface ProfileFinding {
  code: string;
  message: string;
  span: Span;
  /** A one-edit repair, when the repair cannot change what the file means. */
  fix?: { title: string; span: Span; newText: string };
  /** Internal: the anchor name of a 001 finding, until aliases are known. */
  anchor?: string;
}

/** Core-schema tags (`!!str 12` is how a number-looking string is forced): not custom. */
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));
/** Findings of one kind beyond this many are dropped (a generated file can hold thousands). */
const PER_CODE_CAP = 50;
/** Characters per piece of the non-ASCII search (pieces without any are skipped whole). */
const NFC_CHUNK = 4096;

/**
 * What one entry of a mapping yields on its own: the findings on its key that the mapping's own
 * rules make (`keyFindings`: merge keys, non-string keys), the findings of walking its key and
 * value (in walk order; at most PER_CODE_CAP of a code, as no more could ever be kept; at most one
 * 009, the first), and the anchors its aliases name. The same whatever surrounds the entry, so a
 * caller may keep it while the entry's text is unchanged (a task under the incremental analyzer).
 */
export interface ProfilePair {
  pair: Pair<unknown, unknown>;
  /** No findings and no aliases (the usual entry: replaying it reads nothing more). */
  empty: boolean;
  keyFindings: readonly ProfileFinding[];
  findings: readonly ProfileFinding[];
  aliased: readonly string[];
}

/**
 * May answer for every entry of a mapping the walk reaches, children at `depth`: kept
 * `judgeProfilePair` results aligned with `map.items`, or undefined to walk the mapping in place.
 */
export type ProfilePairs = (map: YAMLMap<unknown, unknown>, depth: number) => readonly ProfilePair[] | undefined;

interface Sink {
  add(f: ProfileFinding): void;
  aliased: Set<string>;
  depthReported: boolean;
}

function cappedSink(keep: (f: ProfileFinding) => void): Sink {
  const counts = new Map<string, number>();
  return {
    add: (f) => {
      const n = counts.get(f.code) ?? 0;
      if (n >= PER_CODE_CAP) return;
      counts.set(f.code, n + 1);
      keep(f);
    },
    aliased: new Set<string>(),
    depthReported: false,
  };
}

export function judgeYamlProfile(doc: NikaDocument, pairs?: ProfilePairs): ProfileFinding[] {
  const out: ProfileFinding[] = [];
  if (!doc.yaml || doc.tooLarge) return out;
  const text = doc.text;
  const sink = cappedSink((f) => out.push(f));
  if (text.charCodeAt(0) === 0xfeff) {
    sink.add({ code: 'NIKA-YAML-011', message: 'The file starts with a byte-order mark; Nika files are plain UTF-8 without one.', span: { start: 0, end: 1 }, fix: { title: 'Remove the byte-order mark', span: { start: 0, end: 1 }, newText: '' } });
  }
  for (const f of nonNfc(text)) sink.add(f);
  walk(text, doc.yaml.contents, 0, false, sink, pairs);
  // Removing an anchor that an alias still names would break the file: no fix for those.
  for (const f of out) if (f.code === 'NIKA-YAML-001' && sink.aliased.has(String(f.anchor))) delete f.fix;
  for (const f of out) delete f.anchor;
  return out.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}

/**
 * Judges one entry of a mapping alone, its key and value reached at `depth`. Undefined when the
 * entry's key findings would need the mapping's own span (a key with no position of its own).
 */
export function judgeProfilePair(text: string, pair: Pair<unknown, unknown>, depth: number): ProfilePair | undefined {
  if (pair.key == null || !spanOf(pair.key)) return undefined;
  const keyFindings: ProfileFinding[] = [];
  const findings: ProfileFinding[] = [];
  // One cap over both lists: the entry's key findings come before its walk in any document.
  let into = keyFindings;
  const sink = cappedSink((f) => into.push(f));
  keyRules(text, pair, undefined, sink.add);
  into = findings;
  walk(text, pair.key, depth, true, sink);
  walk(text, pair.value, depth, false, sink);
  return { pair, empty: !keyFindings.length && !findings.length && !sink.aliased.size, keyFindings, findings, aliased: [...sink.aliased] };
}

function replay(findings: readonly ProfileFinding[], sink: Sink): void {
  for (const f of findings) {
    if (f.code === 'NIKA-YAML-009') {
      if (sink.depthReported) continue;
      sink.depthReported = true;
    }
    sink.add({ ...f }); // kept results are shared: the caller deletes fields of its copies
  }
}

/** A collection being walked: its items, two steps each (a pair's key then value; an item then nothing). */
interface Frame { items: readonly unknown[]; step: number; level: number }

function walk(text: string, top: unknown, topDepth: number, topAsKey: boolean, sink: Sink, pairs?: ProfilePairs): void {
  const add = sink.add;
  // Pre-order (document order) over an explicit stack, so a hostile nesting depth cannot
  // overflow the call stack: a node's own rules are judged when it is reached, its children after.
  const frames: Frame[] = [];
  const visit = (node: unknown, depth: number, asKey: boolean): void => {
    if (node == null) return;
    if (isAlias(node)) {
      const span = spanOf(node) ?? { start: 0, end: 0 };
      sink.aliased.add(node.source);
      add({ code: 'NIKA-YAML-002', message: `Alias *${node.source} is not allowed: Nika files say every value where it is used (repeat it, or put it in const: and read \${{ const.… }}).`, span });
      return;
    }
    const n = node as Node;
    props(text, n, add);
    if (isScalar(n)) {
      scalarRules(text, n, asKey, add);
      return;
    }
    if (!isCollection(n)) return;
    const level = depth + 1;
    if (level > MAX_DEPTH && !sink.depthReported) {
      sink.depthReported = true;
      const s = spanOf(n) ?? { start: 0, end: 0 };
      add({ code: 'NIKA-YAML-009', message: `Nesting is deeper than ${MAX_DEPTH} levels here; flatten the structure.`, span: { start: s.start, end: Math.min(s.end, s.start + 1) } });
    }
    if (isMap(n)) {
      const kept = pairs && !asKey ? pairs(n as YAMLMap<unknown, unknown>, level) : undefined;
      if (kept) {
        // The mapping's rules on every key, then each entry's walk: the order its frame would
        // have produced (it would run to the end before anything pushed earlier).
        for (const k of kept) if (!k.empty) replay(k.keyFindings, sink);
        for (const k of kept) {
          if (k.empty) continue;
          for (const name of k.aliased) sink.aliased.add(name);
          replay(k.findings, sink);
        }
        return;
      }
      for (const pair of n.items) keyRules(text, pair as Pair<unknown, unknown>, n, add);
    }
    // (A `- k: v` entry inside a flow sequence composes to a one-pair map item; it is walked too.)
    if (isMap(n) || isSeq(n)) frames.push({ items: n.items, step: 0, level });
  };
  visit(top, topDepth, topAsKey);
  while (frames.length) {
    const f = frames[frames.length - 1];
    if (f.step >= 2 * f.items.length) {
      frames.pop();
      continue;
    }
    const step = f.step++;
    const item = f.items[step >> 1];
    if (isPair(item)) visit(step & 1 ? item.value : item.key, f.level, !(step & 1));
    else if (!(step & 1)) visit(item, f.level, false);
  }
}

/** Anchors (001) and custom tags (006) written before a node. */
function props(text: string, node: Node, add: (f: ProfileFinding) => void): void {
  const anchor = (node as { anchor?: string }).anchor;
  const tag = (node as { tag?: string }).tag;
  if (!anchor && !tag) return;
  const start = spanOf(node)?.start ?? 0;
  const written = propsBefore(text, start);
  if (anchor) {
    const at = written.find((p) => p.text === `&${anchor}`);
    const span = at ? at.span : { start, end: start };
    add({ code: 'NIKA-YAML-001', message: `Anchor &${anchor} is not allowed (even unreferenced): Nika files do not share nodes.`, span, anchor, fix: at ? { title: `Remove &${anchor}`, span: withSpace(text, at.span), newText: '' } : undefined });
  }
  if (tag && !CORE_TAGS.has(tag) && tag !== '!') {
    const at = written.find((p) => p.text.startsWith('!'));
    const shown = at?.text ?? tag;
    add({ code: 'NIKA-YAML-006', message: `Tag ${shown} is not allowed: only the YAML 1.2 core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are.`, span: at ? at.span : { start, end: start } });
  }
}

/** The span of a property token plus the blank that separates it from what follows. */
function withSpace(text: string, span: Span): Span {
  return text[span.end] === ' ' ? { start: span.start, end: span.end + 1 } : span;
}

/**
 * The property tokens (`&a`, `!tag`) written right before a node's content. The AST keeps the
 * anchor name and the resolved tag but not where they were written; they are the last tokens
 * before the content, separated from it by blanks or line breaks only.
 */
function propsBefore(text: string, start: number): Array<{ text: string; span: Span }> {
  const found: Array<{ text: string; span: Span }> = [];
  let i = start;
  for (let k = 0; k < 2; k++) {
    let j = i;
    while (j > 0 && /[ \t\r\n]/.test(text[j - 1])) j--;
    let t = j;
    while (t > 0 && !/[ \t\r\n,[{]/.test(text[t - 1])) t--;
    const tok = text.slice(t, j);
    if (t === j || !(tok.startsWith('&') || tok.startsWith('!'))) break;
    found.push({ text: tok, span: { start: t, end: j } });
    i = t;
  }
  return found;
}

function scalarRules(text: string, s: Scalar, asKey: boolean, add: (f: ProfileFinding) => void): void {
  const v = s.value;
  // Most scalars are short strings: settle those before building a span.
  if (typeof v === 'string' ? v.length * 3 <= MAX_SCALAR_BYTES : asKey || typeof v !== 'number') return;
  const span = spanOf(s) ?? { start: 0, end: 0 };
  if (typeof v === 'string' && v.length * 3 > MAX_SCALAR_BYTES) {
    const bytes = Buffer.byteLength(v, 'utf8');
    if (bytes > MAX_SCALAR_BYTES) {
      // The first line only: underlining 64 KiB of text helps nobody.
      const nl = text.slice(span.start, Math.min(span.end, span.start + 200)).search(/\r|\n/);
      add({ code: 'NIKA-YAML-005', message: `This scalar is ${bytes} bytes; the limit is ${MAX_SCALAR_BYTES} (64 KiB). Move large text into a file and read it with nika:read.`, span: { start: span.start, end: nl > 0 ? span.start + nl : Math.min(span.end, span.start + 200) } });
    }
  }
  if (!asKey && typeof v === 'number' && !Number.isFinite(v) && s.type === 'PLAIN') {
    const src = text.slice(span.start, span.end);
    add({ code: 'NIKA-YAML-008', message: `${src} (not-a-number / infinity) is not allowed; quote it if you mean the text "${src}".`, span, fix: { title: `Quote "${src}"`, span, newText: JSON.stringify(src) } });
  }
}

function keyRules(text: string, pair: Pair<unknown, unknown>, map: Node | undefined, add: (f: ProfileFinding) => void): void {
  const key = pair.key;
  if (isScalar(key)) {
    if (typeof key.value === 'string' && key.value !== '<<') return;
    const span = spanOf(key) ?? spanOf(map) ?? { start: 0, end: 0 };
    if (key.value === '<<' && key.type === 'PLAIN') {
      add({ code: 'NIKA-YAML-003', message: 'Merge keys (<<) are not allowed: write the entries out.', span });
      return;
    }
    if (typeof key.value === 'string') return;
    const src = text.slice(span.start, span.end);
    if (src === '') {
      add({ code: 'NIKA-YAML-007', message: 'A mapping entry has no key; keys must be strings.', span: spanOf(pair.value) ?? span });
      return;
    }
    add({ code: 'NIKA-YAML-007', message: `The key ${src} is a ${describe(key.value)}, not a string; quote it ("${src}") if a string is meant.`, span, fix: { title: `Quote "${src}"`, span, newText: JSON.stringify(src) } });
    return;
  }
  if (key == null) {
    const s = spanOf(pair.value) ?? spanOf(map) ?? { start: 0, end: 0 };
    add({ code: 'NIKA-YAML-007', message: 'A mapping entry has no key; keys must be strings.', span: { start: s.start, end: Math.max(s.start, Math.min(s.end, s.start + 1)) } });
    return;
  }
  if (isCollection(key) || isAlias(key)) {
    const span = spanOf(key) ?? { start: 0, end: 0 };
    if (isAlias(key)) return; // the alias itself is reported (002)
    add({ code: 'NIKA-YAML-007', message: 'Complex keys (a list or mapping used as a key) are not allowed; keys must be strings.', span });
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? 'number' : 'special float';
  if (typeof v === 'boolean') return 'boolean';
  return typeof v;
}

/** Lines that change under Unicode NFC normalization, with the normalized text as the fix. */
function nonNfc(text: string): ProfileFinding[] {
  // Pure ASCII (the usual case) is always NFC; a UTF-8 length equal to the length says so faster
  // than a scan. Only lines holding a non-ASCII character can change (NFC works line by line: a
  // line break never composes or reorders), so only chunks holding one are searched.
  if (Buffer.byteLength(text, 'utf8') === text.length) return [];
  const out: ProfileFinding[] = [];
  const nonAscii = /[^\x00-\x7f]/g;
  let done = 0; // lines ending before this offset are judged
  for (let c = 0; c < text.length && out.length < 20; c += NFC_CHUNK) {
    const end = Math.min(text.length, c + NFC_CHUNK);
    if (end <= done) continue;
    const piece = text.slice(c, end);
    if (Buffer.byteLength(piece, 'utf8') === piece.length) continue;
    nonAscii.lastIndex = Math.max(0, done - c);
    let m: RegExpExecArray | null;
    while (out.length < 20 && (m = nonAscii.exec(piece))) {
      const at = c + m.index;
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      let lineEnd = text.indexOf('\n', at);
      if (lineEnd < 0) lineEnd = text.length;
      const line = text.slice(lineStart, lineEnd);
      const nfc = line.normalize('NFC');
      if (nfc !== line) {
        let a = 0;
        while (a < line.length && line[a] === nfc[a]) a++;
        let b = 0;
        while (b < line.length - a && b < nfc.length - a && line[line.length - 1 - b] === nfc[nfc.length - 1 - b]) b++;
        const span = { start: lineStart + a, end: lineStart + line.length - b };
        out.push({ code: 'NIKA-YAML-011', message: 'This text is not in Unicode NFC form (a decomposed character); Nika files must be NFC so equal-looking names are equal.', span, fix: { title: 'Normalize to NFC', span, newText: nfc.slice(a, nfc.length - b) } });
      }
      done = lineEnd + 1;
      if (done >= end) break;
      nonAscii.lastIndex = done - c;
    }
  }
  return out;
}
