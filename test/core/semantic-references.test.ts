import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crlf, doc, fixed, none, one, withCode } from './semantic-helpers.js';

const HEAD = ['nika: refs', 'inputs:', '  topic: { type: string }', 'const:', '  limit: 3', 'secrets:', '  token: { source: env, key: TOKEN }', 'permits: {}', 'tasks:'];

test('undeclared inputs/const/secrets key: VAR-001 on the key, with a did-you-mean fix', () => {
  const text = doc(...HEAD, '  a:', '    infer: { prompt: "${{ inputs.topik }} ${{ const.limit }} ${{ secrets.token }}" }');
  const d = one(text, 'NIKA-VAR-001', 'topik');
  assert.match(d.message, /Did you mean 'topic'/);
  assert.ok(fixed(text, d).includes('${{ inputs.topic }}'));
  none(doc(...HEAD, '  a:', '    infer: { prompt: "${{ inputs.topic }} ${{ const.limit }} ${{ secrets.token }}" }'), 'NIKA-VAR-001');
});

test('has() guards an absent key instead of failing on it', () => {
  none(doc(...HEAD, '  a:', '    infer: { prompt: "${{ has(inputs.maybe) ? inputs.topic : const.limit }}" }'), 'NIKA-VAR-001');
});

test('with.X must be a key of this task\'s with:', () => {
  const text = doc(...HEAD, '  a:', '    infer: { prompt: "x" }', '  b:', '    with: { summary: "${{ tasks.a.output }}" }', '    infer: { prompt: "${{ with.sumary }}" }');
  const d = one(text, 'NIKA-VAR-001', 'sumary');
  assert.ok(fixed(text, d).includes('${{ with.summary }}'));
  one(doc(...HEAD, '  a:', '    infer: { prompt: "x" }', 'outputs:', '  o: ${{ with.a }}'), 'NIKA-VAR-001', 'with');
});

test('tasks.X in with: — unknown task is DAG-002, bare record VAR-020, unknown field VAR-001', () => {
  const base = [...HEAD, '  a:', '    extract: { title: ".title" }', '    infer: { prompt: "x" }', '  b:'];
  const t1 = doc(...base, '    with: { s: "${{ tasks.aa.output }}" }', '    infer: { prompt: "${{ with.s }}" }');
  assert.equal(fixed(t1, one(t1, 'NIKA-DAG-002', 'aa')).includes('tasks.a.output'), true);
  one(doc(...base, '    with: { s: "${{ tasks.a }}" }', '    infer: { prompt: "${{ with.s }}" }'), 'NIKA-VAR-020', 'tasks.a');
  one(doc(...base, '    with: { s: "${{ tasks }}" }', '    infer: { prompt: "${{ with.s }}" }'), 'NIKA-VAR-020', 'tasks');
  const t2 = doc(...base, '    with: { s: "${{ tasks.a.titel }}" }', '    infer: { prompt: "${{ with.s }}" }');
  assert.match(one(t2, 'NIKA-VAR-001', 'titel').message, /Did you mean 'title'/);
  for (const p of ['output', 'status', 'error', 'duration_ms', 'started_at', 'ended_at', 'title']) {
    none(doc(...base, `    with: { s: "\${{ tasks.a.${p} }}" }`, '    infer: { prompt: "${{ with.s }}" }'), 'NIKA-VAR-001');
  }
});

test('unknown task in outputs: and in recover is VAR-001 (§8.3)', () => {
  one(doc(...HEAD, '  a:', '    infer: { prompt: "x" }', 'outputs:', '  o: ${{ tasks.b.output }}'), 'NIKA-VAR-001', 'b');
  one(doc(...HEAD, '  a:', '    on_error: { recover: "${{ tasks.zz.output }}" }', '    infer: { prompt: "x" }'), 'NIKA-VAR-001', 'zz');
});

test('tasks.* in a verb body: VAR-021 with a hoist-into-with fix (new with: block)', () => {
  const text = doc(...HEAD,
    '  fetch:',
    '    infer: { prompt: "x" }',
    '  sum:',
    '    infer:',
    '      model: mock/echo',
    '      prompt: |',
    '        Summarize this:',
    '        ${{ tasks.fetch.output.body }} for ${{ inputs.topic }}');
  const d = one(text, 'NIKA-VAR-021', 'tasks.fetch.output');
  assert.equal(fixed(text, d), doc(...HEAD,
    '  fetch:',
    '    infer: { prompt: "x" }',
    '  sum:',
    '    with:',
    '      fetch: "${{ tasks.fetch.output }}"',
    '    infer:',
    '      model: mock/echo',
    '      prompt: |',
    '        Summarize this:',
    '        ${{ with.fetch.body }} for ${{ inputs.topic }}'));
});

test('hoist fix extends an existing block or flow with:, and keeps CRLF', () => {
  const block = crlf(...HEAD,
    '  a:',
    '    infer: { prompt: "x" }',
    '  b:',
    '    with:',
    '      other: 1',
    '    when: ${{ tasks.a.status == "success" }}',
    '    exec: { command: [echo, "${{ with.other }}"] }');
  const d = one(block, 'NIKA-VAR-021', 'tasks.a.status');
  assert.equal(fixed(block, d), crlf(...HEAD,
    '  a:',
    '    infer: { prompt: "x" }',
    '  b:',
    '    with:',
    '      other: 1',
    '      a_status: "${{ tasks.a.status }}"',
    '    when: ${{ with.a_status == "success" }}',
    '    exec: { command: [echo, "${{ with.other }}"] }'));

  const flow = doc(...HEAD,
    '  a:',
    '    infer: { prompt: "x" }',
    '  b:',
    '    with: { n: 1 }',
    '    exec: { command: [echo, "${{ tasks.a.output }}", "${{ with.n }}"] }');
  assert.equal(fixed(flow, one(flow, 'NIKA-VAR-021', 'tasks.a.output')), doc(...HEAD,
    '  a:',
    '    infer: { prompt: "x" }',
    '  b:',
    '    with: { n: 1, a: "${{ tasks.a.output }}" }',
    '    exec: { command: [echo, "${{ with.a }}", "${{ with.n }}"] }'));
});

test('hoist fix reuses an existing binding of the same value', () => {
  const text = doc(...HEAD,
    '  a:',
    '    infer: { prompt: "x" }',
    '  b:',
    '    with: { prev: "${{ tasks.a.output }}" }',
    '    infer: { prompt: "${{ with.prev }} ${{ tasks.a.output }}" }');
  const d = one(text, 'NIKA-VAR-021', 'tasks.a.output');
  assert.equal(d.data!.fixes![0].edits.length, 1);
  assert.ok(fixed(text, d).includes('prompt: "${{ with.prev }} ${{ with.prev }}"'));
});

test('tasks.* / group.* in for_each.items and when are outside the boundary', () => {
  const text = doc(...HEAD,
    '  a:',
    '    group: legs',
    '    infer: { prompt: "x" }',
    '  b:',
    '    for_each: { items: "${{ tasks.a.output }}" }',
    '    infer: { prompt: "${{ item }}" }',
    '  c:',
    '    when: ${{ size(group.legs) > 0 }}',
    '    infer: { prompt: "y" }');
  const found = withCode(text, 'NIKA-VAR-021');
  assert.deepEqual(found.map((d) => text.slice(d.span.start, d.span.end)), ['tasks.a.output', 'group.legs']);
  assert.ok(fixed(text, found[0]).includes('    with:\n      a: "${{ tasks.a.output }}"\n    for_each: { items: "${{ with.a }}" }'));
  assert.equal(found[1].data?.fixes, undefined);
});

test('group: undeclared or bare ⇒ DAG-008; legal inside with:', () => {
  const base = [...HEAD, '  a:', '    group: legs', '    infer: { prompt: "x" }', '  b:'];
  none(doc(...base, '    with: { all: "${{ group.legs }}" }', '    infer: { prompt: "${{ with.all }}" }'), 'NIKA-VAR-021');
  const t = doc(...base, '    with: { all: "${{ group.lgs }}" }', '    infer: { prompt: "${{ with.all }}" }');
  assert.match(one(t, 'NIKA-DAG-008', 'lgs').message, /Did you mean 'legs'/);
  one(doc(...base, '    with: { all: "${{ group }}" }', '    infer: { prompt: "${{ with.all }}" }'), 'NIKA-DAG-008', 'group');
});

test('item/index: only inside a for_each task, and not in for_each.items itself', () => {
  one(doc(...HEAD, '  a:', '    infer: { prompt: "${{ item }}" }'), 'NIKA-VAR-001', 'item');
  none(doc(...HEAD, '  a:', '    for_each: { items: [1, 2] }', '    when: ${{ index > 0 }}', '    infer: { prompt: "${{ item }} ${{ index }}" }'), 'NIKA-VAR-001');
  one(doc(...HEAD, '  a:', '    for_each: { items: "${{ item }}" }', '    infer: { prompt: "x" }'), 'NIKA-VAR-005', 'item');
  // Transitively, through a binding that reads the loop variable (§2.4).
  one(doc(...HEAD, '  a:', '    with: { x: "${{ item }}" }', '    for_each: { items: "${{ with.x }}" }', '    infer: { prompt: "x" }'), 'NIKA-VAR-005', 'with.x');
});

test('unknown roots: VAR-001 and VALUES-003 together; vars/env/config have their own codes', () => {
  const t = doc(...HEAD, '  a:', '    infer: { prompt: "${{ params.x }} ${{ input.topic }}" }');
  const v001 = withCode(t, 'NIKA-VAR-001');
  assert.deepEqual(v001.map((d) => t.slice(d.span.start, d.span.end)), ['params', 'input']);
  assert.deepEqual(withCode(t, 'NIKA-VALUES-003').map((d) => t.slice(d.span.start, d.span.end)), ['params', 'input']);
  assert.ok(fixed(t, v001[1]).includes('${{ inputs.topic }}'));
  one(doc(...HEAD, '  a:', '    infer: { prompt: "${{ vars.x }}" }'), 'NIKA-VALUES-001', 'vars');
  one(doc(...HEAD, '  a:', '    infer: { prompt: "${{ env.HOME }}" }'), 'NIKA-VALUES-002', 'env');
  const cfg = doc(...HEAD, '  a:', '    infer: { prompt: "${{ config.topic }}" }');
  const d = one(cfg, 'NIKA-VALUES-003', 'config');
  assert.ok(fixed(cfg, d).includes('${{ inputs.topic }}'));
});

test('unwind task may read only its producer', () => {
  const text = doc(...HEAD,
    '  a:',
    '    infer: { prompt: "x" }',
    '  b:',
    '    infer: { prompt: "y" }',
    '  cleanup:',
    '    after: { a: unwind }',
    '    exec: { command: [echo, "${{ tasks.a.status }}", "${{ tasks.b.output }}"] }');
  one(text, 'NIKA-VAR-021', 'tasks.b.output');
});

test('expressions in permits: (AUTH-007) and in extract: (VAR-005) are refused', () => {
  const t = doc('nika: x', 'inputs: { h: { type: string } }', 'permits:', '  net: { http: ["${{ inputs.h }}"] }', 'tasks:', '  a:', '    extract: { n: "${{ inputs.h }}" }', '    infer: { prompt: "x" }');
  one(t, 'NIKA-AUTH-007', '${{ inputs.h }}');
  one(t, 'NIKA-VAR-005', '${{ inputs.h }}');
});

test('syntax errors point at the operator; unclosed ${{ at its opener', () => {
  const t = doc(...HEAD, '  a:', '    infer:', '      prompt: |', '        Count ${{ const.limit + 1 }}');
  one(t, 'NIKA-VAR-005', '+');
  const c = crlf(...HEAD, '  a:', '    infer:', '      prompt: |', '        one', '        Count ${{ const.limit + 1 }}');
  one(c, 'NIKA-VAR-005', '+');
  one(doc(...HEAD, '  a:', '    infer: { prompt: "x ${{ inputs.topic" }'), 'NIKA-VAR-008', '${{');
});

test('ranges stay exact in double-quoted scalars with escapes and in folded > scalars', () => {
  const text = doc(...HEAD,
    '  a:',
    '    infer: { prompt: "say \\"hi\\" ${{ inputs.topik }}" }',
    '  b:',
    '    infer:',
    '      prompt: >',
    '        folded line one',
    '        and ${{ const.limt }} here');
  const found = withCode(text, 'NIKA-VAR-001');
  assert.deepEqual(found.map((d) => text.slice(d.span.start, d.span.end)), ['topik', 'limt']);
  assert.ok(fixed(text, found[0]).includes('say \\"hi\\" ${{ inputs.topic }}'));
  assert.ok(fixed(text, found[1]).includes('and ${{ const.limit }} here'));
});

test('an island that itself contains escapes is reported on its scalar, without a text fix', () => {
  const text = doc(...HEAD, '  a:', '    infer: { prompt: "${{ inputs.topik == \\"x\\" }}" }');
  const d = one(text, 'NIKA-VAR-001', '"${{ inputs.topik == \\"x\\" }}"');
  assert.equal(d.data?.fixes, undefined);
});
