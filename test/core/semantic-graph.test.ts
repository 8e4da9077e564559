import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, fixed, none, one, withCode, covered } from './semantic-helpers.js';

const HEAD = ['nika: graph', 'permits: {}', 'tasks:'];

test('after: keys naming unknown tasks ⇒ DAG-002 on the key, with a fix', () => {
  const text = doc(...HEAD, '  fetch:', '    infer: { prompt: "x" }', '  b:', '    after: { fecth: success }', '    infer: { prompt: "y" }');
  const d = one(text, 'NIKA-DAG-002', 'fecth');
  assert.ok(fixed(text, d).includes('after: { fetch: success }'));
});

test('cycles through with: and after: ⇒ DAG-001 on every task id of the cycle', () => {
  const text = doc(...HEAD,
    '  a:',
    '    with: { x: "${{ tasks.c.output }}" }',
    '    infer: { prompt: "${{ with.x }}" }',
    '  b:',
    '    after: { a: success }',
    '    infer: { prompt: "y" }',
    '  c:',
    '    after: { b: terminal }',
    '    infer: { prompt: "z" }',
    '  d:',
    '    after: { a: success }',
    '    infer: { prompt: "free" }');
  const found = withCode(text, 'NIKA-DAG-001');
  assert.deepEqual(found.map((d) => covered(text, d)).sort(), ['a', 'b', 'c']);
  const onA = found.find((d) => covered(text, d) === 'a')!;
  assert.match(onA.message, /a → b → c → a/);
});

test('self edges and a task folding its own group are cycles', () => {
  one(doc(...HEAD, '  a:', '    after: { a: success }', '    infer: { prompt: "x" }'), 'NIKA-DAG-001', 'a');
  const g = doc(...HEAD, '  a:', '    group: g', '    with: { all: "${{ group.g }}" }', '    infer: { prompt: "${{ with.all }}" }');
  assert.match(one(g, 'NIKA-DAG-001', 'a').message, /a → a/);
});

test('unwind edges are not precedence edges (no cycle), but unwind tasks cannot join a group', () => {
  const text = doc(...HEAD,
    '  a:',
    '    infer: { prompt: "x" }',
    '  cleanup:',
    '    after: { a: unwind }',
    '    group: tidy',
    '    exec: { command: [echo, done] }');
  none(text, 'NIKA-DAG-001');
  one(text, 'NIKA-DAG-009', 'tidy');
});

test('on_error.recover reading a downstream task ⇒ DAG-004', () => {
  const text = doc(...HEAD,
    '  a:',
    '    on_error: { recover: "${{ tasks.b.output }}" }',
    '    infer: { prompt: "x" }',
    '  b:',
    '    with: { x: "${{ tasks.a.output }}" }',
    '    infer: { prompt: "${{ with.x }}" }',
    '  c:',
    '    infer: { prompt: "independent" }',
    '  d:',
    '    on_error: { recover: "${{ tasks.c.output }}" }',
    '    infer: { prompt: "fine" }');
  one(text, 'NIKA-DAG-004', 'b');
});

test('when: bare string, text around the island, or a non-boolean value ⇒ VAR-005', () => {
  const bare = doc('nika: w', 'inputs: { env: { type: string } }', 'tasks:', '  a:', '    when: "inputs.env == \'prod\'"', '    infer: { prompt: "x ${{ inputs.env }}" }');
  const d = one(bare, 'NIKA-VAR-005', '"inputs.env == \'prod\'"');
  assert.ok(fixed(bare, d).includes('when: "${{ inputs.env == \'prod\' }}"'));

  const flag = doc('nika: w', 'inputs: { flag: { type: bool } }', 'tasks:', '  a:', '    when: ${{ inputs.flag }}', '    infer: { prompt: "x" }');
  const f = one(flag, 'NIKA-VAR-005', 'inputs.flag');
  assert.ok(fixed(flag, f).includes('when: ${{ inputs.flag == true }}'));
  one(doc('nika: w', 'tasks:', '  a:', "    when: ${{ 'prod' }}", '    infer: { prompt: "x" }'), 'NIKA-VAR-005', "'prod'");
  one(doc('nika: w', 'inputs: { flag: { type: bool } }', 'tasks:', '  a:', '    when: "on ${{ inputs.flag == true }}"', '    infer: { prompt: "x" }'), 'NIKA-VAR-005', '"on ${{ inputs.flag == true }}"');
  none(doc('nika: w', 'inputs: { flag: { type: bool } }', 'tasks:', '  a:', '    when: ${{ !inputs.flag || has(inputs.flag) }}', '    infer: { prompt: "x" }'), 'NIKA-VAR-005');
  none(doc('nika: w', 'tasks:', '  a:', '    when: false', '    infer: { prompt: "x" }'), 'NIKA-VAR-005');
});

test('.status compared with a literal outside the four states ⇒ DAG-007 on the literal', () => {
  const text = doc(...HEAD,
    '  a:',
    '    infer: { prompt: "x" }',
    '  b:',
    '    with: { ok: "${{ tasks.a.status == \'succeeded\' }}", st: "${{ tasks.a.status in [\'success\', \'done\'] }}" }',
    '    infer: { prompt: "${{ with.ok }} ${{ with.st }}" }');
  const found = withCode(text, 'NIKA-DAG-007');
  assert.deepEqual(found.map((d) => covered(text, d)), ["'succeeded'", "'done'"]);
  assert.ok(fixed(text, found[0]).includes("tasks.a.status == 'success'"));
});
