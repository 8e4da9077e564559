import type { Span } from './text.js';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A finding of the static checks. `code` is a Nika code (NIKA-PARSE-005 …) or a lint rule id. */
export interface NikaDiagnostic {
  code: string;
  severity: Severity;
  message: string;
  span: Span;
  /** What a quick fix needs (replacement text, suggestions, inferred blocks …). */
  data?: DiagnosticData;
  /** Rendered faded (deprecated spelling) or struck through. */
  tags?: Array<'unnecessary' | 'deprecated'>;
}

export interface DiagnosticData {
  /** Text edits that fix the finding, in offsets of the current document. */
  fixes?: Array<{ title: string; edits: Array<{ span: Span; newText: string }>; preferred?: boolean }>;
  [k: string]: unknown;
}

export function diag(code: string, message: string, span: Span, severity: Severity = 'error', data?: DiagnosticData): NikaDiagnostic {
  return data ? { code, severity, message, span, data } : { code, severity, message, span };
}
