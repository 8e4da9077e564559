// NIKA-DRIFT-001 (advisory): a declared input, constant or secret that no expression reads.
// Rendered faded, like unused code; it never fails a check.
import { isMap } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, keyName, keySpan } from '../../document.js';
import type { Span } from '../../text.js';
import { semanticModel } from './model.js';

const BLOCKS: Record<string, string> = { inputs: 'input', const: 'constant', secrets: 'secret', vars: 'variable', env: 'variable' };

export function checkUnused(ctx: CheckContext): NikaDiagnostic[] {
  const dialect = ctx.dialect.dialect;
  // Era-A templates are not modelled closely enough to prove a declaration unused.
  if (dialect === 'legacy' || !ctx.doc.root) return [];
  // The declarations first: there are a handful, so the search for readers can stop early.
  const declared: Array<{ ref: string; name: string; span: Span; block: string; what: string }> = [];
  for (const [block, what] of Object.entries(BLOCKS)) {
    if ((block === 'vars' || block === 'env') && dialect !== 'v1-draft') continue;
    const node = getNode(ctx.doc.root, block);
    if (!isMap(node)) continue;
    for (const pair of node.items) {
      const name = keyName(pair);
      const span = keySpan(pair);
      if (name !== undefined && span) declared.push({ ref: `${block}.${name}`, name, span, block, what });
    }
  }
  if (declared.length === 0) return [];
  const unread = new Set(declared.map((d) => d.ref));
  const model = semanticModel(ctx);
  const facts = model.facts();
  for (const item of model.layout()) {
    if (unread.size === 0) break;
    if (typeof item === 'number') {
      for (const r of facts[item].used) unread.delete(r);
    } else {
      for (const ref of item.references) if (ref.segments[0]) unread.delete(`${ref.root}.${ref.segments[0].name}`);
    }
  }
  const out: NikaDiagnostic[] = [];
  for (const { ref, name, span, block, what } of declared) {
    if (!unread.has(ref)) continue;
    const d = diag('NIKA-DRIFT-001', `${what} '${name}' is declared but never read (\${{ ${block}.${name} }}).`, span, 'hint');
    d.tags = ['unnecessary'];
    out.push(d);
  }
  return out;
}
