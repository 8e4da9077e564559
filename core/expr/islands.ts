// Finding `${{ … }}` islands in a string, with the escape rule of reference §4.1: a run of N
// backslashes right before `${{` renders as floor(N/2) backslashes; odd N makes the `${{` literal,
// even N (incl. 0) leaves a live island. Backslashes anywhere else are plain text.
import type { Island } from './api.js';

export type TemplatePart =
  | { kind: 'text'; /** Text as rendered (escape runs already reduced). */ text: string; start: number; end: number }
  | { kind: 'island'; island: Island };

const OPEN = '${{';

/** Splits a string into rendered text runs and islands, in order. Offsets are into `s`. */
export function scanTemplate(s: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  let textStart = 0;
  let i = 0;
  const flushText = (end: number) => {
    if (end > textStart) parts.push({ kind: 'text', text, start: textStart, end });
    text = '';
  };

  for (;;) {
    const open = s.indexOf(OPEN, i);
    if (open < 0) break;
    let run = 0;
    while (open - run - 1 >= i && s[open - run - 1] === '\\') run++;
    text += s.slice(i, open - run) + '\\'.repeat(run >> 1);
    if (run % 2 === 1) {
      text += OPEN;
      i = open + OPEN.length;
      continue;
    }
    flushText(open);
    const island = readIsland(s, open);
    island.backslashes = run;
    parts.push({ kind: 'island', island });
    i = island.end;
    textStart = i;
  }
  text += s.slice(i);
  flushText(s.length);
  return parts;
}

export function findIslands(s: string): Island[] {
  if (!s.includes(OPEN)) return [];
  const out: Island[] = [];
  for (const p of scanTemplate(s)) if (p.kind === 'island') out.push(p.island);
  return out;
}

/**
 * The island whose expression source contains `offset` (a cursor between `${{` and `}}`, inclusive
 * of both edges of the source; to the end of the string for an unclosed island).
 */
export function islandAt(s: string, offset: number): Island | undefined {
  return findIslands(s).find((i) => offset >= i.sourceStart && offset <= i.sourceStart + i.source.length);
}

/** True when `s` holds at least one live island (cheap pre-check for callers). */
export function hasIslands(s: string): boolean {
  return s.includes(OPEN) && findIslands(s).length > 0;
}

/**
 * Reads the island opening at `open`. The closing `}}` is the first one outside a string literal,
 * so `${{ 'a}}b' }}` is one island; if quotes never balance, the first raw `}}` closes instead
 * (the parser then reports the unterminated string, which is the real mistake).
 */
function readIsland(s: string, open: number): Island {
  const sourceStart = open + OPEN.length;
  let close = findClose(s, sourceStart);
  if (close < 0) close = s.indexOf('}}', sourceStart);
  if (close < 0) {
    return { start: open, end: s.length, source: s.slice(sourceStart), sourceStart, closed: false };
  }
  return { start: open, end: close + 2, source: s.slice(sourceStart, close), sourceStart, closed: true };
}

function findClose(s: string, from: number): number {
  let quote = '';
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '}' && s[i + 1] === '}') {
      return i;
    }
  }
  return -1;
}
