// Runs only the structure checks on an in-memory document and reports ranges as an editor
// would show them (0-based line / UTF-16 character).
import { EMPTY_CATALOG } from '../../core/catalog/mcp.js';
import { STRUCTURE_CHECKS } from '../../core/checks/structure/index.js';
import type { NikaDiagnostic } from '../../core/diagnostic.js';
import { detectDialect } from '../../core/dialect.js';
import { parseNikaDocument, type NikaDocument } from '../../core/document.js';
import { normalize } from '../../core/normalize.js';

export interface Shown {
  code: string;
  severity: string;
  message: string;
  /** "line:col-line:col", 0-based. */
  range: string;
  text: string;
  d: NikaDiagnostic;
}

export function structure(text: string): { doc: NikaDocument; dialect: string; all: Shown[]; errors: Shown[] } {
  const doc = parseNikaDocument(text);
  const info = detectDialect(doc.root);
  const ctx = { doc, dialect: info, workflow: normalize(doc, info), catalog: EMPTY_CATALOG };
  const diags = [...doc.parseDiagnostics, ...STRUCTURE_CHECKS.flatMap((c) => c(ctx))];
  const all = diags.map((d) => {
    const s = doc.lines.positionAt(d.span.start);
    const e = doc.lines.positionAt(d.span.end);
    return { code: d.code, severity: d.severity, message: d.message, range: `${s.line}:${s.character}-${e.line}:${e.character}`, text: text.slice(d.span.start, d.span.end), d };
  });
  return { doc, dialect: info.dialect, all, errors: all.filter((x) => x.severity === 'error') };
}

/** The one diagnostic with this code (fails loudly when there are none or several). */
export function only(list: Shown[], code: string): Shown {
  const found = list.filter((x) => x.code === code);
  if (found.length !== 1) throw new Error(`expected exactly one ${code}, got ${found.length}: ${JSON.stringify(list.map((x) => [x.code, x.range, x.message]), null, 1)}`);
  return found[0];
}

/** Applies the first fix of a diagnostic to the text. */
export function applyFix(text: string, d: NikaDiagnostic, index = 0): string {
  const f = d.data?.fixes?.[index];
  if (!f) throw new Error(`no fix on ${d.code}: ${d.message}`);
  const edits = [...f.edits].sort((a, b) => b.span.start - a.span.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}
