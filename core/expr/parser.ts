// Recursive-descent parser for cel-subset/0.1 (reference §4.2). Every rejection is NIKA-VAR-005;
// on error the parser keeps going and returns a best-effort tree (missing operands become empty
// identifiers, missing member names empty properties) so completion can still use it.
import type { ExprError, ExprNode } from './api.js';
import type { Span } from '../text.js';
import { CEL_FUNCTIONS, CEL_METHODS } from '../catalog/cel.js';
import { tokenize, VAR_005, type Token } from './lexer.js';

type BinaryOp = Extract<ExprNode, { kind: 'binary' }>['op'];

const RELATIONS = new Set(['==', '!=', '<', '<=', '>', '>=', 'in']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
const MAX_DEPTH = 400;
const MAX_TOKENS = 2000;

export function parseExpression(src: string, base = 0): { ast?: ExprNode; errors: ExprError[] } {
  const errors: ExprError[] = [];
  const tokens = tokenize(src, base, errors);
  if (tokens.length === 1) {
    errors.push({ code: VAR_005, message: 'empty expression', span: { start: base, end: base + src.length } });
    return { errors };
  }
  // Bounds the tree so evaluation and tree walks stay far from the JS stack limit.
  if (tokens.length > MAX_TOKENS) {
    errors.push({ code: VAR_005, message: `expression is too long (${tokens.length - 1} tokens, at most ${MAX_TOKENS})`, span: { start: base, end: base + src.length } });
    return { errors };
  }
  const parser = new Parser(tokens, errors);
  const ast = parser.parseTop();
  // Lexer and parser report in their own order; callers expect document order.
  errors.sort((a, b) => a.span.start - b.span.start);
  return { ast, errors };
}

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly reported = new Set<number>();

  constructor(private readonly tokens: Token[], private readonly errors: ExprError[]) {
    for (const e of errors) this.reported.add(e.span.start);
  }

  parseTop(): ExprNode {
    const node = this.parseExpr();
    const t = this.peek();
    if (t.kind !== 'eof') {
      this.error(`unexpected ${describe(t)}`, t);
      this.pos = this.tokens.length - 1;
    }
    return node;
  }

  // ── precedence levels, loosest first ────────────────────────────────────────────────────────

  private parseExpr(): ExprNode {
    const node = this.parseTernary();
    while (this.isOp('|')) this.skipFilter();
    return node;
  }

  /** Deep nesting only comes from generated or hostile input; stop before the JS stack does. */
  private nested(parse: () => ExprNode): ExprNode {
    if (this.depth >= MAX_DEPTH) {
      const t = this.peek();
      this.error('expression is nested too deeply', t);
      this.pos = this.tokens.length - 1;
      return placeholder(t.start, t.start);
    }
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private parseTernary(): ExprNode {
    return this.nested(() => this.parseTernaryInner());
  }

  private parseTernaryInner(): ExprNode {
    const test = this.parseOr();
    if (!this.isOp('?')) return test;
    this.next();
    const consequent = this.parseTernary();
    this.expectOp(':');
    const alternate = this.parseTernary();
    return { kind: 'ternary', test, consequent, alternate, span: cover(test.span, alternate.span) };
  }

  private parseOr(): ExprNode {
    let left = this.parseAnd();
    while (this.isOp('||')) {
      this.next();
      const right = this.parseAnd();
      left = binary('||', left, right);
    }
    return left;
  }

  private parseAnd(): ExprNode {
    let left = this.parseRelation();
    while (this.isOp('&&')) {
      this.next();
      const right = this.parseRelation();
      left = binary('&&', left, right);
    }
    return left;
  }

  private parseRelation(): ExprNode {
    const left = this.parseOperand();
    const op = this.relationOp();
    if (!op) return left;
    this.next();
    const node = binary(op, left, this.parseOperand());
    const first = op;
    // Non-associative: report the second operator, keep the first relation.
    for (let extra = this.relationOp(); extra; extra = this.relationOp()) {
      const t = this.next();
      this.error(`chained comparison: '${first}' and '${extra}' cannot be combined without parentheses; join two comparisons with && instead`, t);
      this.parseOperand();
    }
    return node;
  }

  /** A unary expression, with any arithmetic tail reported and dropped. */
  private parseOperand(): ExprNode {
    const node = this.parseUnary();
    while (this.peek().kind === 'op' && ARITHMETIC.has(this.peek().text)) {
      const t = this.next();
      this.error(`arithmetic operator '${t.text}' is not part of cel-subset/0.1 (compute the value in a task, e.g. with nika:jq)`, t);
      this.parseUnary();
    }
    return node;
  }

  private parseUnary(): ExprNode {
    const bangs: Token[] = [];
    while (this.isOp('!')) bangs.push(this.next());
    let node = this.parsePostfix(this.parsePrimary());
    for (let i = bangs.length - 1; i >= 0; i--) node = { kind: 'unary', op: '!', operand: node, span: cover(bangs[i], node.span) };
    return node;
  }

  private parsePostfix(node: ExprNode): ExprNode {
    for (;;) {
      if (this.isOp('.')) {
        const dot = this.next();
        const t = this.peek();
        if (t.kind !== 'ident') {
          this.error(`expected a field name after '.'`, t.kind === 'eof' ? dot : t);
          const propertySpan = { start: dot.end, end: dot.end };
          return { kind: 'member', object: node, property: '', propertySpan, span: cover(node.span, propertySpan) };
        }
        this.next();
        if (this.isOp('(')) {
          node = this.finishCall(t, node);
        } else {
          node = { kind: 'member', object: node, property: t.text, propertySpan: spanOf(t), span: cover(node.span, t) };
        }
      } else if (this.isOp('[')) {
        this.next();
        const index = this.parseExpr();
        const close = this.expectOp(']');
        node = { kind: 'index', object: node, index, span: cover(node.span, close ?? index.span) };
      } else if (this.isOp('(')) {
        const t = this.peek();
        this.error('only size() and has() can be called as functions', t);
        node = this.finishCall(undefined, node);
      } else {
        return node;
      }
    }
  }

  private parsePrimary(): ExprNode {
    return this.nested(() => this.parsePrimaryInner());
  }

  private parsePrimaryInner(): ExprNode {
    const t = this.peek();
    switch (t.kind) {
      case 'number':
        this.next();
        return { kind: 'literal', value: t.value as number, span: spanOf(t) };
      case 'string':
        this.next();
        return { kind: 'literal', value: t.value as string, span: spanOf(t) };
      case 'ident':
        return this.parseIdent();
      case 'bad':
        this.next();
        return placeholder(t.start, t.end);
      case 'eof':
        this.error('expected an expression', t);
        return placeholder(t.start, t.start);
    }
    if (t.text === '(') {
      this.next();
      const inner = this.parseExpr();
      this.expectOp(')');
      return inner;
    }
    if (t.text === '[') return this.parseList();
    if (t.text === '-') {
      const minus = this.next();
      const n = this.peek();
      if (n.kind === 'number') {
        this.next();
        return { kind: 'literal', value: -(n.value as number), span: cover(minus, n) };
      }
      this.error(`unary minus is only allowed before a number literal`, minus);
      const operand = this.parsePostfix(this.parsePrimary());
      return { kind: 'unary', op: '-', operand, span: cover(minus, operand.span) };
    }
    if (t.text === '{') {
      this.error('map literals are not part of cel-subset/0.1', t);
      this.next();
      return placeholder(t.start, t.end);
    }
    this.error(`expected an expression, found ${describe(t)}`, t);
    // Leave closers to the caller that expects them; anything else is consumed to make progress.
    if (![')', ']', ',', ':'].includes(t.text)) this.next();
    return placeholder(t.start, t.start);
  }

  private parseIdent(): ExprNode {
    const t = this.next();
    switch (t.text) {
      case 'true': return { kind: 'literal', value: true, span: spanOf(t) };
      case 'false': return { kind: 'literal', value: false, span: spanOf(t) };
      case 'null': return { kind: 'literal', value: null, span: spanOf(t) };
      case 'in':
        this.error(`'in' must sit between two operands (x in list)`, t);
        return placeholder(t.start, t.end);
    }
    if (this.isOp('(')) return this.finishCall(t, undefined);
    return { kind: 'ident', name: t.text, span: spanOf(t) };
  }

  private parseList(): ExprNode {
    const open = this.next();
    const items: ExprNode[] = [];
    while (!this.isOp(']') && this.peek().kind !== 'eof') {
      items.push(this.parseExpr());
      if (!this.isOp(',')) break;
      this.next();
    }
    const close = this.expectOp(']');
    return { kind: 'list', items, span: cover(open, close ?? items[items.length - 1]?.span ?? open) };
  }

  /** `callee` is the name token (free call or method); `target` the receiver of a method call. */
  private finishCall(callee: Token | undefined, target: ExprNode | undefined): ExprNode {
    this.next(); // (
    const args: ExprNode[] = [];
    while (!this.isOp(')') && this.peek().kind !== 'eof') {
      args.push(this.parseExpr());
      if (!this.isOp(',')) break;
      this.next();
    }
    const close = this.expectOp(')');
    const calleeSpan = callee ? spanOf(callee) : target!.span;
    const start = target ? target.span : calleeSpan;
    const end = close ?? args[args.length - 1]?.span ?? calleeSpan;
    const node: ExprNode = { kind: 'call', callee: callee?.text ?? '', calleeSpan, target, args, span: cover(start, end) };
    if (callee) this.checkCallable(node as Extract<ExprNode, { kind: 'call' }>);
    return node;
  }

  private checkCallable(node: Extract<ExprNode, { kind: 'call' }>): void {
    const method = node.target !== undefined;
    const spec = (method ? CEL_METHODS : CEL_FUNCTIONS).get(node.callee);
    if (!spec) {
      const known = method ? 'size() contains() startsWith() endsWith()' : 'size() has()';
      const other = (method ? CEL_FUNCTIONS : CEL_METHODS).get(node.callee);
      const hint = other ? ` (${other.signature} is the supported form)` : ` (supported: ${known})`;
      this.error(`${method ? 'method' : 'function'} '${node.callee}()' is not part of cel-subset/0.1${hint}`, node.calleeSpan);
      return;
    }
    if (node.args.length !== spec.arity) {
      this.error(`${spec.signature} takes ${spec.arity} argument${spec.arity === 1 ? '' : 's'}, got ${node.args.length}`, node.span);
      return;
    }
    if (node.callee === 'has' && !method && !isReference(node.args[0])) {
      this.error('has() takes a reference such as has(inputs.name)', node.args[0].span);
    }
  }

  /** `| name` or `| name(args)`: reported once, then skipped. */
  private skipFilter(): void {
    const bar = this.next();
    let end: Span = spanOf(bar);
    if (this.peek().kind === 'ident') {
      end = spanOf(this.next());
      if (this.isOp('(')) {
        let depth = 0;
        do {
          const t = this.next();
          if (t.text === '(') depth++;
          else if (t.text === ')') depth--;
          end = spanOf(t);
        } while (depth > 0 && this.peek().kind !== 'eof');
      }
    }
    this.error(`template filters ('|') are not supported in \${{ }}; transform the value in a task instead`, cover(bar, end));
  }

  // ── token helpers ────────────────────────────────────────────────────────────────────────────

  private relationOp(): BinaryOp | undefined {
    const t = this.peek();
    if ((t.kind === 'op' || t.kind === 'ident') && RELATIONS.has(t.text)) return t.text as BinaryOp;
    if (t.kind === 'op' && t.text === '=') {
      // Read as `==` so the rest still parses; the error makes the mistake visible.
      this.error(`'=' is not an operator; use '==' to compare`, t);
      return '==';
    }
    return undefined;
  }

  private peek(): Token { return this.tokens[this.pos]; }

  private next(): Token {
    const t = this.tokens[this.pos];
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  private isOp(text: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === text;
  }

  private expectOp(text: string): Token | undefined {
    if (this.isOp(text)) return this.next();
    const t = this.peek();
    this.error(`expected '${text}'${t.kind === 'eof' ? '' : `, found ${describe(t)}`}`, t);
    return undefined;
  }

  /** One error per start offset: a bad token otherwise cascades into several reports. */
  private error(message: string, at: Span): void {
    if (this.reported.has(at.start)) return;
    this.reported.add(at.start);
    this.errors.push({ code: VAR_005, message, span: { start: at.start, end: at.end } });
  }
}

function isReference(node: ExprNode): boolean {
  if (node.kind === 'ident') return true;
  if (node.kind === 'member' || node.kind === 'index') return isReference(node.object);
  return false;
}

function binary(op: BinaryOp, left: ExprNode, right: ExprNode): ExprNode {
  return { kind: 'binary', op, left, right, span: cover(left.span, right.span) };
}

/** Stand-in for a missing operand: an empty identifier, which completion treats as "type a root here". */
function placeholder(start: number, end: number): ExprNode {
  return { kind: 'ident', name: '', span: { start, end } };
}

function spanOf(t: Span): Span { return { start: t.start, end: t.end }; }
function cover(a: Span, b: Span): Span { return { start: a.start, end: b.end }; }

function describe(t: Token): string {
  if (t.kind === 'eof') return 'end of expression';
  return `'${t.text}'`;
}
