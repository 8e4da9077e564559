// Type expressions (reference §4.8): grammar findings the schema cannot see, the regex dialect,
// defaults and typed constants that must fit, returns vs schema/decode; plus the pure module the
// engine reuses (conformance, lowering to JSON Schema).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conform, parseType, toJsonSchema, regexProblems } from '../../core/types/index.js';
import { covered, diagnose, doc, fixed, none, one } from './semantic-helpers.js';

const head = ['nika: t', 'permits: {}'];
const task = ['tasks:', '  a:', '    infer: { prompt: hi }'];

test('optional outside an object field is TYPE-001; inside a field it is fine', () => {
  one(doc(...head, 'inputs:', '  b: { type: { optional: string } }', ...task), 'NIKA-TYPE-001', 'optional');
  none(doc(...head, 'inputs:', '  b: { type: { object: { n: { optional: string } } } }', ...task), 'NIKA-TYPE-001');
  one(doc(...head, 'inputs:', '  b: { type: { array: { optional: string } } }', ...task), 'NIKA-TYPE-001', 'optional');
});

test('a constructor mapping with two constructors is TYPE-001 on the second', () => {
  one(doc(...head, 'inputs:', '  c: { type: { array: string, map: string } }', ...task), 'NIKA-TYPE-001', 'map');
});

test('unknown type names are reported once (by the structure checks), not twice', () => {
  const text = doc(...head, 'inputs:', '  a: { type: boolean }', ...task);
  one(text, 'NIKA-TYPE-001', 'boolean');
  const p = parseType('boolean');
  assert.equal(p.problems[0].suggestion, 'bool');
  assert.equal(parseType('Float').problems[0].suggestion, 'number');
  assert.match(parseType('UserRecord').problems[0].message, /named types are gone/);
});

test('regex dialect: lookaround, named groups, inline flags, lazy quantifiers, \\b, \\p{…}, length', () => {
  const pat = (p: string) => regexProblems(p).map((r) => p.slice(r.offset, r.offset + r.length));
  assert.deepEqual(pat('(?=a)b'), ['(?=']);
  assert.deepEqual(pat('a(?<!b)'), ['(?<!']);
  assert.deepEqual(pat('(?<year>\\d+)'), ['(?<year>']);
  assert.deepEqual(pat('(?i)abc'), ['(?i)']);
  assert.deepEqual(pat('a+?b*+'), ['+?', '*+']);
  assert.deepEqual(pat('\\bword\\b'), ['\\b', '\\b']);
  assert.deepEqual(pat('\\p{L}+'), ['\\p{L}']);
  assert.deepEqual(pat('(a)\\1'), ['\\1']);
  assert.deepEqual(pat('^[a-z0-9_-]{1,32}$'), []);
  assert.deepEqual(pat('^(?:ab)?[\\b]$'), []);
  assert.equal(regexProblems('a'.repeat(513)).length, 1);
  assert.equal(regexProblems('(unclosed').length, 1);
});

test('TYPE-006 sits on the construct inside a plain or single-quoted pattern', () => {
  const text = doc(...head, 'inputs:', "  e: { type: { string: { pattern: '^(?<id>[a-z]+)$' } } }", ...task);
  one(text, 'NIKA-TYPE-006', '(?<id>');
});

test('defaults must fit their input type, on the exact sub-value', () => {
  one(doc(...head, 'inputs:', '  f: { type: integer, default: "x" }', ...task), 'NIKA-DEFAULT-001', '"x"');
  one(doc(...head, 'inputs:', '  h: { type: { array: { integer: { min: 0 } } }, default: [1, -2] }', ...task), 'NIKA-DEFAULT-001', '-2');
  one(doc(...head, 'inputs:', '  g: { type: { object: { n: integer } }, default: { n: 1, z: 2 } }', ...task), 'NIKA-DEFAULT-001', '2');
  one(doc(...head, 'inputs:', '  g: { type: { object: { n: integer } }, default: {} }', ...task), 'NIKA-DEFAULT-001', '{}');
  none(doc(...head, 'inputs:',
    '  a: { type: { union: [string, null] }, default: null }',
    '  b: { type: number, default: 3 }',
    '  c: { type: { enum: [dev, prod] }, default: prod }',
    '  d: { type: duration, default: "1h30m" }',
    '  e: { type: { object: { n: integer, m: { optional: string } }, additional: true }, default: { n: 1, q: 2 } }',
    '  f: { type: { map: bool }, default: { x: true } }',
    '  g: { type: timestamp, default: "2026-08-22T10:00:00Z" }',
    '  h: { type: uri, default: "https://nika.sh" }',
    ...task), 'NIKA-DEFAULT-001');
});

test('typed const values must fit; { type, default } gets a hint that renames default to value', () => {
  one(doc(...head, 'const:', '  l: { type: duration, value: "5d" }', ...task), 'NIKA-DEFAULT-001', '"5d"');
  none(doc(...head, 'const:', '  l: { type: custom }', ...task), 'NIKA-DEFAULT-001');
  const text = doc(...head, 'const:', '  k: { type: integer, default: 5 }', ...task);
  const d = one(text, 'typed-const/value', 'default');
  assert.equal(d.severity, 'hint');
  assert.equal(fixed(text, d), text.replace('default: 5', 'value: 5'));
});

test('returns with a verb schema is TYPE-003 on the schema key', () => {
  one(doc(...head, 'tasks:', '  a:', '    infer: { prompt: hi, schema: { type: object } }', '    returns: string'), 'NIKA-TYPE-003', 'schema');
  one(doc(...head, 'tasks:', '  a:', '    agent: { prompt: hi, schema: { type: object } }', '    returns: string'), 'NIKA-TYPE-003', 'schema');
});

test('returns unreachable from exec capture/decode is TYPE-004', () => {
  const t = (exec: string, returns: string) => doc(...head, 'tasks:', '  a:', `    exec: ${exec}`, `    returns: ${returns}`);
  one(t('{ command: [ls] }', '{ object: { a: integer } }'), 'NIKA-TYPE-004', '{ object: { a: integer } }');
  one(t('{ command: [ls], decode: bytes }', 'string'), 'NIKA-TYPE-004', 'string');
  one(t('{ command: [ls], capture: structured }', 'string'), 'NIKA-TYPE-004', 'string');
  none(t('{ command: [ls], decode: json }', '{ object: { a: integer } }'), 'NIKA-TYPE-004');
  none(t('{ command: [ls] }', '{ union: [uri, null] }'), 'NIKA-TYPE-004');
  none(t('{ command: [ls], decode: jsonl }', '{ array: { map: string } }'), 'NIKA-TYPE-004');
  none(t('{ command: [ls], capture: structured }', '{ object: { exit_code: integer, stdout: string } }'), 'NIKA-TYPE-004');
});

test('outputs.type and returns are judged by the same grammar', () => {
  one(doc(...head, ...task, '    returns: { union: [{ optional: string }, null] }'), 'NIKA-TYPE-001', 'optional');
  one(doc(...head, ...task, 'outputs:', '  o: { value: "${{ tasks.a.output }}", type: { string: { pattern: "a*?" } } }'), 'NIKA-TYPE-006', '*?');
});

test('conformance and lowering for the engine', () => {
  const { type } = parseType({ object: { name: 'string', tags: { optional: { array: 'string' } }, n: { integer: { min: 1 } } } });
  assert.deepEqual(conform(type, { name: 'x', n: 2 }), []);
  assert.deepEqual(conform(type, { name: 'x', n: 0 }).map((m) => m.path), [['n']]);
  assert.deepEqual(toJsonSchema(type), {
    type: 'object',
    properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, n: { type: 'integer', minimum: 1 } },
    required: ['name', 'n'], additionalProperties: false,
  });
  assert.deepEqual(toJsonSchema(parseType({ union: ['uri', null] }).type), { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }] });
  assert.deepEqual(conform(parseType('integer').type, 1.5).length, 1);
  assert.deepEqual(conform(parseType('number').type, 1).length, 0);
});

test('older dialects are not judged by the current type grammar', () => {
  const text = doc('nika: v1', 'vars:', '  x: 1', 'tasks:', '  - name: a', '    infer: { prompt: hi }', '    returns: { optional: string }');
  assert.deepEqual(diagnose(text).filter((d) => d.code === 'NIKA-TYPE-001' && covered(text, d) === 'optional'), []);
});
