// Shared helpers for the semantic check tests: run the full analysis, pick findings by code, read
// back the exact text a finding covers, and apply a quick fix to the document.
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import type { ToolCatalog } from '../../core/catalog/mcp.js';
import type { NikaDiagnostic } from '../../core/diagnostic.js';
import { applyEdits } from '../../core/checks/semantic/edits.js';

export const doc = (...lines: string[]) => lines.join('\n');
export const crlf = (...lines: string[]) => lines.join('\r\n');

export function diagnose(text: string, catalog?: ToolCatalog): NikaDiagnostic[] {
  return analyze(text, { catalog }).diagnostics;
}

export function withCode(text: string, code: string, catalog?: ToolCatalog): NikaDiagnostic[] {
  return diagnose(text, catalog).filter((d) => d.code === code);
}

export function covered(text: string, d: NikaDiagnostic): string {
  return text.slice(d.span.start, d.span.end);
}

/** Exactly one finding with `code`, covering exactly `token`. */
export function one(text: string, code: string, token: string, catalog?: ToolCatalog): NikaDiagnostic {
  const found = withCode(text, code, catalog);
  assert.equal(found.length, 1, `expected one ${code}, got ${found.length}: ${JSON.stringify(found.map((d) => [covered(text, d), d.message]))}`);
  assert.equal(covered(text, found[0]), token);
  return found[0];
}

export function none(text: string, code: string, catalog?: ToolCatalog): void {
  const found = withCode(text, code, catalog);
  assert.deepEqual(found.map((d) => `${covered(text, d)}: ${d.message}`), []);
}

export function fixed(text: string, d: NikaDiagnostic, i = 0): string {
  const fix = d.data?.fixes?.[i];
  assert.ok(fix, `no quick fix on ${d.code}: ${d.message}`);
  return applyEdits(text, fix.edits);
}

/**
 * Exactly one finding with `code` covering exactly `token`, other findings of the code allowed
 * (the structure checks report some shapes generically on the same scalar).
 */
export function oneAt(text: string, code: string, token: string, catalog?: ToolCatalog): NikaDiagnostic {
  const found = withCode(text, code, catalog).filter((d) => covered(text, d) === token);
  assert.equal(found.length, 1, `expected one ${code} on ${token}, got ${found.length}`);
  return found[0];
}
