// Shared by the incremental-vs-full equivalence tests.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis } from '../../core/analyze.js';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.nika\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

/** Every example and fixture workflow. */
export const CORPUS: readonly string[] = (() => {
  const root = join(__dirname, '..', '..');
  return [...files(join(root, 'examples')), ...files(join(root, 'test', 'fixtures'))];
})();

/** The findings of an analysis as comparable strings (order-free). */
export function diagKey(a: Analysis): string[] {
  return a.diagnostics.map((d) => JSON.stringify([d.span.start, d.span.end, d.code, d.severity, d.message, d.data ?? null, d.tags ?? null])).sort();
}

export function rng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
}

/** Edits a user makes: type one of `pieces`, delete a few characters, delete a line, type a character. */
export function randomEdit(text: string, r: () => number, pieces: readonly string[]): string {
  const at = Math.floor(r() * (text.length + 1));
  switch (Math.floor(r() * 4)) {
    case 0: return text.slice(0, at) + pieces[Math.floor(r() * pieces.length)] + text.slice(at);
    case 1: return text.slice(0, at) + text.slice(at + 1 + Math.floor(r() * 3));
    case 2: {
      const line = text.lastIndexOf('\n', at - 1) + 1;
      const end = text.indexOf('\n', at);
      return end < 0 ? text : text.slice(0, line) + text.slice(end + 1);
    }
    default: return text.slice(0, at) + 'y' + text.slice(at);
  }
}
