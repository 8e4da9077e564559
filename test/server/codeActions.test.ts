import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction } from 'vscode-languageserver';
import { buildModel } from '../../server/model.js';
import { codeActions } from '../../server/features/codeActions.js';
import { diagnostics } from '../../server/features/diagnostics.js';
import { applyEdits, cursor } from './cursor.js';

const URI = 'file:///work/flows/report.nika.yaml';

function actionsAt(lines: string[]) {
  const c = cursor(lines);
  const model = buildModel(c.text);
  const range = { start: c.position, end: c.position };
  const ctxDiags = diagnostics(model).filter((d) => d.range.start.line <= c.position.line && c.position.line <= d.range.end.line);
  return { ...c, model, actions: codeActions(model, URI, range, ctxDiags) };
}
function applied(text: string, a: CodeAction): string {
  return applyEdits(text, a.edit!.changes![URI]);
}

test('NIKA-VAR-021: hoist tasks.* out of a prompt into with:', () => {
  const r = actionsAt([
    'nika: demo',
    'tasks:',
    '  a:',
    '    exec: { command: [echo, hi] }',
    '  b:',
    '    infer:',
    '      prompt: "Summarize ${{ tasks.a.ou|tput }}"',
  ]);
  const hoist = r.actions.find((a) => /Hoist/.test(a.title));
  assert.ok(hoist, r.actions.map((a) => a.title).join(', '));
  assert.equal(hoist.kind, 'quickfix');
  assert.equal(hoist.isPreferred, true);
  assert.equal(hoist.diagnostics?.[0].code, 'NIKA-VAR-021');
  const out = applied(r.text, hoist);
  assert.match(out, /with:\n {6}a: "\$\{\{ tasks\.a\.output \}\}"/);
  assert.match(out, /prompt: "Summarize \$\{\{ with\.a \}\}"/);
  assert.ok(!buildModel(out).analysis.diagnostics.some((d) => d.code === 'NIKA-VAR-021'));
});

test('did-you-mean replacement for an unknown task id', () => {
  const r = actionsAt([
    'nika: demo',
    'tasks:',
    '  fetch_data:',
    '    exec: { command: [echo, hi] }',
    '  b:',
    '    after: { fetch_dat|: success }',
    '    exec: { command: [echo] }',
  ]);
  const fix = r.actions.find((a) => /fetch_data/.test(a.title));
  assert.ok(fix, r.actions.map((a) => a.title).join(', '));
  assert.match(applied(r.text, fix), /after: \{ fetch_data: success \}/);
});

test('add required arguments of a builtin', () => {
  const r = actionsAt([
    'nika: demo',
    'tasks:',
    '  a:',
    '    invoke:',
    '      tool: nika:fetch',
    '      ar|gs:',
    '        method: GET',
  ]);
  const add = r.actions.find((a) => /url/.test(a.title));
  assert.ok(add, r.actions.map((a) => a.title).join(', '));
  assert.match(applied(r.text, add), /args:\n {8}method: GET\n {8}url: /);
});

test('v1-draft: migrate to current v1 from the dialect hint and as a refactoring', () => {
  const r = actionsAt([
    'nika: v|1',
    'workflow: report',
    'tasks:',
    '  - id: first',
    '    exec: "echo hi"',
    '  - id: second',
    '    depends_on: [first]',
    '    infer: { prompt: "Say ${{ tasks.first.output }}", model: mock/echo }',
  ]);
  const mig = r.actions.filter((a) => a.title === 'Migrate this file to current v1');
  assert.ok(mig.length >= 1, r.actions.map((a) => `${a.kind}:${a.title}`).join(', '));
  const out = applied(r.text, mig[0]);
  const after = buildModel(out);
  assert.equal(after.analysis.dialect, 'v1');
  assert.deepEqual(after.analysis.workflow.tasks.map((t) => t.id), ['first', 'second']);
  const src = codeActions(r.model, URI, { start: r.position, end: r.position }, [], ['source']);
  assert.deepEqual(src.map((a) => a.kind), ['source.nika.migrate']);
});

test('legacy: migrate is offered anywhere in the file', () => {
  const r = actionsAt([
    'schema: nika/workflow@0.4',
    'workflow: report',
    'tasks:',
    '  - id: a',
    '    exec: "echo |hi"',
  ]);
  const mig = r.actions.find((a) => a.title === 'Migrate this file to current v1');
  assert.ok(mig);
  assert.equal(buildModel(applied(r.text, mig)).analysis.dialect, 'v1');
});

test('NIKA-PARSE-022: convert a tasks list to a map in a current file', () => {
  const r = actionsAt([
    'nika: report',
    'tas|ks:',
    '  - id: a',
    '    exec: { command: [echo, hi] }',
    '  - id: b',
    '    after: { a: success }',
    '    exec: { command: [echo] }',
  ]);
  const conv = r.actions.find((a) => /Convert the tasks list/.test(a.title) && a.kind === 'quickfix');
  assert.ok(conv, r.actions.map((a) => `${a.kind}:${a.title}`).join(', '));
  const m = buildModel(applied(r.text, conv));
  assert.deepEqual(m.analysis.workflow.tasks.map((t) => t.id), ['a', 'b']);
  assert.ok(!m.analysis.diagnostics.some((d) => d.code === 'NIKA-PARSE-022'));
});

test('no actions on a clean current file', () => {
  const r = actionsAt(['nika: demo', 'permits: {}', 'tasks:', '  a:', '    infer: { prompt: h|i, model: mock/echo }']);
  assert.deepEqual(r.actions.map((a) => a.title), []);
});
