// The YAML profile (reference §11.1): each refused YAML feature gets its own NIKA-YAML code on the
// exact token, in document order; older dialects get the same findings as warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import { parseNikaDocument } from '../../core/document.js';
import { judgeYamlProfile } from '../../core/profile/yaml-profile.js';
import { covered, diagnose, doc, fixed, none, one } from './semantic-helpers.js';

const head = ['nika: t', 'permits: {}'];
const task = ['tasks:', '  a:', '    infer: { prompt: hi }'];

test('anchors are refused even unreferenced, aliases and merge keys too, in document order', () => {
  const text = doc(...head, 'const:', '  base: &b { x: 1 }', '  copy: *b', '  m:', '    <<: *b', '    y: 2', ...task);
  const found = diagnose(text).filter((d) => d.code.startsWith('NIKA-YAML'));
  assert.deepEqual(found.map((d) => [d.code, covered(text, d)]), [
    ['NIKA-YAML-001', '&b'], ['NIKA-YAML-002', '*b'], ['NIKA-YAML-003', '<<'], ['NIKA-YAML-002', '*b'],
  ]);
  // The anchor is still aliased, so removing it alone would break the file: no fix.
  assert.equal(found[0].data?.fixes, undefined);
});

test('an unreferenced anchor can be removed by its quick fix', () => {
  const text = doc(...head, 'const:', '  lst: [&q 1, 2]', ...task);
  const d = one(text, 'NIKA-YAML-001', '&q');
  assert.equal(fixed(text, d), doc(...head, 'const:', '  lst: [1, 2]', ...task));
});

test('custom tags are refused, core tags are fine', () => {
  const text = doc(...head, 'const:', '  t: !foo bar', '  s: !!str 12', '  b: !!binary aGk=', ...task);
  const found = diagnose(text).filter((d) => d.code === 'NIKA-YAML-006');
  assert.deepEqual(found.map((d) => covered(text, d)), ['!foo', '!!binary']);
});

test('non-string keys: plain numbers, booleans, null and complex keys; quoted numbers are fine', () => {
  const text = doc(...head, 'const:', '  m:', '    123: x', '    "124": y', '    true: z', '    ? [1]', '    : w', ...task);
  const found = diagnose(text).filter((d) => d.code === 'NIKA-YAML-007');
  assert.deepEqual(found.map((d) => covered(text, d)), ['123', 'true', '[1]']);
  assert.equal(fixed(text, found[0]), text.replace('    123: x', '    "123": x'));
});

test('.nan and .inf are refused; the plain word nan is a string', () => {
  const text = doc(...head, 'const:', '  a: .nan', '  b: -.inf', '  c: nan', "  d: '.nan'", ...task);
  const found = diagnose(text).filter((d) => d.code === 'NIKA-YAML-008');
  assert.deepEqual(found.map((d) => covered(text, d)), ['.nan', '-.inf']);
  assert.equal(fixed(text, found[0]), text.replace('a: .nan', 'a: ".nan"'));
});

test('depth over 64 is reported once, at the first collection past the limit', () => {
  const deep = '['.repeat(70) + ']'.repeat(70);
  const text = doc(...head, `const: { x: ${deep} }`, ...task);
  const found = diagnose(text).filter((d) => d.code === 'NIKA-YAML-009');
  assert.equal(found.length, 1);
  // root map = 1, const map = 2, x's outer list = 3 … level 65 is the 63rd bracket.
  assert.equal(found[0].span.start, text.indexOf('[') + 62);
  const ok = '['.repeat(60) + ']'.repeat(60);
  none(doc(...head, `const: { x: ${ok} }`, ...task), 'NIKA-YAML-009');
});

test('a scalar over 64 KiB is refused, on its first line only', () => {
  const big = 'é'.repeat(33_000); // 66 000 UTF-8 bytes, 33 000 UTF-16 units
  const text = doc(...head, 'const:', `  big: "${big}"`, ...task);
  const found = diagnose(text).filter((d) => d.code === 'NIKA-YAML-005');
  assert.equal(found.length, 1);
  assert.match(found[0].message, /66002 bytes|66000 bytes/);
  none(doc(...head, 'const:', `  ok: "${'a'.repeat(60_000)}"`, ...task), 'NIKA-YAML-005');
});

test('a byte-order mark and non-NFC text are refused, with fixes', () => {
  const bom = '\uFEFF' + doc(...head, ...task);
  const d = one(bom, 'NIKA-YAML-011', '\uFEFF');
  assert.equal(fixed(bom, d), doc(...head, ...task));
  const decomposed = 'cafe\u0301';
  const text = doc(...head, 'const:', `  w: "${decomposed}"`, ...task);
  const n = diagnose(text).filter((x) => x.code === 'NIKA-YAML-011');
  assert.equal(n.length, 1);
  assert.equal(fixed(text, n[0]), text.replace(decomposed, 'caf\u00e9'));
  none(doc(...head, 'const:', '  w: "caf\u00e9"', ...task), 'NIKA-YAML-011');
});

test('duplicate keys stay NIKA-PARSE-017 (no second NIKA-YAML-004 finding)', () => {
  const text = doc(...head, 'const:', '  a: 1', '  a: 2', ...task);
  one(text, 'NIKA-PARSE-017', 'a');
  none(text, 'NIKA-YAML-004');
});

test('a document over 1 MiB gets NIKA-YAML-010 and nothing else', () => {
  const text = doc(...head, 'const:', '  a: &x 1', `# ${'x'.repeat(1_100_000)}`, ...task);
  assert.deepEqual(analyze(text).diagnostics.map((d) => d.code), ['NIKA-YAML-010']);
  assert.deepEqual(judgeYamlProfile(parseNikaDocument(text)), []);
});

test('older dialects get the profile as warnings', () => {
  const text = doc('schema: "nika/workflow@0.4"', 'workflow: w', 'tasks:', '  - id: a', '    infer: &p "hi"', '  - id: b', '    infer: *p');
  const found = diagnose(text).filter((d) => d.code.startsWith('NIKA-YAML'));
  assert.deepEqual(found.map((d) => [d.code, d.severity]), [['NIKA-YAML-001', 'warning'], ['NIKA-YAML-002', 'warning']]);
});

test('a hostile nesting depth does not crash the profile judge', () => {
  const text = doc(...head, `const: { x: ${'['.repeat(5000)}${']'.repeat(5000)} }`, ...task);
  assert.doesNotThrow(() => analyze(text));
});

test('a clean file has no profile findings', () => {
  const text = doc(...head, 'const:', '  s: "a: b"', '  n: 12', "  q: '<<'", ...task);
  assert.deepEqual(diagnose(text).filter((d) => d.code.startsWith('NIKA-YAML')), []);
});
