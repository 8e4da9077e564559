// NIKA-DRIFT-001 (advisory): a declared input, constant or secret that no expression reads.
// Rendered faded, like unused code; it never fails a check.
import { isMap } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, keyName, keySpan } from '../../document.js';
import { semanticModel } from './model.js';

const BLOCKS: Record<string, string> = { inputs: 'input', const: 'constant', secrets: 'secret', vars: 'variable', env: 'variable' };

export function checkUnused(ctx: CheckContext): NikaDiagnostic[] {
  const dialect = ctx.dialect.dialect;
  // Era-A templates are not modelled closely enough to prove a declaration unused.
  if (dialect === 'legacy' || !ctx.doc.root) return [];
  const used = new Set<string>();
  for (const site of semanticModel(ctx).sites) {
    for (const ref of site.references) if (ref.segments[0]) used.add(`${ref.root}.${ref.segments[0].name}`);
  }
  const out: NikaDiagnostic[] = [];
  for (const [block, what] of Object.entries(BLOCKS)) {
    if ((block === 'vars' || block === 'env') && dialect !== 'v1-draft') continue;
    const node = getNode(ctx.doc.root, block);
    if (!isMap(node)) continue;
    for (const pair of node.items) {
      const name = keyName(pair);
      const span = keySpan(pair);
      if (name === undefined || !span || used.has(`${block}.${name}`)) continue;
      const d = diag('NIKA-DRIFT-001', `${what} '${name}' is declared but never read (\${{ ${block}.${name} }}).`, span, 'hint');
      d.tags = ['unnecessary'];
      out.push(d);
    }
  }
  return out;
}
