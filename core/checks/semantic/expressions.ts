// Expression syntax (cel-subset/0.1 parser errors, unclosed islands) and the surfaces where no
// expression may appear at all: `permits:` (AUTH-007) and `extract:` jq bindings (VAR-005).
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { semanticModel } from './model.js';

export function checkExpressionSyntax(ctx: CheckContext): NikaDiagnostic[] {
  const out: NikaDiagnostic[] = [];
  for (const site of semanticModel(ctx).sites) {
    if (site.syntax !== 'expr') continue;
    if (site.surface === 'permits') {
      out.push(diag('NIKA-AUTH-007', 'permits: bounds must be literals; ${{ }} is not evaluated here.', site.span));
      continue;
    }
    if (site.surface === 'extract') {
      out.push(diag('NIKA-VAR-005', 'extract: bindings are pure jq over the raw output; ${{ }} is not allowed (bind the value in with: and use it in the verb instead).', site.span));
      continue;
    }
    if (!site.island.closed) {
      // The `${{` token itself: the rest of the string is what the user is still typing.
      out.push(diag('NIKA-VAR-008', "unclosed '${{': add '}}' to end the expression.", { start: site.span.start, end: Math.min(site.span.end, site.span.start + 3) }));
      continue;
    }
    for (const e of site.errors) out.push(diag(e.code, e.message, e.span.end > e.span.start ? e.span : { start: e.span.start, end: e.span.start + 1 }));
  }
  return out;
}
