// A synchronous compile check for jq programs (reference §4.7): `extract:` bindings, literal
// `nika:jq` expressions and `nika:fetch` `jq:`. The engine runs real jq (jq-wasm), which only
// compiles asynchronously, so the editor needs its own pure parser. It accepts jq's grammar
// (pipes, `,`, `//`, `as` bindings, reduce/foreach, if/try, object and array construction,
// string interpolation, formats, `?`, paths) and reports: syntax errors and undefined
// functions/variables (what jq itself would refuse, NIKA-VAR-005 errors), `env`/`$ENV` (refused
// by the engine), and constructs `jq-subset/0.1` refuses by design but the engine still runs
// (warnings).

import { functionTier, OTHER_FORMATS, SUBSET_FORMATS } from './builtins.js';

export interface JqProblem {
  severity: 'error' | 'warning';
  message: string;
  /** Offsets in the program text. */
  start: number;
  end: number;
}

export interface JqInfo {
  problems: JqProblem[];
  /** The program ends in an iteration (`.[]`, `.x[]`) outside any array construction. */
  trailingIterate?: { start: number; end: number };
}

type Tok = { t: 'num' | 'str' | 'ident' | 'field' | 'var' | 'format' | 'op' | 'eof'; v: string; start: number; end: number; parts?: Array<{ start: number; end: number }> };

const KEYWORDS = new Set(['def', 'if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch', 'label', 'import', 'include', 'and', 'or', '__loc__']);
const OPS = ['?//=', '?//', '//=', '|=', '+=', '-=', '*=', '/=', '%=', '==', '!=', '<=', '>=', '//', '..', '|', ',', '+', '-', '*', '/', '%', '=', '<', '>', '.', '[', ']', '(', ')', '{', '}', ':', ';', '?'];

class JqSyntax extends Error {
  constructor(message: string, readonly start: number, readonly end: number) { super(message); }
}

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '#') { while (i < src.length && src[i] !== '\n') i++; continue; }
    const start = i;
    if (c === '"') { out.push(lexString(src, i)); i = out[out.length - 1].end; continue; }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i))!;
      i += m[0].length;
      out.push({ t: 'num', v: m[0], start, end: i });
      continue;
    }
    if (c === '$' || c === '@') {
      const m = /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*/.exec(src.slice(i + 1));
      if (!m) throw new JqSyntax(`unexpected "${c}"`, i, i + 1);
      i += 1 + m[0].length;
      out.push({ t: c === '$' ? 'var' : 'format', v: m[0], start, end: i });
      continue;
    }
    if (c === '.' && /[A-Za-z_]/.test(src[i + 1] ?? '')) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i + 1))!;
      i += 1 + m[0].length;
      out.push({ t: 'field', v: m[0], start, end: i });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*/.exec(src.slice(i))!;
      i += m[0].length;
      out.push({ t: 'ident', v: m[0], start, end: i });
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new JqSyntax(`unexpected character "${c}"`, i, i + 1);
    i += op.length;
    out.push({ t: 'op', v: op, start, end: i });
  }
  out.push({ t: 'eof', v: '', start: src.length, end: src.length });
  return out;
}

/** A string literal; `\( … )` interpolations are kept as sub-spans and parsed as programs. */
function lexString(src: string, at: number): Tok {
  let i = at + 1;
  const parts: Array<{ start: number; end: number }> = [];
  while (i < src.length) {
    const c = src[i];
    if (c === '"') return { t: 'str', v: src.slice(at, i + 1), start: at, end: i + 1, parts };
    if (c === '\\') {
      const n = src[i + 1];
      if (n === '(') {
        let depth = 1;
        let j = i + 2;
        while (j < src.length && depth > 0) {
          if (src[j] === '"') { j = lexString(src, j).end; continue; }
          if (src[j] === '(') depth++;
          else if (src[j] === ')') depth--;
          j++;
        }
        if (depth > 0) throw new JqSyntax('unterminated \\( … ) in a string', i, src.length);
        parts.push({ start: i + 2, end: j - 1 });
        i = j;
        continue;
      }
      if (n === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) throw new JqSyntax('\\u needs four hex digits', i, i + 2);
        i += 6;
        continue;
      }
      if (n === undefined || !'"\\/bfnrt'.includes(n)) throw new JqSyntax(`invalid escape "\\${n ?? ''}" in a string`, i, i + 2);
      i += 2;
      continue;
    }
    i++;
  }
  throw new JqSyntax('unterminated string', at, src.length);
}

class Parser {
  private p = 0;
  problems: JqProblem[] = [];
  private depth = 0;
  constructor(private toks: Tok[], private src: string, private base: number) {}

  private get tok(): Tok { return this.toks[this.p]; }
  private isOp(v: string): boolean { return this.tok.t === 'op' && this.tok.v === v; }
  private isKw(v: string): boolean { return this.tok.t === 'ident' && this.tok.v === v; }
  private next(): Tok { return this.toks[this.p++]; }
  private fail(msg: string, tok = this.tok): never {
    throw new JqSyntax(tok.t === 'eof' ? `${msg}, but the program ends` : `${msg}, found "${tok.v}"`, tok.start, Math.max(tok.end, tok.start + 1));
  }
  private expectOp(v: string): Tok { if (!this.isOp(v)) this.fail(`expected "${v}"`); return this.next(); }
  private expectKw(v: string): Tok { if (!this.isKw(v)) this.fail(`expected "${v}"`); return this.next(); }
  private warn(message: string, start: number, end: number): void { this.problems.push({ severity: 'warning', message, start: this.base + start, end: this.base + end }); }
  private error(message: string, start: number, end: number): void { this.problems.push({ severity: 'error', message, start: this.base + start, end: this.base + end }); }

  program(): { lastIterate?: { start: number; end: number } } {
    const r = this.pipe(new Scope());
    if (this.tok.t !== 'eof') this.fail('unexpected text after the program');
    return r;
  }

  /** Pipe: `def …; Pipe` | `Term as $x | Pipe` | `label $x | Pipe` | Comma ('|' Pipe)? */
  private pipe(scope: Scope): { lastIterate?: { start: number; end: number } } {
    if (++this.depth > 200) this.fail('the program nests too deeply');
    try {
      if (this.isKw('def')) {
        const d = this.next();
        this.warn('def is outside jq-subset/0.1 (refused by design; the engine still runs it)', d.start, d.end);
        const name = this.next();
        if (name.t !== 'ident' || KEYWORDS.has(name.v)) this.fail('expected a function name after def', name);
        const inner = scope.child();
        let arity = 0;
        if (this.isOp('(')) {
          this.next();
          for (;;) {
            const param = this.next();
            if (param.t === 'var') inner.vars.add(param.v);
            else if (param.t === 'ident') inner.funcs.set(`${param.v}/0`, true);
            else this.fail('expected a parameter name', param);
            arity++;
            if (this.isOp(';')) { this.next(); continue; }
            this.expectOp(')');
            break;
          }
        }
        this.expectOp(':');
        inner.funcs.set(`${name.v}/${arity}`, true);
        this.pipe(inner);
        this.expectOp(';');
        scope.funcs.set(`${name.v}/${arity}`, true);
        return this.pipe(scope);
      }
      if (this.isKw('label')) {
        this.next();
        const v = this.next();
        if (v.t !== 'var') this.fail('expected $name after label', v);
        this.expectOp('|');
        const inner = scope.child();
        inner.labels.add(v.v);
        return this.pipe(inner);
      }
      const left = this.comma(scope);
      if (this.isOp('|')) {
        this.next();
        return this.pipe(scope);
      }
      return { lastIterate: left.lastIterate };
    } finally {
      this.depth--;
    }
  }

  private patterns(scope: Scope): void {
    this.pattern(scope);
    while (this.isOp('?//')) { this.next(); this.pattern(scope); }
  }

  private pattern(scope: Scope): void {
    const t = this.tok;
    if (t.t === 'var') { this.next(); scope.vars.add(t.v); return; }
    if (this.isOp('[')) {
      this.next();
      for (;;) { this.pattern(scope); if (this.isOp(',')) { this.next(); continue; } break; }
      this.expectOp(']');
      return;
    }
    if (this.isOp('{')) {
      this.next();
      for (;;) {
        const k = this.tok;
        if (k.t === 'var') { this.next(); scope.vars.add(k.v); if (this.isOp(':')) { this.next(); this.pattern(scope); } }
        else if (k.t === 'ident' || k.t === 'str') { this.next(); this.expectOp(':'); this.pattern(scope); }
        else if (this.isOp('(')) { this.next(); this.pipe(scope); this.expectOp(')'); this.expectOp(':'); this.pattern(scope); }
        else this.fail('expected a key in the object pattern');
        if (this.isOp(',')) { this.next(); continue; }
        break;
      }
      this.expectOp('}');
      return;
    }
    this.fail('expected $name, [ … ] or { … } after as');
  }

  private comma(scope: Scope): { single: boolean; lastIterate?: { start: number; end: number } } {
    let r = this.alt(scope);
    let single = r.single;
    while (this.isOp(',')) { this.next(); r = this.alt(scope); single = false; }
    return { single, lastIterate: r.lastIterate };
  }

  /** `//` and the update-assignment operators (right-associative, loosest above `,`). */
  private alt(scope: Scope): { single: boolean; lastIterate?: { start: number; end: number } } {
    const left = this.orExpr(scope);
    if (this.isOp('//')) { this.next(); const r = this.alt(scope); return { single: false, lastIterate: r.lastIterate }; }
    if (this.tok.t === 'op' && ['=', '|=', '+=', '-=', '*=', '/=', '%=', '//='].includes(this.tok.v)) {
      const op = this.next();
      this.warn(`the assignment operator ${op.v} is outside jq-subset/0.1`, op.start, op.end);
      this.alt(scope);
      return { single: false };
    }
    return left;
  }

  private orExpr(scope: Scope): { single: boolean; lastIterate?: { start: number; end: number } } {
    let left = this.andExpr(scope);
    while (this.isKw('or')) { this.next(); this.andExpr(scope); left = { single: false }; }
    return left;
  }

  private andExpr(scope: Scope): { single: boolean; lastIterate?: { start: number; end: number } } {
    let left = this.compare(scope);
    while (this.isKw('and')) { this.next(); this.compare(scope); left = { single: false }; }
    return left;
  }

  private compare(scope: Scope): { single: boolean; lastIterate?: { start: number; end: number } } {
    const left = this.additive(scope);
    if (this.tok.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(this.tok.v)) {
      this.next();
      this.additive(scope);
      if (this.tok.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(this.tok.v)) this.fail('comparisons do not chain (jq-subset allows one)');
      return { single: false };
    }
    return left;
  }

  private additive(scope: Scope): { single: boolean; lastIterate?: { start: number; end: number } } {
    let left = this.multiplicative(scope);
    while (this.isOp('+') || this.isOp('-')) { this.next(); this.multiplicative(scope); left = { single: false }; }
    return left;
  }

  private multiplicative(scope: Scope): { single: boolean; lastIterate?: { start: number; end: number } } {
    let left = this.unary(scope);
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) { this.next(); this.unary(scope); left = { single: false }; }
    return left;
  }

  private unary(scope: Scope): { single: boolean; lastIterate?: { start: number; end: number } } {
    if (this.isOp('-')) { this.next(); this.postfix(scope); return { single: false }; }
    return this.postfix(scope);
  }

  /** A term with its suffixes: `.a`, `[e]`, `[]`, `?`, `."s"`; records a trailing `[]`. */
  private postfix(scope: Scope, allowAs = true): { single: boolean; lastIterate?: { start: number; end: number } } {
    let lastIterate = this.term(scope);
    for (;;) {
      if (this.tok.t === 'field') { this.next(); lastIterate = undefined; continue; }
      if (this.isOp('.') && this.toks[this.p + 1]?.t === 'str') { this.next(); this.string(scope); lastIterate = undefined; continue; }
      if (this.isOp('.') && this.toks[this.p + 1]?.t === 'op' && this.toks[this.p + 1].v === '[') { this.next(); continue; }
      if (this.isOp('[')) { lastIterate = this.bracket(scope); continue; }
      if (this.isOp('?')) { this.next(); continue; }
      break;
    }
    // `Term as $x | body`: the body reaches as far right as it can (as in jq's grammar), so the
    // binding is handled here, where the term ends, whatever operator came before it.
    if (allowAs && this.isKw('as')) {
      this.next();
      const inner = scope.child();
      this.patterns(inner);
      this.expectOp('|');
      return { single: false, lastIterate: this.pipe(inner).lastIterate };
    }
    return { single: true, lastIterate };
  }

  /** `[]`, `[e]`, `[e:e]` after a term. Returns the span of an iteration. */
  private bracket(scope: Scope): { start: number; end: number } | undefined {
    const open = this.next();
    if (this.isOp(']')) { const close = this.next(); return { start: open.start, end: close.end }; }
    if (this.isOp(':')) { this.next(); this.pipe(scope); const c = this.expectOp(']'); this.warn('slices are outside jq-subset/0.1', open.start, c.end); return undefined; }
    this.pipe(scope);
    if (this.isOp(':')) {
      this.next();
      if (!this.isOp(']')) this.pipe(scope);
      const c = this.expectOp(']');
      this.warn('slices are outside jq-subset/0.1', open.start, c.end);
      return undefined;
    }
    this.expectOp(']');
    return undefined;
  }

  private string(scope: Scope): void {
    const s = this.next();
    for (const part of s.parts ?? []) {
      const sub = checkJqProgram(this.src.slice(part.start, part.end), this.base + part.start, scope);
      this.problems.push(...sub.problems);
      if (sub.problems.some((x) => x.severity === 'error' && x.message.startsWith('jq syntax'))) throw new JqSyntax('', -1, -1);
    }
  }

  /** Returns the span of a bare iteration term (`.[]`), for the trailing-iterate lint. */
  private term(scope: Scope): { start: number; end: number } | undefined {
    const t = this.tok;
    switch (t.t) {
      case 'num': this.next(); return undefined;
      case 'str': this.string(scope); return undefined;
      case 'field': this.next(); return undefined;
      case 'format': {
        this.next();
        if (!SUBSET_FORMATS.has(t.v)) {
          if (OTHER_FORMATS.has(t.v)) this.warn(`@${t.v} is outside jq-subset/0.1`, t.start, t.end);
          else this.error(`@${t.v} is not a jq format`, t.start, t.end);
        }
        if (this.tok.t === 'str') this.string(scope);
        return undefined;
      }
      case 'var': {
        this.next();
        if (t.v === 'ENV') this.error('$ENV is not available to workflows (pass values in with with: or the input instead)', t.start, t.end);
        else if (t.v !== '__loc__' && t.v !== '__prog_args' && !scope.hasVar(t.v)) this.error(`$${t.v} is not defined`, t.start, t.end);
        return undefined;
      }
      case 'ident': return this.identTerm(scope);
      case 'op': break;
      case 'eof': this.fail('expected a value');
    }
    if (t.v === '.') {
      this.next();
      if (this.tok.t === 'str') { this.string(scope); return undefined; }
      if (this.isOp('[')) return this.bracket(scope);
      return undefined;
    }
    if (t.v === '..') {
      this.next();
      this.warn('.. (recursive descent) is outside jq-subset/0.1', t.start, t.end);
      return undefined;
    }
    if (t.v === '(') { this.next(); this.pipe(scope); this.expectOp(')'); return undefined; }
    if (t.v === '[') {
      this.next();
      if (!this.isOp(']')) this.pipe(scope);
      this.expectOp(']');
      return undefined;
    }
    if (t.v === '{') { this.object(scope); return undefined; }
    this.fail('expected a value');
  }

  private identTerm(scope: Scope): undefined {
    const t = this.next();
    switch (t.v) {
      case 'if': {
        this.pipe(scope); this.expectKw('then'); this.pipe(scope);
        while (this.isKw('elif')) { this.next(); this.pipe(scope); this.expectKw('then'); this.pipe(scope); }
        if (this.isKw('else')) { this.next(); this.pipe(scope); }
        this.expectKw('end');
        return undefined;
      }
      case 'try': {
        this.postfix(scope, false);
        if (this.isKw('catch')) { this.next(); this.postfix(scope, false); }
        return undefined;
      }
      case 'reduce': case 'foreach': {
        this.postfix(scope, false);
        this.expectKw('as');
        const inner = scope.child();
        this.patterns(inner);
        this.expectOp('(');
        this.pipe(scope);
        this.expectOp(';');
        this.pipe(inner);
        if (t.v === 'foreach' && this.isOp(';')) { this.next(); this.pipe(inner); }
        this.expectOp(')');
        if (t.v === 'foreach') this.warn('foreach is outside jq-subset/0.1 (reduce is in it)', t.start, t.end);
        return undefined;
      }
      case 'break': {
        const v = this.next();
        if (v.t !== 'var' || !scope.hasLabel(v.v)) this.error('break needs a $label declared with label', t.start, v.end);
        return undefined;
      }
      case 'true': case 'false': case 'null': return undefined;
    }
    if (KEYWORDS.has(t.v)) this.fail(`unexpected keyword "${t.v}"`, t);
    let arity = 0;
    if (this.isOp('(')) {
      this.next();
      for (;;) { this.pipe(scope); arity++; if (this.isOp(';')) { this.next(); continue; } break; }
      this.expectOp(')');
    }
    this.judgeCall(scope, t, arity);
    return undefined;
  }

  private judgeCall(scope: Scope, t: Tok, arity: number): void {
    if (scope.hasFunc(`${t.v}/${arity}`)) return;
    const { tier, arities } = functionTier(t.v, arity);
    switch (tier) {
      case 'subset': return;
      case 'enforced': this.error(`${t.v} is not available to workflows (pass values in with with: or the input instead)`, t.start, t.end); return;
      case 'refused': this.warn(`${t.v} is outside jq-subset/0.1 (refused by design; the engine still runs it today)`, t.start, t.end); return;
      case 'other': this.warn(`${t.v}/${arity} is outside jq-subset/0.1`, t.start, t.end); return;
      case 'unknown':
        this.error(arities ? `${t.v} takes ${arities.map((a) => `${a}`).join(' or ')} argument${arities.length === 1 && arities[0] === 1 ? '' : 's'}, not ${arity}` : `${t.v}/${arity} is not a jq function`, t.start, t.end);
    }
  }

  private object(scope: Scope): void {
    this.expectOp('{');
    if (this.isOp('}')) { this.next(); return; }
    for (;;) {
      const k = this.tok;
      if (k.t === 'var') {
        this.term(scope);
      } else if (k.t === 'ident' || k.t === 'num') {
        if (k.t === 'num') this.fail('object keys are names or strings');
        this.next();
      } else if (k.t === 'str') {
        this.string(scope);
      } else if (k.t === 'format') {
        this.term(scope);
      } else if (this.isOp('(')) {
        this.next(); this.pipe(scope); this.expectOp(')');
        if (!this.isOp(':')) this.fail('a computed key needs a value');
      } else {
        this.fail('expected an object key');
      }
      if (this.isOp(':')) {
        this.next();
        this.objectValue(scope);
      }
      if (this.isOp(',')) { this.next(); continue; }
      break;
    }
    this.expectOp('}');
  }

  /** Object values bind tighter than `,` (which separates entries); `|` is allowed inside. */
  private objectValue(scope: Scope): void {
    this.alt(scope);
    while (this.isOp('|')) { this.next(); this.alt(scope); }
  }
}

class Scope {
  vars = new Set<string>();
  funcs = new Map<string, boolean>();
  labels = new Set<string>();
  constructor(private parent?: Scope) {}
  child(): Scope { return new Scope(this); }
  hasVar(v: string): boolean { return this.vars.has(v) || !!this.parent?.hasVar(v); }
  hasFunc(f: string): boolean { return this.funcs.has(f) || !!this.parent?.hasFunc(f); }
  hasLabel(l: string): boolean { return this.labels.has(l) || !!this.parent?.hasLabel(l); }
}

/**
 * Checks a jq program. `base` is added to every offset (so interpolations report in the outer
 * program's offsets); `scope` carries the variables an enclosing program bound.
 */
export function checkJqProgram(src: string, base = 0, scope?: Scope): JqInfo {
  let toks: Tok[];
  try {
    toks = lex(src);
  } catch (e) {
    const s = e as JqSyntax;
    return { problems: [{ severity: 'error', message: `jq syntax: ${s.message}`, start: base + s.start, end: base + Math.max(s.end, s.start + 1) }] };
  }
  if (toks.length === 1) return { problems: [{ severity: 'error', message: 'jq syntax: the program is empty (use . for the whole value)', start: base, end: base + src.length }] };
  const parser = new Parser(toks, src, base);
  try {
    const r = (scope ? parserWithScope(parser, scope) : parser.program());
    return { problems: parser.problems, trailingIterate: r.lastIterate && { start: base + r.lastIterate.start, end: base + r.lastIterate.end } };
  } catch (e) {
    const s = e as JqSyntax;
    if (s.start < 0) return { problems: parser.problems };
    return { problems: [...parser.problems, { severity: 'error', message: `jq syntax: ${s.message}`, start: base + s.start, end: base + Math.max(s.end, s.start + 1) }] };
  }
}

function parserWithScope(parser: Parser, scope: Scope): { lastIterate?: { start: number; end: number } } {
  // Interpolations see the variables bound around them.
  const p = parser as unknown as { pipe(s: Scope): { lastIterate?: { start: number; end: number } }; tok: Tok; fail(m: string): never };
  const r = p.pipe(scope.child());
  if (p.tok.t !== 'eof') p.fail('unexpected text after the program');
  return r;
}
