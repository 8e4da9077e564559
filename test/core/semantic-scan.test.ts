import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import { referenceAt, scanExpressions, siteAt, surfaceOf } from '../../core/scan.js';
import { crlf, doc } from './semantic-helpers.js';

function sites(text: string) {
  const an = analyze(text, { skipChecks: true });
  return scanExpressions(an.doc, an.workflow);
}

const SAMPLE = [
  'nika: scan',
  'model: "${{ inputs.model }}"',
  'inputs: { model: { type: string, default: mock/echo } }',
  'permits: { tools: ["${{ inputs.t }}"] }',
  'tasks:',
  '  a:',
  '    with: { s: "${{ tasks.b.output }}" }',
  '    when: ${{ with.s == "x" }}',
  '    for_each: { items: "${{ inputs.list }}" }',
  '    on_error: { recover: "${{ tasks.b.output }}" }',
  '    extract: { n: "${{ bad }}" }',
  '    infer:',
  '      prompt: |',
  '        Hello ${{ item }}',
  '        again ${{ with.s }}',
  '  b:',
  '    after: { a: unwind }',
  '    exec: { command: [echo, "${{ tasks.a.status }}"] }',
  'outputs:',
  '  o: ${{ tasks.a.output }}',
  '  p: { value: "${{ const.c }}", description: "${{ nope }}" }',
];

test('scan: every island gets its surface and owning task', () => {
  const got = sites(doc(...SAMPLE)).map((s) => [s.surface, s.taskId ?? '-', s.value.slice(s.island.start, s.island.end)]);
  assert.deepEqual(got, [
    ['model', '-', '${{ inputs.model }}'],
    ['permits', '-', '${{ inputs.t }}'],
    ['with', 'a', '${{ tasks.b.output }}'],
    ['when', 'a', '${{ with.s == "x" }}'],
    ['for_each.items', 'a', '${{ inputs.list }}'],
    ['recover', 'a', '${{ tasks.b.output }}'],
    ['extract', 'a', '${{ bad }}'],
    ['body', 'a', '${{ item }}'],
    ['body', 'a', '${{ with.s }}'],
    ['body', 'b', '${{ tasks.a.status }}'],
    ['outputs', '-', '${{ tasks.a.output }}'],
    ['outputs', '-', '${{ const.c }}'],
    ['other', '-', '${{ nope }}'],
  ]);
});

test('scan: spans and references are document offsets, also in a | block and with CRLF', () => {
  for (const join of [doc, crlf]) {
    const text = join(...SAMPLE);
    const all = sites(text);
    for (const s of all) {
      assert.equal(text.slice(s.span.start, s.span.end), s.value.slice(s.island.start, s.island.end));
      for (const r of s.references) assert.equal(text.slice(r.rootSpan.start, r.rootSpan.end), r.root);
    }
    const item = all.find((s) => s.surface === 'body' && s.references[0]?.root === 'item')!;
    assert.equal(text.slice(item.sourceSpan.start, item.sourceSpan.end), ' item ');
    const w = all.find((s) => s.surface === 'body' && s.references[0]?.root === 'with')!;
    assert.equal(text.slice(w.references[0].segments[0].span.start, w.references[0].segments[0].span.end), 's');
  }
});

test('scan: unwind tasks are marked with their producer; whole-value islands are flagged', () => {
  const all = sites(doc(...SAMPLE));
  const b = all.find((s) => s.taskId === 'b')!;
  assert.deepEqual(b.unwindOf, ['a']);
  assert.equal(all.find((s) => s.surface === 'model')!.whole, true);
  assert.equal(all.find((s) => s.references[0]?.root === 'item')!.whole, false);
});

test('scan: cursor helpers find the site and the segment under an offset', () => {
  const text = doc(...SAMPLE);
  const all = sites(text);
  const at = text.indexOf('tasks.b.output') + 'tasks.b.ou'.length;
  const site = siteAt(all, at)!;
  assert.equal(site.surface, 'with');
  const hit = referenceAt(site, at)!;
  assert.equal(hit.ref.root, 'tasks');
  assert.equal(hit.ref.segments[hit.segment].name, 'output');
  assert.equal(referenceAt(site, text.indexOf('tasks.b.output') + 2)!.segment, -1);
});

test('scan: surfaceOf answers for any path, island or not', () => {
  assert.equal(surfaceOf(['tasks', 'x', 'invoke', 'args', 'url'], 'v1').surface, 'body');
  assert.equal(surfaceOf(['tasks', 'x', 'with', 'k'], 'v1').surface, 'with');
  assert.equal(surfaceOf(['tasks', 0, 'use', 'k'], 'legacy').surface, 'with');
  assert.equal(surfaceOf(['tasks', 0, 'for_each'], 'legacy').surface, 'for_each.items');
  assert.equal(surfaceOf(['tasks', 0, 'output', 'n'], 'v1-draft').surface, 'extract');
  assert.equal(surfaceOf(['tasks', 'x', 'timeout'], 'v1').surface, 'task');
  assert.equal(surfaceOf(['outputs', 'o', 'value'], 'v1').surface, 'outputs');
});

test('scan: unclosed islands are still parsed (completion) and legacy {{use.x}} templates are sites', () => {
  const open = sites(doc('nika: x', 'tasks:', '  a:', '    infer: { prompt: "hi ${{ inputs." }'));
  assert.equal(open.length, 1);
  assert.equal(open[0].island.closed, false);
  assert.equal(open[0].references[0]?.root, 'inputs');

  const text = doc('schema: "nika/workflow@0.4"', 'tasks:', '  - id: a', '    use: { ent: b }', '    infer: "About {{use.ent.name}} now"', '  - id: b', '    exec: "echo"');
  const legacy = sites(text).filter((s) => s.syntax === 'legacy');
  assert.equal(legacy.length, 1);
  const ref = legacy[0].references[0];
  assert.equal(ref.root, 'use');
  assert.deepEqual(ref.segments.map((s) => text.slice(s.span.start, s.span.end)), ['ent', 'name']);
  assert.equal(legacy[0].taskId, 'a');
});
