// Valid workflows that exercise every deep rule must stay clean, and the shipped examples must get
// no finding from the deep checks (types, profile, liveness, jq, builtin rules, lints).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../core/analyze.js';
import { DEEP_CHECKS } from '../../core/checks/deep/index.js';
import { EMPTY_CATALOG } from '../../core/catalog/mcp.js';

const root = join(__dirname, '..', '..');

function show(text: string, ds: Array<{ code: string; span: { start: number }; message: string }>): string[] {
  return ds.map((d) => `${d.code} @${text.slice(0, d.span.start).split('\n').length}: ${d.message}`);
}

for (const name of readdirSync(join(root, 'test/fixtures/deep')).filter((f) => f.endsWith('.nika.yaml'))) {
  test(`clean fixture ${name}: no error or warning at all`, () => {
    const text = readFileSync(join(root, 'test/fixtures/deep', name), 'utf8');
    const found = analyze(text).diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
    assert.deepEqual(show(text, found), []);
  });
}

for (const name of readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.nika.yaml'))) {
  test(`example ${name}: nothing from the deep checks`, () => {
    const text = readFileSync(join(root, 'examples', name), 'utf8');
    const a = analyze(text, { skipChecks: true });
    const ctx = { doc: a.doc, dialect: a.dialectInfo, workflow: a.workflow, catalog: EMPTY_CATALOG };
    const found = DEEP_CHECKS.flatMap((c) => c(ctx)).filter((d) => d.severity === 'error' || d.severity === 'warning');
    assert.deepEqual(show(text, found), []);
  });
}
