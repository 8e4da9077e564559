// `nika-run check FILE… [--json]`: the same static checks the editor shows.
import { readFileSync } from 'node:fs';
import { analyze } from '../core/analyze.js';
import type { NikaDiagnostic } from '../core/diagnostic.js';
import { LineIndex } from '../core/text.js';
import { styler } from './style.js';

export interface FileReport {
  path: string;
  dialect: string | null;
  diagnostics: Array<{ code: string; severity: string; message: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }>;
}

/**
 * Errors are findings (the same ones that make `run` refuse a file); warnings count only with
 * --strict, so a legacy file whose only findings are deprecations checks clean, as it runs.
 */
export const isFinding = (d: { severity: string }, strict = false) => d.severity === 'error' || (strict && d.severity === 'warning');

export function checkFile(path: string): FileReport {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const zero = { line: 0, character: 0 };
    return { path, dialect: null, diagnostics: [{ code: 'NIKA-PARSE-001', severity: 'error', message: `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, range: { start: zero, end: zero } }] };
  }
  const a = analyze(text, { uri: path });
  const lines = new LineIndex(text);
  return { path, dialect: a.dialect, diagnostics: a.diagnostics.map((d: NikaDiagnostic) => ({
    code: d.code, severity: d.severity, message: d.message,
    range: { start: lines.positionAt(d.span.start), end: lines.positionAt(d.span.end) },
  })) };
}

export function runCheck(files: string[], json: boolean, strict = false): number {
  const reports = files.map(checkFile);
  const finding = (d: { severity: string }) => isFinding(d, strict);
  const findings = reports.some((r) => r.diagnostics.some(finding));
  if (json) {
    process.stdout.write(JSON.stringify({ files: reports }) + '\n');
    return findings ? 2 : 0;
  }
  const s = styler(process.stdout);
  const sev = (x: string) => (x === 'error' ? s.red(x) : x === 'warning' ? s.yellow(x) : s.dim(x));
  for (const r of reports) {
    for (const d of r.diagnostics) {
      process.stdout.write(`${r.path}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${sev(d.severity)} ${s.bold(d.code)} ${d.message}\n`);
    }
    const n = r.diagnostics.filter(finding).length;
    process.stdout.write(n ? `${s.red('✗')} ${r.path}: ${n} finding${n === 1 ? '' : 's'}\n` : `${s.green('✓')} ${r.path}${r.dialect ? s.dim(` (${r.dialect})`) : ''}\n`);
  }
  return findings ? 2 : 0;
}
