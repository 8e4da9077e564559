// NikaDiagnostic → LSP Diagnostic. The Nika code is the LSP code; `data` rides along untouched so
// code actions can rebuild the fixes from what the client sends back.
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import type { NikaDiagnostic, Severity } from '../../core/diagnostic.js';
import type { LineIndex } from '../../core/text.js';
import type { DocModel } from '../model.js';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** A client drowning in thousands of squiggles helps nobody; the first ones carry the signal. */
export const MAX_DIAGNOSTICS = 1000;

export function toLspDiagnostic(lines: LineIndex, d: NikaDiagnostic): Diagnostic {
  const out: Diagnostic = {
    range: lines.rangeOf(d.span),
    severity: SEVERITY[d.severity] ?? DiagnosticSeverity.Error,
    code: d.code,
    source: 'nika',
    message: d.message,
  };
  if (d.tags?.length) {
    out.tags = d.tags.map((t) => (t === 'unnecessary' ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated));
  }
  if (d.data) out.data = d.data;
  return out;
}

export function diagnostics(model: DocModel): Diagnostic[] {
  const lines = model.analysis.doc.lines;
  return model.analysis.diagnostics.slice(0, MAX_DIAGNOSTICS).map((d) => toLspDiagnostic(lines, d));
}
