// What an expression's value type is, as far as the tree alone tells. The checker uses it for
// `when:` (reference §4.5: a statically non-boolean root such as `${{ inputs.flag }}` is
// NIKA-VAR-005, so relations, logic, has() and the string predicates are the boolean forms).
import type { ExprNode } from './api.js';

export type StaticType = 'bool' | 'number' | 'string' | 'null' | 'list' | 'unknown';

export function staticType(node: ExprNode): StaticType {
  switch (node.kind) {
    case 'literal':
      if (node.value === null) return 'null';
      return typeof node.value === 'boolean' ? 'bool' : typeof node.value === 'number' ? 'number' : 'string';
    case 'list': return 'list';
    case 'binary': return 'bool';
    case 'unary': return node.op === '!' ? 'bool' : 'number';
    case 'call':
      if (node.callee === 'size') return 'number';
      if (['has', 'contains', 'startsWith', 'endsWith'].includes(node.callee)) return 'bool';
      return 'unknown';
    case 'ternary': {
      const a = staticType(node.consequent);
      return a === staticType(node.alternate) ? a : 'unknown';
    }
    default: return 'unknown';
  }
}
