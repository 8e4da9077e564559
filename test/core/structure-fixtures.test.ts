// Every fixture under test/fixtures/structure: valid ones produce no structure error; invalid
// ones produce exactly the errors their "# expect: CODE token" comments announce, each
// starting at that token on that line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { structure } from './structure-helpers.js';

const root = join(__dirname, '..', 'fixtures', 'structure');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.nika\.ya?ml$/.test(n) ? [p] : [];
  });
}

const all = files(root);
const expectedDialect: Record<string, string> = { v1: 'v1', draft: 'v1-draft', legacy: 'legacy' };

test('the fixture set covers the three dialects, valid and invalid', () => {
  const rel = all.map((f) => relative(root, f));
  for (const d of ['v1/', 'draft/', 'legacy/', 'invalid/']) assert.ok(rel.some((r) => r.startsWith(d)), d);
});

for (const file of all) {
  const rel = relative(root, file);
  const text = readFileSync(file, 'utf8');
  const lines = text.split(/\r?\n/);
  const expects: Array<{ code: string; line: number; col: number; token: string }> = [];
  lines.forEach((l, i) => {
    const m = /#\s*expect:\s*(\S+)\s+(.+?)\s*$/.exec(l);
    if (!m || l.trimStart().startsWith('#')) return;
    const col = l.indexOf(m[2]);
    assert.ok(col >= 0 && col < l.indexOf('#'), `${rel}:${i + 1}: token ${m[2]} not found before the comment`);
    expects.push({ code: m[1], line: i, col, token: m[2] });
  });
  test(`fixture ${rel}`, () => {
    const r = structure(text);
    const top = rel.split('/')[0];
    if (expectedDialect[top]) assert.equal(r.dialect, expectedDialect[top]);
    const got = r.errors.map((e) => `${e.code} ${e.range.split('-')[0]}`).sort();
    const want = expects.map((e) => `${e.code} ${e.line}:${e.col}`).sort();
    assert.deepEqual(got, want, r.errors.map((e) => `${e.code} ${e.range} ${e.message}`).join('\n'));
  });
}
