// Shared helpers for the authority-audit tests: analyze a text, pick findings by code, read the
// text a finding covers, and apply a quick fix.
import { analyze } from '../../core/analyze.js';
import type { NikaDiagnostic } from '../../core/diagnostic.js';
import { applyEdits } from '../../core/checks/semantic/edits.js';

export const AUDIT_CODES = /^NIKA-(AUTH|SEC)-/;

export function run(text: string) {
  const a = analyze(text);
  return { a, diags: a.diagnostics };
}

export function findings(text: string, code?: string | RegExp): NikaDiagnostic[] {
  return analyze(text).diagnostics.filter((d) => code === undefined || (typeof code === 'string' ? d.code === code : code.test(d.code)));
}

/** `CODE@covered text` for every AUTH/SEC finding, in order. */
export function audit(text: string): string[] {
  return analyze(text).diagnostics.filter((d) => AUDIT_CODES.test(d.code)).map((d) => `${d.code}@${text.slice(d.span.start, d.span.end)}`);
}

export function applyFix(text: string, d: NikaDiagnostic, i = 0): string {
  const fix = d.data?.fixes?.[i];
  if (!fix) throw new Error(`no fix on ${d.code}: ${d.message}`);
  return applyEdits(text, fix.edits);
}
