// Deep task rules: entropy promises (PARSE-028), on_codes shapes, for_each items that can never be
// a list, static liveness (DAG-006) and per-builtin argument rules (BUILTIN-001).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, doc, fixed, none, one } from './semantic-helpers.js';

const head = ['nika: t', 'permits: {}'];
const det = [...head, 'run: { entropy: none, clock: virtual }'];

test('PARSE-028: entropy none with a retry whose jitter is on (by default or written)', () => {
  const text = doc(...det, 'tasks:', '  a:', '    exec: { command: [ls] }', '    retry: { max_attempts: 3 }');
  const d = one(text, 'NIKA-PARSE-028', 'retry');
  assert.equal(fixed(text, d), text.replace('{ max_attempts: 3 }', '{ max_attempts: 3, jitter: false }'));
  const written = doc(...det, 'tasks:', '  a:', '    exec: { command: [ls] }', '    retry:', '      max_attempts: 3', '      jitter: true');
  const w = one(written, 'NIKA-PARSE-028', 'true');
  assert.equal(fixed(written, w), written.replace('jitter: true', 'jitter: false'));
  none(doc(...det, 'tasks:', '  a:', '    exec: { command: [ls] }', '    retry: { max_attempts: 3, jitter: false }'), 'NIKA-PARSE-028');
  none(doc(...head, 'run: { entropy: { seeded: 7 }, clock: virtual }', 'tasks:', '  a:', '    exec: { command: [ls] }', '    retry: { max_attempts: 3 }'), 'NIKA-PARSE-028');
});

test('PARSE-028: entropy none with nika:uuid, invoked or granted to an agent', () => {
  one(doc(...det, 'tasks:', '  a:', '    invoke: { tool: "nika:uuid" }'), 'NIKA-PARSE-028', '"nika:uuid"');
  one(doc(...det, 'tasks:', '  a:', '    agent: { prompt: hi, tools: ["nika:uuid"] }'), 'NIKA-PARSE-028', '"nika:uuid"');
  none(doc(...head, 'tasks:', '  a:', '    invoke: { tool: "nika:uuid" }'), 'NIKA-PARSE-028');
});

test('on_codes entries must be codes (with an uppercase fix) or compiling patterns', () => {
  const text = doc(...head, 'tasks:', '  a:', '    exec: { command: [ls] }', '    retry: { max_attempts: 2, on_codes: [nika-exec-001, "NIKA-BUILTIN-FETCH-001", "NIKA-EXEC-.*"] }',
    '    on_error: { skip: true, on_codes: [EXEC-001, "(" ] }');
  const r = one(text, 'NIKA-PARSE-011', 'nika-exec-001');
  assert.equal(fixed(text, r), text.replace('nika-exec-001', 'NIKA-EXEC-001'));
  const e = diagnose(text).filter((d) => d.code === 'NIKA-PARSE-012');
  assert.deepEqual(e.map((d) => text.slice(d.span.start, d.span.end)), ['EXEC-001', '"("']);
});

test('for_each.items as plain text or text around an island is VAR-006', () => {
  one(doc(...head, 'tasks:', '  a:', '    for_each: { items: "a,b" }', '    exec: { command: [echo, "${{ item }}"] }'), 'NIKA-VAR-006', '"a,b"');
  one(doc(...head, 'inputs:', '  l: { type: { array: string } }', 'tasks:', '  a:', '    for_each: { items: "x ${{ inputs.l }}" }', '    exec: { command: [echo, "${{ item }}"] }'), 'NIKA-VAR-006', '"x ${{ inputs.l }}"');
  none(doc(...head, 'inputs:', '  l: { type: { array: string } }', 'tasks:', '  a:', '    for_each: { items: "${{ inputs.l }}" }', '    exec: { command: [echo, "${{ item }}"] }'), 'NIKA-VAR-006');
});

test('DAG-006: after: success on a task that never runs (when: false) is dead', () => {
  const text = doc(...head, 'tasks:', '  f:', '    when: false', '    exec: { command: [ls] }', '  g:', '    after: { f: success }', '    exec: { command: [ls] }',
    '  h:', '    after: { g: success }', '    exec: { command: [ls] }', '  k:', '    after: { f: skipped }', '    exec: { command: [ls] }');
  const found = diagnose(text).filter((d) => d.code === 'NIKA-DAG-006');
  // g is dead; h is dead only because g is: one finding, at the root cause.
  assert.equal(found.length, 1);
  assert.equal(text.slice(found[0].span.start, found[0].span.end), 'success');
  assert.match(found[0].message, /"g" can never start/);
});

test('DAG-006: after: skipped on a task that cannot skip, failure on one that recovers everything', () => {
  one(doc(...head, 'tasks:', '  a:', '    exec: { command: [ls] }', '  b:', '    after: { a: skipped }', '    exec: { command: [ls] }'), 'NIKA-DAG-006', 'skipped');
  one(doc(...head, 'tasks:', '  a:', '    exec: { command: [ls] }', '    on_error: { recover: "x" }', '  b:', '    after: { a: failure }', '    exec: { command: [ls] }'), 'NIKA-DAG-006', 'failure');
  one(doc(...head, 'tasks:', '  a:', '    exec: { command: [ls] }', '    on_error: { recover: "x" }', '  b:', '    with: { e: "${{ tasks.a.error }}" }', '    exec: { command: [echo, "${{ with.e }}"] }'), 'NIKA-DAG-006', 'tasks.a.error');
  // Each of these can happen.
  none(doc(...head, 'inputs:', '  go: { type: bool }', 'tasks:',
    '  a:', '    when: "${{ inputs.go == true }}"', '    exec: { command: [ls] }',
    '  b:', '    after: { a: skipped }', '    exec: { command: [ls] }',
    '  c:', '    exec: { command: [ls] }', '    on_error: { recover: "x", on_codes: [NIKA-EXEC-001] }',
    '  d:', '    after: { c: failure }', '    exec: { command: [ls] }',
    '  e:', '    exec: { command: [ls] }', '    on_error: { skip: true }',
    '  f:', '    after: { e: skipped, a: terminal }', '    exec: { command: [ls] }'), 'NIKA-DAG-006');
});

test('DAG-006: a when: that reads only constants and is false', () => {
  const text = doc(...head, 'const:', '  env: dev', 'tasks:', '  a:', "    when: \"${{ const.env == 'prod' }}\"", '    exec: { command: [ls] }');
  one(text, 'NIKA-DAG-006', "\"${{ const.env == 'prod' }}\"");
  none(doc(...head, 'const:', '  env: prod', 'tasks:', '  a:', "    when: \"${{ const.env == 'prod' }}\"", '    exec: { command: [ls] }'), 'NIKA-DAG-006');
  // The documented never-run switch is not itself a finding.
  none(doc(...head, 'tasks:', '  a:', '    when: false', '    exec: { command: [ls] }'), 'NIKA-DAG-006');
});

test('builtin rules: emit event_type, wait durations, date ops, fetch methods and traverse, hash sign/verify', () => {
  const inv = (tool: string, args: string) => doc(...head, 'tasks:', '  a:', `    invoke: { tool: "${tool}", args: ${args} }`);
  one(inv('nika:emit', '{ event_type: "Build Done" }'), 'NIKA-BUILTIN-001', '"Build Done"');
  none(inv('nika:emit', '{ event_type: build.done }'), 'NIKA-BUILTIN-001');
  one(inv('nika:wait', '{ duration: "2d" }'), 'NIKA-BUILTIN-001', '"2d"');
  one(inv('nika:wait', '{ duration: "5s", timeout: "1m" }'), 'NIKA-BUILTIN-001', 'timeout');
  one(inv('nika:date', '{ op: add, base: "2026-01-01T00:00:00Z" }'), 'NIKA-BUILTIN-001', 'add');
  none(inv('nika:date', '{ op: diff, start: "a", end: "b" }'), 'NIKA-BUILTIN-001');
  one(inv('nika:fetch', '{ url: "https://x.org", form: { a: 1 } }'), 'NIKA-BUILTIN-001', 'form');
  none(inv('nika:fetch', '{ url: "https://x.org", method: POST, form: { a: 1 } }'), 'NIKA-BUILTIN-001');
  one(inv('nika:fetch', '{ url: "https://x.org", traverse: { max_pages: 40 } }'), 'NIKA-BUILTIN-001', '40');
  one(inv('nika:fetch', '{ url: "https://x.org", mode: text, traverse: { max_pages: 4 } }'), 'NIKA-BUILTIN-001', 'mode');
  one(inv('nika:hash', '{ content: x, op: sign }'), 'NIKA-BUILTIN-001', 'args');
  one(inv('nika:hash', '{ content: x, op: verify, signature: s }'), 'NIKA-BUILTIN-001', 'args');
});
