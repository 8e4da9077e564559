// Contract of the `${{ }}` expression module (cel-subset/0.1, reference §4). Implemented in
// core/expr/*.ts; everything that reads expressions (checks, completion, hover, engine) goes
// through these types.
import type { Span } from '../text.js';

/** One `${{ … }}` occurrence inside a string. Offsets are relative to the string's own text. */
export interface Island {
  /** Offset of `$` of `${{`. */
  start: number;
  /** Offset just past `}}` (or the string end when unclosed). */
  end: number;
  /** The expression source between `${{` and `}}`, untrimmed. */
  source: string;
  /** Offset of `source` in the string. */
  sourceStart: number;
  closed: boolean;
  /** Length of the (even) backslash run right before `${{`; it renders as half as many backslashes. */
  backslashes?: number;
}

export type ExprNode =
  | { kind: 'literal'; value: string | number | boolean | null; span: Span }
  | { kind: 'ident'; name: string; span: Span }
  | { kind: 'member'; object: ExprNode; property: string; propertySpan: Span; span: Span }
  | { kind: 'index'; object: ExprNode; index: ExprNode; span: Span }
  | { kind: 'call'; callee: string; calleeSpan: Span; target?: ExprNode; args: ExprNode[]; span: Span }
  | { kind: 'list'; items: ExprNode[]; span: Span }
  | { kind: 'unary'; op: '!' | '-'; operand: ExprNode; span: Span }
  | { kind: 'binary'; op: '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in'; left: ExprNode; right: ExprNode; span: Span }
  | { kind: 'ternary'; test: ExprNode; consequent: ExprNode; alternate: ExprNode; span: Span };

export interface ExprError { code: string; message: string; span: Span }

/** A dotted reference such as `tasks.fetch.output.items[0]` found in an expression. */
export interface Reference {
  root: string;
  rootSpan: Span;
  /** Static segments after the root (`['fetch', 'output', 'items']`); stops at the first dynamic index. */
  segments: Array<{ name: string; span: Span }>;
  span: Span;
}
