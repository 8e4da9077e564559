// `nika: v1` in a current-shape file: legal (v1 matches the name grammar) but almost always the
// old version marker left behind, so the file is named "v1" in traces and errors (reference §1.2).
import { isScalar } from 'yaml';
import { diag } from '../../diagnostic.js';
import { getNode, spanOf } from '../../document.js';
import type { Check } from '../index.js';

export const nikaMarkCheck: Check = (ctx) => {
  if (ctx.dialect.dialect !== 'v1') return [];
  const node = getNode(ctx.doc.root, 'nika');
  if (!isScalar(node) || String(node.value) !== 'v1') return [];
  const span = spanOf(node);
  if (!span) return [];
  return [diag('NIKA-PARSE-003', 'nika: v1 is the old version marker; today nika: carries the workflow\'s name (usually the file name without .nika.yaml), e.g. nika: summarize.', span, 'warning', { renameMark: true })];
};
