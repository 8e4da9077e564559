// v1-draft and legacy files: judged by their own schema; old spellings are deprecation
// warnings naming the current one (with a fix where mechanical); one "migrate" information on
// the dialect marker; real mistakes stay errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, only, structure } from './structure-helpers.js';

const doc = (...lines: string[]) => lines.join('\n') + '\n';

const DRAFT = doc(
  'nika: v1',
  'workflow: nightly',
  'vars:',
  '  region: eu',
  'tasks:',
  '  - name: build',
  '    timeout: 300',
  '    exec:',
  '      command: make all',
  '  - name: report',
  '    depends_on: [build]',
  '    after: { build: succeeded }',
  '    output: { first: ".[0]" }',
  '    infer: { prompt: "Report ${{ vars.region }}" }',
);

test('v1-draft: no errors, deprecation warnings tagged deprecated, one migrate information', () => {
  const r = structure(DRAFT);
  assert.equal(r.dialect, 'v1-draft');
  assert.deepEqual(r.errors, []);
  const info = r.all.filter((d) => d.severity === 'information');
  assert.equal(info.length, 1);
  assert.equal(info[0].range, '0:0-0:8');
  assert.equal(info[0].d.data?.migrate, true);
  const warnings = r.all.filter((d) => d.severity === 'warning');
  assert.ok(warnings.every((w) => w.d.tags?.includes('deprecated')));
  const byText = Object.fromEntries(warnings.map((w) => [w.text, w]));
  assert.deepEqual(Object.keys(byText).sort(), ['300', 'command', 'depends_on', 'output', 'succeeded', 'tasks', 'vars', 'workflow'].sort());
  assert.equal(byText.vars.code, 'NIKA-VALUES-001');
  assert.equal(byText.depends_on.code, 'NIKA-PARSE-024');
  assert.match(byText.depends_on.message, /after:/);
  assert.deepEqual(byText.tasks.d.data, { convert: 'tasks-list-to-map' });
});

test('v1-draft quick fixes rewrite to the current spelling', () => {
  const r = structure(DRAFT);
  const w = (text: string) => r.all.find((d) => d.text === text && d.severity === 'warning')!;
  // Naming the file would make it a current file while vars:/a task list remain: no lone fix.
  assert.equal(w('workflow').d.data, undefined);
  assert.match(applyFix(DRAFT, w('command').d), /      shell: make all/);
  assert.match(applyFix(DRAFT, w('300').d), /timeout: "300s"/);
  assert.match(applyFix(DRAFT, w('succeeded').d), /after: \{ build: success \}/);
  assert.match(applyFix(DRAFT, w('output').d), /extract: \{ first/);
  // Each fixed text is still a valid draft.
  for (const t of ['command', '300', 'succeeded', 'output']) assert.deepEqual(structure(applyFix(DRAFT, w(t).d)).errors, [], t);
});

test('v1-draft: workflow: moves into nika: when that is the only draft trait left', () => {
  const text = doc('nika: v1', 'workflow: nightly', 'tasks:', '  a:', '    infer: { prompt: p }');
  const r = structure(text);
  assert.equal(r.dialect, 'v1-draft');
  const fixed = applyFix(text, r.all.find((d) => d.text === 'workflow')!.d);
  assert.equal(fixed, doc('nika: nightly', 'tasks:', '  a:', '    infer: { prompt: p }'));
  assert.deepEqual(structure(fixed).all, []);
});

test('v1-draft: real mistakes are errors (typo, missing verb, duplicate id)', () => {
  const r = structure(doc('nika: v1', 'tasks:', '  - name: a', '    infer: { promtp: x, prompt: y }', '  - name: b', '  - name: a', '    exec: ls'));
  assert.equal(only(r.errors, 'NIKA-PARSE-005').text, 'promtp');
  assert.equal(only(r.errors, 'NIKA-PARSE-008').range, '4:4-4:8');
  assert.equal(only(r.errors, 'NIKA-PARSE-017').range, '5:10-5:11');
});

const LEGACY = doc(
  'schema: "nika/workflow@0.2"',
  'workflow: demo',
  'provider: claude',
  'mcp:',
  '  novanet: { command: cargo, args: [run] }',
  'tasks:',
  '  - id: get',
  '    invoke:',
  '      mcp: novanet',
  '      tool: lookup',
  '      params: { q: x }',
  '  - id: write',
  '    use: { e: get }',
  '    agent:',
  '      prompt: "Write about {{use.e}}"',
  '      mcp: [novanet]',
  '      token_budget: 5000',
  'flows:',
  '  - { source: get, target: write }',
);

test('legacy: valid file, warnings for every old spelling, migrate information on schema:', () => {
  const r = structure(LEGACY);
  assert.equal(r.dialect, 'legacy');
  assert.deepEqual(r.errors, []);
  const info = only(r.all, 'migrate/current-v1');
  assert.equal(info.range, '0:0-0:27');
  const texts = r.all.filter((d) => d.severity === 'warning').map((d) => d.text);
  for (const t of ['workflow', 'provider', 'mcp', 'tasks', 'params', 'use', '{{use.e}}', 'token_budget', 'flows']) assert.ok(texts.includes(t), t);
});

test('legacy quick fixes: invoke { mcp, tool } → tool: "mcp:s/t", params → args, agent mcp → tools', () => {
  const r = structure(LEGACY);
  const w = (text: string, line: number) => r.all.find((d) => d.text === text && d.range.startsWith(`${line}:`))!;
  const inv = applyFix(LEGACY, w('mcp', 8).d);
  assert.match(inv, /    invoke:\n      tool: "mcp:novanet\/lookup"\n      params/);
  assert.match(applyFix(LEGACY, w('params', 10).d), /args: \{ q: x \}/);
  assert.match(applyFix(LEGACY, w('mcp', 15).d), /tools: \["mcp:novanet\/\*"\]/);
  assert.match(applyFix(LEGACY, w('token_budget', 16).d), /max_tokens_total: 5000/);
});

test('legacy: unknown keys and missing ids are errors', () => {
  const r = structure(doc('schema: nika/workflow@0.5', 'tasks:', '  - infer: "hi"', '  - id: b', '    exec: { command: ls, shel: true }'));
  assert.equal(r.errors.find((e) => e.code === 'NIKA-PARSE-005')!.text, 'shel');
  assert.match(r.errors.find((e) => e.code === 'NIKA-PARSE-019')!.message, /needs an id/);
});

test('CRLF legacy file: warning ranges are exact', () => {
  const text = ['schema: nika/workflow@0.1', 'tasks:', '  - id: a', '    exec: "echo hi"', ''].join('\r\n');
  const r = structure(text);
  const w = r.all.find((d) => d.text === '"echo hi"')!;
  assert.equal(w.range, '3:10-3:19');
  assert.match(applyFix(text, w.d), /exec: \{ shell: "echo hi" \}\r\n/);
});
