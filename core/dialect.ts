// Which of the three dialects a document is written in (reference, "What this project supports").
import { isMap, isScalar, isSeq } from 'yaml';
import { getNode, getPair } from './document.js';
import type { Dialect } from './ir.js';

export const LEGACY_SCHEMA = /^nika\/workflow@0\.(\d+)$/;

export interface DialectInfo {
  dialect: Dialect;
  /** For legacy files: the minor version N of `nika/workflow@0.N`. */
  legacyMinor?: number;
  /** Why the dialect was chosen, for hovers and the migrate action. */
  reason: string;
}

const DRAFT_BLOCKS = ['workflow', 'vars', 'env', 'mcp'] as const;

export function detectDialect(root: unknown): DialectInfo {
  if (!isMap(root)) return { dialect: 'v1', reason: 'not a mapping' };
  const schema = getNode(root, 'schema');
  if (isScalar(schema) && typeof schema.value === 'string') {
    const m = LEGACY_SCHEMA.exec(schema.value.trim());
    if (m) return { dialect: 'legacy', legacyMinor: Number(m[1]), reason: `schema: ${schema.value}` };
    // Era-B first drafts (`schema: nika/workflow@v1`, `apiVersion: nika.sh/v1`) share the draft's shape.
    if (/^nika\/workflow@v1$/.test(schema.value.trim()) && !getPair(root, 'nika')) {
      return { dialect: 'v1-draft', reason: `schema: ${schema.value}` };
    }
  }
  const nika = getNode(root, 'nika');
  if (isScalar(nika) && String(nika.value) === 'v1') {
    const tasks = getNode(root, 'tasks');
    if (isSeq(tasks)) return { dialect: 'v1-draft', reason: 'nika: v1 with a tasks list' };
    for (const k of DRAFT_BLOCKS) if (getPair(root, k)) return { dialect: 'v1-draft', reason: `nika: v1 with a ${k}: block` };
  }
  if (!getPair(root, 'nika') && getPair(root, 'apiVersion')) return { dialect: 'v1-draft', reason: 'apiVersion: envelope' };
  return { dialect: 'v1', reason: 'current v1' };
}
