// `when:` must be a YAML boolean or one `${{ }}` expression that is statically boolean (§4.5), and
// `.status` may only be compared with the four terminal states (§2.1, NIKA-DAG-007).
import { isScalar } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import type { ExprNode } from '../../expr/index.js';
import { TASK_STATUSES } from '../../catalog/cel.js';
import { getNode, spanOf } from '../../document.js';
import { semanticModel } from './model.js';
import { closest, didYouMean, renameFix, replaceFix } from './suggest.js';

type Kind = 'bool' | 'other' | 'unknown';

/** What an expression yields, as far as its shape tells without types. */
function staticKind(n: ExprNode): Kind {
  switch (n.kind) {
    case 'literal': return typeof n.value === 'boolean' ? 'bool' : 'other';
    case 'list': return 'other';
    case 'unary': return n.op === '!' ? 'bool' : 'other';
    case 'binary': return 'bool';
    case 'call': return n.callee === 'size' ? 'other' : 'bool';
    case 'ternary': {
      const a = staticKind(n.consequent);
      const b = staticKind(n.alternate);
      return a === 'other' && b === 'other' ? 'other' : a === 'bool' && b === 'bool' ? 'bool' : 'unknown';
    }
    // A bare reference is refused even when it would hold a bool at run time (§4.5 example `${{ inputs.flag }}`).
    case 'ident': case 'member': case 'index': return n.kind === 'ident' && n.name === '' ? 'unknown' : 'other';
  }
}

export function checkWhen(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect === 'legacy') return [];
  const out: NikaDiagnostic[] = [];
  const model = semanticModel(ctx);
  for (const task of ctx.workflow.tasks) {
    const node = getNode(model.taskNode(task), 'when');
    if (!isScalar(node) || typeof node.value !== 'string') continue;
    const span = spanOf(node)!;
    const own = model.sitesOfScalar(node).filter((s) => s.syntax === 'expr');
    if (own.length === 0) {
      out.push(diag('NIKA-VAR-005', `when: takes a YAML boolean or a \${{ }} expression; a plain string is not evaluated. Write when: "\${{ ${node.value.trim()} }}".`, span, 'error',
        replaceFix('Wrap in ${{ }}', span, JSON.stringify(`\${{ ${node.value.trim()} }}`))));
      continue;
    }
    if (own.length > 1 || !own[0].whole) {
      out.push(diag('NIKA-VAR-005', 'when: must be exactly one ${{ }} expression, with no text around it.', span));
      continue;
    }
    const site = own[0];
    if (!site.ast || site.errors.length || !site.island.closed) continue;
    if (staticKind(site.ast) === 'other') {
      const isRef = site.ast.kind === 'member' || site.ast.kind === 'ident' || site.ast.kind === 'index';
      const end = site.ast.span.end;
      out.push(diag('NIKA-VAR-005', `when: must be a boolean expression; this is a ${isRef ? 'plain value' : 'non-boolean value'}.${isRef ? ' Compare it explicitly, e.g. `== true`.' : ''}`, site.ast.span, 'error',
        isRef ? replaceFix("Compare with '== true'", { start: end, end }, ' == true') : undefined));
    }
  }
  return out;
}

function isStatusRef(n: ExprNode): boolean {
  if (n.kind !== 'member' || n.property !== 'status') return false;
  let base: ExprNode = n.object;
  while (base.kind === 'member' || base.kind === 'index') base = base.object;
  return base.kind === 'ident' && base.name === 'tasks';
}

const OLD_STATUS: Record<string, string> = { succeeded: 'success', successful: 'success', failed: 'failure', error: 'failure', skip: 'skipped', canceled: 'cancelled' };

export function checkStatusLiterals(ctx: CheckContext): NikaDiagnostic[] {
  const out: NikaDiagnostic[] = [];
  const report = (lit: ExprNode) => {
    if (lit.kind !== 'literal' || typeof lit.value !== 'string' || TASK_STATUSES.includes(lit.value)) return;
    const s = OLD_STATUS[lit.value] ?? closest(lit.value, TASK_STATUSES);
    const quote = ctx.doc.text[lit.span.start] === '"' ? '"' : "'";
    out.push(diag('NIKA-DAG-007', `'${lit.value}' is never a task status (success, failure, skipped, cancelled), so this comparison never holds.${didYouMean(s)}`, lit.span, 'error',
      s ? replaceFix(`Change to '${s}'`, lit.span, `${quote}${s}${quote}`) : undefined));
  };
  const visit = (n: ExprNode | undefined): void => {
    if (!n) return;
    if (n.kind === 'binary') {
      if (n.op === '==' || n.op === '!=') {
        if (isStatusRef(n.left)) report(n.right);
        if (isStatusRef(n.right)) report(n.left);
      } else if (n.op === 'in' && isStatusRef(n.left) && n.right.kind === 'list') {
        n.right.items.forEach(report);
      }
      visit(n.left); visit(n.right);
    } else if (n.kind === 'unary') visit(n.operand);
    else if (n.kind === 'ternary') { visit(n.test); visit(n.consequent); visit(n.alternate); }
    else if (n.kind === 'call') { visit(n.target); n.args.forEach(visit); }
    else if (n.kind === 'list') n.items.forEach(visit);
  };
  for (const site of semanticModel(ctx).sites) if (site.syntax === 'expr') visit(site.ast);
  return out;
}
