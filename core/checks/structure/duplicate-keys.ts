// Duplicate mapping keys at any depth (NIKA-PARSE-017). The parser keeps them (uniqueKeys is
// off so the AST stays complete), every reader takes the first, so the later one is the
// finding. In list dialects two tasks with the same id are the same mistake.
import { isMap, isScalar, isSeq } from 'yaml';
import type { Pair } from 'yaml';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, keyName, keySpan, spanOf, type NikaDocument } from '../../document.js';
import type { Check } from '../index.js';

const MAX_DEPTH = 200;

export const duplicateKeysCheck: Check = (ctx) => {
  const doc = ctx.doc;
  const out: NikaDiagnostic[] = [];
  if (!doc.yaml) return out;
  walk(doc, doc.yaml.contents, 0, doc.root !== undefined && doc.yaml.contents === doc.root ? [] : null, out);
  duplicateListIds(doc, out);
  return out;
};

function lineOf(doc: NikaDocument, offset: number): number {
  return doc.lines.positionAt(offset).line + 1;
}

function walk(doc: NikaDocument, node: unknown, depth: number, path: string[] | null, out: NikaDiagnostic[]): void {
  if (depth > MAX_DEPTH) return;
  if (isMap(node)) {
    const first = new Map<string, Pair<unknown, unknown>>();
    for (const pair of node.items) {
      const name = keyName(pair);
      if (name !== undefined) {
        const prev = first.get(name);
        const span = keySpan(pair);
        if (prev && span) {
          const prevSpan = keySpan(prev);
          const isTask = path?.length === 1 && path[0] === 'tasks';
          const what = isTask ? `Duplicate task id "${name}"` : `Duplicate key "${name}"`;
          const firstLine = prevSpan ? ` (first on line ${lineOf(doc, prevSpan.start)})` : '';
          out.push(diag('NIKA-PARSE-017', `${what}${firstLine}; only the first one is used. Rename or remove this one.`, span));
        } else if (!prev) {
          first.set(name, pair);
        }
      }
      walk(doc, pair.value, depth + 1, path && name !== undefined ? [...path, name] : null, out);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) walk(doc, item, depth + 1, null, out);
  }
}

function duplicateListIds(doc: NikaDocument, out: NikaDiagnostic[]): void {
  const tasks = getNode(doc.root, 'tasks');
  if (!isSeq(tasks)) return;
  const seen = new Map<string, number>();
  for (const item of tasks.items) {
    const pair = getPair(item, 'id') ?? getPair(item, 'name');
    if (!pair || !isScalar(pair.value) || pair.value.value == null) continue;
    const id = String(pair.value.value);
    const span = spanOf(pair.value);
    if (!span) continue;
    const prev = seen.get(id);
    if (prev !== undefined) {
      out.push(diag('NIKA-PARSE-017', `Duplicate task id "${id}" (first on line ${lineOf(doc, prev)}); task ids must be unique.`, span));
    } else {
      seen.set(id, span.start);
    }
  }
}
