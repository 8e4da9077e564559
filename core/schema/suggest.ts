// "Did you mean …?" for misspelled keys and enum values. Small edit distance (adjacent swaps
// count as one edit, the usual typo) or a prefix of a candidate.

/** Optimal-string-alignment distance, capped: returns max+1 as soon as it cannot be ≤ max. */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push(new Array<number>(b.length + 1).fill(0));
    rows[i][0] = i;
  }
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** The closest candidate within distance 2 (case-insensitive), or one the word is a prefix of. */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  if (w.length === 0) return undefined;
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    if (c === word) continue;
    const d = editDistance(w, c.toLowerCase(), 2);
    // Very short words are too easy to match by accident: one edit at most.
    const limit = Math.min(2, Math.max(1, Math.floor(w.length / 3)));
    if (d <= limit && d < bestD) { best = c; bestD = d; }
  }
  if (best) return best;
  if (w.length >= 3) {
    const prefixed = [...candidates].filter((c) => c.toLowerCase().startsWith(w));
    if (prefixed.length === 1) return prefixed[0];
  }
  return undefined;
}
