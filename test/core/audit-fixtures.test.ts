// Golden fixtures for the authority audit: a clean workflow declaring exactly what it uses, and a
// file whose lines say (`# want CODE token`) which audit finding they must produce.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../core/analyze.js';
import { AUDIT_CHECKS } from '../../core/checks/audit/index.js';
import { EMPTY_CATALOG } from '../../core/catalog/mcp.js';

const dir = join(__dirname, '..', 'fixtures', 'audit');

function audited(text: string) {
  const an = analyze(text, { skipChecks: true });
  const ctx = { doc: an.doc, dialect: an.dialectInfo, workflow: an.workflow, catalog: EMPTY_CATALOG };
  return { an, diags: AUDIT_CHECKS.flatMap((c) => c(ctx)) };
}

test('fixture clean.nika.yaml: no audit findings, and no error from any check', () => {
  const text = readFileSync(join(dir, 'clean.nika.yaml'), 'utf8');
  assert.deepEqual(audited(text).diags.map((d) => `${d.code} ${text.slice(d.span.start, d.span.end)}: ${d.message}`), []);
  const errors = analyze(text).diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(errors.map((d) => `${d.code} ${text.slice(d.span.start, d.span.end)}: ${d.message}`), []);
});

test('fixture mistakes.nika.yaml: exactly the findings its # want comments name', () => {
  const text = readFileSync(join(dir, 'mistakes.nika.yaml'), 'utf8');
  const { an, diags } = audited(text);
  const want: string[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /# want (.+)$/.exec(line);
    if (!m) return;
    for (const item of m[1].split(/,\s(?=NIKA-)/)) {
      const [code, ...token] = item.trim().split(' ');
      want.push(`${i + 1} ${code} ${token.join(' ')}`);
    }
  });
  const got = diags.map((d) => `${an.doc.lines.positionAt(d.span.start).line + 1} ${d.code} ${text.slice(d.span.start, d.span.end)}`);
  assert.deepEqual([...got].sort(), [...want].sort());
});
