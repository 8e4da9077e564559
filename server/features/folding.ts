// Folding for every block collection and block scalar spanning more than one line, starting on
// the line of the key (or `-`) that owns it.
import { isMap, isScalar, isSeq } from 'yaml';
import type { FoldingRange } from 'vscode-languageserver';
import { spanOf } from '../../core/document.js';
import type { DocModel } from '../model.js';

export const MAX_FOLDING_RANGES = 5000;

export function foldingRanges(model: DocModel): FoldingRange[] {
  const doc = model.analysis.doc;
  const out: FoldingRange[] = [];
  const root = doc.yaml?.contents;
  if (!root) return out;
  const lineOf = (o: number) => doc.lines.positionAt(o).line;
  const lastLine = (node: unknown) => {
    const s = spanOf(node)!;
    let end = s.end;
    while (end > s.start && /\s/.test(doc.text[end - 1])) end--;
    return lineOf(Math.max(s.start, end - 1));
  };
  const foldable = (node: unknown) => isMap(node) || isSeq(node) || (isScalar(node) && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED'));
  const add = (startOffset: number, node: unknown) => {
    if (out.length >= MAX_FOLDING_RANGES || !spanOf(node)) return;
    const startLine = lineOf(startOffset);
    const endLine = lastLine(node);
    if (endLine > startLine) out.push({ startLine, endLine });
  };
  const walk = (node: unknown, depth: number) => {
    if (depth > 100 || out.length >= MAX_FOLDING_RANGES) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = spanOf(pair.key);
        if (k && foldable(pair.value)) add(k.start, pair.value);
        walk(pair.value, depth + 1);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        const s = spanOf(item);
        if (s && (isMap(item) || isSeq(item))) add(s.start, item);
        walk(item, depth + 1);
      }
    }
  };
  walk(root, 0);
  // One range per start line (a list item and the map inside it start together): keep the widest.
  const byStart = new Map<number, FoldingRange>();
  for (const r of out) if ((byStart.get(r.startLine)?.endLine ?? -1) < r.endLine) byStart.set(r.startLine, r);
  return [...byStart.values()].sort((a, b) => a.startLine - b.startLine);
}
