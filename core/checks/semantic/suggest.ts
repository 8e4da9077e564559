// "Did you mean …?" for misspelled names, and the one-edit quick fix that goes with it.
import type { DiagnosticData } from '../../diagnostic.js';
import type { Span } from '../../text.js';

/** Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps (`fecth`). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The closest candidate, when it is close enough to be a plausible typo. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c === name) continue;
    const d = c.toLowerCase() === lower ? 0.5 : editDistance(lower, c.toLowerCase());
    if (d < bestScore) { best = c; bestScore = d; }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(1, Math.floor(Math.max(name.length, best.length) / 3));
  return bestScore <= limit ? best : undefined;
}

/** ` Did you mean 'x'?` or '' — appended to messages. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion ? ` Did you mean '${suggestion}'?` : '';
}

/** A preferred quick fix replacing `span` with `newText`. */
export function replaceFix(title: string, span: Span, newText: string): DiagnosticData {
  return { fixes: [{ title, edits: [{ span, newText }], preferred: true }] };
}

export function renameFix(span: Span, suggestion: string | undefined): DiagnosticData | undefined {
  return suggestion ? replaceFix(`Change to '${suggestion}'`, span, suggestion) : undefined;
}
