// Semantic tokens inside `${{ }}` (and legacy `{{use.x}}`): delimiters, roots, task ids,
// properties, functions, literals and operators. The YAML around them is left to the grammar.
import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver';
import { CEL_KEYWORDS } from '../../core/catalog/cel.js';
import type { ExprNode } from '../../core/expr/index.js';
import { tokenize } from '../../core/expr/lexer.js';
import type { ExprSite } from '../../core/scan.js';
import type { DocModel } from '../model.js';

export const TOKEN_TYPES = ['namespace', 'variable', 'property', 'function', 'string', 'number', 'operator', 'keyword', 'macro', 'class'] as const;
export const TOKEN_MODIFIERS = ['declaration', 'readonly', 'defaultLibrary'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

export const LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

const NAMESPACES = new Set(['inputs', 'const', 'secrets', 'with', 'tasks', 'group', 'vars', 'env', 'config', 'use']);
const LOCALS = new Set(['item', 'index']);
const OPERATORS = new Set(['||', '&&', '==', '!=', '<', '<=', '>', '>=', '!', '?', ':', '+', '-', '*', '/', '%', '|']);
const KEYWORDS = new Set(CEL_KEYWORDS);

interface Tok { start: number; length: number; type: TokenType; mods: number }

const MOD = { declaration: 1, readonly: 2, defaultLibrary: 4 };

/** Past this many islands the rest of a (pathological) document stays grammar-colored. */
export const MAX_TOKEN_SITES = 10_000;

export function semanticTokens(model: DocModel): SemanticTokens {
  const toks: Tok[] = [];
  for (const site of model.sites.slice(0, MAX_TOKEN_SITES)) collect(model, site, toks);
  return { data: encode(model, toks) };
}

function collect(model: DocModel, site: ExprSite, out: Tok[]): void {
  const push = (start: number, end: number, type: TokenType, mods = 0) => {
    if (end > start) out.push({ start, length: end - start, type, mods });
  };
  const text = model.text;
  // Delimiters, where the source really holds them (escaped or folded scalars may not line up).
  const open = site.syntax === 'expr' ? '${{' : '{{';
  if (text.startsWith(open, site.span.start)) push(site.span.start, site.span.start + open.length, 'macro');
  if (site.island.closed && text.startsWith('}}', site.span.end - 2)) push(site.span.end - 2, site.span.end, 'macro');

  const named = new Map<number, { end: number; type: TokenType; mods: number }>();
  for (const ref of site.references) {
    const root = ref.root;
    if (NAMESPACES.has(root)) named.set(ref.rootSpan.start, { end: ref.rootSpan.end, type: 'namespace', mods: MOD.defaultLibrary });
    else if (LOCALS.has(root)) named.set(ref.rootSpan.start, { end: ref.rootSpan.end, type: 'variable', mods: MOD.readonly });
    else named.set(ref.rootSpan.start, { end: ref.rootSpan.end, type: 'variable', mods: 0 });
    ref.segments.forEach((seg, i) => {
      const type: TokenType = root === 'tasks' && i === 0 ? 'class' : 'property';
      named.set(seg.span.start, { end: seg.span.end, type, mods: root === 'const' ? MOD.readonly : 0 });
    });
  }
  if (site.ast) visitCalls(site.ast, (s, e) => named.set(s, { end: e, type: 'function', mods: MOD.defaultLibrary }));

  if (site.syntax !== 'expr') {
    for (const [s, n] of named) push(s, n.end, n.type, n.mods);
    return;
  }
  const tokens = tokenize(site.island.source, site.sourceSpan.start, []);
  for (const t of tokens) {
    // Only trust offsets where the document holds exactly the token's text.
    if (t.kind === 'eof' || text.slice(t.start, t.end) !== t.text) continue;
    const n = named.get(t.start);
    if (t.kind === 'ident') {
      if (n) push(t.start, t.end, n.type, n.mods);
      else if (KEYWORDS.has(t.text)) push(t.start, t.end, 'keyword');
      else push(t.start, t.end, 'property');
    } else if (t.kind === 'string') {
      push(t.start, t.end, n?.type === 'property' || n?.type === 'class' ? n.type : 'string', n?.mods ?? 0);
    } else if (t.kind === 'number') {
      push(t.start, t.end, 'number');
    } else if (t.kind === 'op' && OPERATORS.has(t.text)) {
      push(t.start, t.end, 'operator');
    }
  }
}

function visitCalls(node: ExprNode, f: (start: number, end: number) => void): void {
  switch (node.kind) {
    case 'call': f(node.calleeSpan.start, node.calleeSpan.end); if (node.target) visitCalls(node.target, f); node.args.forEach((a) => visitCalls(a, f)); return;
    case 'member': visitCalls(node.object, f); return;
    case 'index': visitCalls(node.object, f); visitCalls(node.index, f); return;
    case 'list': node.items.forEach((i) => visitCalls(i, f)); return;
    case 'unary': visitCalls(node.operand, f); return;
    case 'binary': visitCalls(node.left, f); visitCalls(node.right, f); return;
    case 'ternary': visitCalls(node.test, f); visitCalls(node.consequent, f); visitCalls(node.alternate, f); return;
    default: return;
  }
}

/** LSP relative encoding; tokens are sorted, de-overlapped and never cross a line. */
function encode(model: DocModel, toks: Tok[]): number[] {
  const lines = model.analysis.doc.lines;
  toks.sort((a, b) => a.start - b.start || b.length - a.length);
  const data: number[] = [];
  let prevLine = 0;
  let prevChar = 0;
  let lastEnd = -1;
  for (const t of toks) {
    if (t.start < lastEnd) continue;
    const pos = lines.positionAt(t.start);
    const lineEnd = lines.lineEnd(pos.line);
    const length = Math.min(t.length, lineEnd - t.start);
    if (length <= 0) continue;
    lastEnd = t.start + t.length;
    data.push(pos.line - prevLine, pos.line === prevLine ? pos.character - prevChar : pos.character, length, TOKEN_TYPES.indexOf(t.type), t.mods);
    prevLine = pos.line;
    prevChar = pos.character;
  }
  return data;
}

/** Decodes the data array (tests and debugging). */
export function decodeTokens(data: number[]): Array<{ line: number; character: number; length: number; type: TokenType; modifiers: string[] }> {
  const out = [];
  let line = 0;
  let ch = 0;
  for (let i = 0; i + 5 <= data.length; i += 5) {
    line += data[i];
    ch = data[i] === 0 ? ch + data[i + 1] : data[i + 1];
    out.push({
      line, character: ch, length: data[i + 2], type: TOKEN_TYPES[data[i + 3]],
      modifiers: TOKEN_MODIFIERS.filter((_, b) => (data[i + 4] >> b) & 1),
    });
  }
  return out;
}
