import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crlf, doc, fixed, none, one, oneAt, withCode, covered } from './semantic-helpers.js';

const DRAFT = [
  'nika: v1',
  'workflow: build-it',
  'vars: { target: release }',
  'env: { HOME_DIR: /home }',
  'tasks:',
  '  - name: build',
  '    exec:',
  '      command: cargo build --${{ vars.target }} ${{ env.HOME_DIR }}',
];

test('v1 draft: vars/env resolve against their blocks; undeclared ⇒ VAR-001 (not VALUES-*)', () => {
  const ok = doc(...DRAFT);
  // The blocks themselves get deprecation warnings from the structure checks; the reads are fine.
  const reads = (code: string) => withCode(ok, code).filter((d) => d.span.start > ok.indexOf('command:'));
  assert.deepEqual(reads('NIKA-VALUES-001'), []);
  assert.deepEqual(reads('NIKA-VALUES-002'), []);
  none(ok, 'NIKA-VAR-001');
  const bad = doc(...DRAFT, '  - name: ship', '    depends_on: [build]', '    exec: { command: "echo ${{ vars.tagret }}" }');
  const d = one(bad, 'NIKA-VAR-001', 'tagret');
  assert.ok(fixed(bad, d).includes('${{ vars.target }}'));
});

test('v1 draft: depends_on naming an unknown task ⇒ DAG-002 with a fix', () => {
  const text = doc(...DRAFT, '  - name: ship', '    depends_on: [biuld]', '    exec: { command: "echo" }');
  assert.ok(fixed(text, one(text, 'NIKA-DAG-002', 'biuld')).includes('depends_on: [build]'));
});

test('v1 draft: tasks.* in a body is a warning with the hoist fix (list items keep their indentation)', () => {
  const text = crlf(...DRAFT, '  - name: ship', '    depends_on: [build]', '    infer:', '      prompt: "Notes for ${{ tasks.build.output }}"');
  const d = one(text, 'NIKA-VAR-021', 'tasks.build.output');
  assert.equal(d.severity, 'warning');
  assert.equal(fixed(text, d), crlf(...DRAFT, '  - name: ship', '    depends_on: [build]', '    infer:', '      prompt: "Notes for ${{ with.build }}"', '    with:', '      build: "${{ tasks.build.output }}"'));
});

test('v1 draft: server::tool is a warning with a rewrite to mcp:server/tool', () => {
  const text = doc(...DRAFT, '  - name: look', '    invoke: { tool: "github::search_issues", args: { q: x } }');
  const d = oneAt(text, 'NIKA-PARSE-019', 'github::search_issues');
  assert.equal(d.severity, 'warning');
  assert.ok(fixed(text, d).includes('"mcp:github/search_issues"'));
});

const LEGACY = [
  'schema: "nika/workflow@0.4"',
  'workflow: multi-locale',
  'provider: claude',
  'model: claude-sonnet-4',
  'tasks:',
  '  - id: get_entity',
  '    invoke: { mcp: novanet, tool: "novanet::generate", params: { entity: qr } }',
  '  - id: gen',
  '    for_each: ["fr-FR", "en-US"]',
  '    as: locale',
  '    use: { entity: get_entity }',
  '    agent:',
  '      prompt: "Write for {{use.locale}} using {{use.entity}}"',
  '      mcp: [novanet]',
];

test('legacy: a clean era-A file has no semantic errors', () => {
  const text = doc(...LEGACY, 'flows:', '  - { source: get_entity, target: gen }');
  const errors = withCode(text, 'NIKA-DAG-002').concat(withCode(text, 'NIKA-VAR-001'), withCode(text, 'NIKA-PROVIDER-001'), withCode(text, 'NIKA-PARSE-019').filter((d) => d.message.startsWith('invalid tool id')));
  assert.deepEqual(errors.map((d) => d.message), []);
});

test('legacy: flows endpoints, use: sources and {{use.x}} aliases must exist', () => {
  const text = doc(
    'schema: "nika/workflow@0.4"',
    'tasks:',
    '  - id: get_entity',
    '    exec: "echo"',
    '  - id: gen',
    '    use: { entity: get_entty.name }',
    '    infer: "Using {{use.entity}} and {{use.entiti}}"',
    'flows:',
    '  - { source: get_entity, target: genn }',
  );
  oneAt(text, 'NIKA-DAG-002', 'get_entty');
  oneAt(text, 'NIKA-DAG-002', 'genn');
  const alias = one(text, 'NIKA-VAR-001', 'entiti');
  assert.ok(fixed(text, alias).includes('{{use.entity}} and {{use.entity}}'));
});

test('current v1 refuses what the draft accepts: vars.* ⇒ VALUES-001, list-shaped wiring aside', () => {
  const text = doc('nika: now', 'tasks:', '  a:', '    exec: { command: [echo, "${{ vars.target }}"] }');
  one(text, 'NIKA-VALUES-001', 'vars');
  none(text, 'NIKA-VAR-001');
});
