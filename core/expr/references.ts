// Reference chains (`tasks.fetch.output['k-dash'].x`) for the checker, navigation and the DAG
// builder. A chain stops at the first segment that is not statically a name (numeric or computed
// index, or a method call); expressions inside computed indexes are references of their own.
import type { ExprNode, Reference } from './api.js';

type Segment = Reference['segments'][number];

export function collectReferences(ast: ExprNode): Reference[] {
  const out: Reference[] = [];
  visit(ast, out);
  return out.sort((a, b) => a.span.start - b.span.start);
}

function visit(node: ExprNode, out: Reference[]): void {
  switch (node.kind) {
    case 'literal':
      return;
    case 'ident':
    case 'member':
    case 'index': {
      const chain = referenceChain(node, out);
      if (chain) out.push(chain);
      return;
    }
    case 'call':
      if (node.target) visit(node.target, out);
      for (const a of node.args) visit(a, out);
      return;
    case 'list':
      for (const item of node.items) visit(item, out);
      return;
    case 'unary':
      visit(node.operand, out);
      return;
    case 'binary':
      visit(node.left, out);
      visit(node.right, out);
      return;
    case 'ternary':
      visit(node.test, out);
      visit(node.consequent, out);
      visit(node.alternate, out);
      return;
  }
}

/**
 * Builds the reference for a member/index/ident node, visiting any non-static parts (computed
 * indexes, non-reference bases) on the way. Returns undefined when the chain has no identifier root.
 */
function referenceChain(node: ExprNode, out: Reference[]): Reference | undefined {
  // Unwind the chain from the outside in, then replay it from the root.
  const steps: ExprNode[] = [];
  let base = node;
  while (base.kind === 'member' || base.kind === 'index') {
    steps.push(base);
    base = base.object;
  }
  if (base.kind !== 'ident' || base.name === '') {
    // An empty identifier is the parser's placeholder for a missing operand: nothing to collect.
    if (base.kind !== 'ident') visit(base, out);
    for (const s of steps) if (s.kind === 'index') visit(s.index, out);
    return undefined;
  }
  const segments: Segment[] = [];
  let end = base.span.end;
  let open = true;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    const seg = open ? staticSegment(step) : undefined;
    if (seg) {
      segments.push(seg);
      end = step.span.end;
      continue;
    }
    open = false;
    if (step.kind === 'index') visit(step.index, out);
  }
  return { root: base.name, rootSpan: base.span, segments, span: { start: base.span.start, end } };
}

function staticSegment(step: ExprNode): Segment | undefined {
  if (step.kind === 'member') return step.property === '' ? undefined : { name: step.property, span: step.propertySpan };
  if (step.kind === 'index' && step.index.kind === 'literal' && typeof step.index.value === 'string') {
    return { name: step.index.value, span: step.index.span };
  }
  return undefined;
}
