// Tokenizer for cel-subset/0.1. Operators outside the subset (`+ - * / % |`) are still produced as
// tokens so the parser can name the offence precisely instead of reporting a generic syntax error.
import type { ExprError } from './api.js';

export type TokenKind = 'number' | 'string' | 'ident' | 'op' | 'bad' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Operator/punctuation text, identifier name, or raw text for numbers and bad tokens. */
  text: string;
  /** Decoded value of number and string literals. */
  value?: number | string;
  start: number;
  end: number;
}

export const VAR_005 = 'NIKA-VAR-005';

const OPERATORS = ['||', '&&', '==', '!=', '<=', '>=', '<', '>', '!', '?', ':', '.', ',', '(', ')', '[', ']', '+', '-', '*', '/', '%', '|', '{', '}', '='];
const STRING_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t' };

const isDigit = (c: string) => c >= '0' && c <= '9';
const isIdentStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isIdentPart = (c: string) => isIdentStart(c) || isDigit(c);

/** Offsets in tokens and errors are `base + index in src`. */
export function tokenize(src: string, base: number, errors: ExprError[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const err = (message: string, start: number, end: number) =>
    errors.push({ code: VAR_005, message, span: { start: base + start, end: base + end } });

  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    const start = i;

    if (isDigit(c)) {
      while (isDigit(src[i] ?? '')) i++;
      if (src[i] === '.' && isDigit(src[i + 1] ?? '')) {
        i++;
        while (isDigit(src[i] ?? '')) i++;
      }
      // `1e3`, `0x1F`, `10ms`: swallow the tail so the message names the whole bad literal.
      if (isIdentPart(src[i] ?? '')) {
        while (isIdentPart(src[i] ?? '')) i++;
        err(`invalid number literal '${src.slice(start, i)}' (only decimal integers and decimals like 1.5 are allowed)`, start, i);
        tokens.push({ kind: 'bad', text: src.slice(start, i), start: base + start, end: base + i });
        continue;
      }
      const text = src.slice(start, i);
      tokens.push({ kind: 'number', text, value: Number(text), start: base + start, end: base + i });
      continue;
    }

    if (isIdentStart(c)) {
      while (isIdentPart(src[i] ?? '')) i++;
      const text = src.slice(start, i);
      tokens.push({ kind: 'ident', text, start: base + start, end: base + i });
      continue;
    }

    if (c === "'" || c === '"') {
      i++;
      let value = '';
      let closed = false;
      while (i < src.length) {
        const d = src[i];
        if (d === c) { closed = true; i++; break; }
        if (d === '\\') {
          const e = src[i + 1];
          if (e !== undefined && e in STRING_ESCAPES) { value += STRING_ESCAPES[e]; i += 2; continue; }
          err(`unsupported escape '\\${e ?? ''}' in string (allowed: \\\\ \\' \\" \\n \\t)`, i, Math.min(i + 2, src.length));
          i += e === undefined ? 1 : 2;
          continue;
        }
        value += d;
        i++;
      }
      if (!closed) err('unterminated string literal', start, i);
      tokens.push({ kind: 'string', text: src.slice(start, i), value, start: base + start, end: base + i });
      continue;
    }

    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      i += op.length;
      tokens.push({ kind: 'op', text: op, start: base + start, end: base + i });
      continue;
    }

    // One code point, so a surrogate pair is reported as one character.
    const cp = String.fromCodePoint(src.codePointAt(i)!);
    i += cp.length;
    err(`unexpected character '${cp}'`, start, i);
    tokens.push({ kind: 'bad', text: cp, start: base + start, end: base + i });
  }
  tokens.push({ kind: 'eof', text: '', start: base + src.length, end: base + src.length });
  return tokens;
}
