import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../../server/model.js';
import { definition, documentHighlights, prepareRename, references, rename } from '../../server/features/navigation.js';
import { applyEdits, cursor, textAt } from './cursor.js';

const URI = 'file:///w.nika.yaml';

const V1 = [
  'nika: demo',
  'inputs:',
  '  topic: { type: string }',
  'tasks:',
  '  fetch_data:',
  '    exec: { command: [echo, hi] }',
  '  summarize:',
  '    with: { raw: "${{ tasks.fetch_data.output }}" }',
  '    after: { fetch_data: success }',
  '    on_error: { recover: "${{ tasks.fetch_data.status }}" }',
  '    infer:',
  '      prompt: "About ${{ inputs.topic }}: ${{ with.raw }}"',
  'outputs:',
  '  out: ${{ tasks.fetch_data.output }}',
  '  sum: ${{ tasks.summarize.output }}',
];

function at(lines: string[], line: number, needle: string, delta = 1) {
  const marked = lines.map((l, i) => (i === line ? l.replace(needle, needle.slice(0, delta) + '|' + needle.slice(delta)) : l));
  return cursor(marked);
}

test('definition from tasks.X in an expression goes to the task key', () => {
  const c = at(V1, 7, 'fetch_data', 3);
  const m = buildModel(c.text);
  const defs = definition(m, URI, c.position);
  assert.equal(defs.length, 1);
  assert.equal(textAt(c.text, defs[0].range), 'fetch_data');
  assert.equal(defs[0].range.start.line, 4);
});

test('definition of with.x, inputs.x', () => {
  let c = at(V1, 11, 'with.raw', 6);
  let m = buildModel(c.text);
  let d = definition(m, URI, c.position);
  assert.equal(d[0].range.start.line, 7);
  assert.equal(textAt(c.text, d[0].range), 'raw');
  c = at(V1, 11, 'inputs.topic', 8);
  m = buildModel(c.text);
  d = definition(m, URI, c.position);
  assert.equal(d[0].range.start.line, 2);
  assert.equal(textAt(c.text, d[0].range), 'topic');
});

test('references of a task id cover every home in v1', () => {
  const c = at(V1, 8, 'fetch_data', 2);
  const m = buildModel(c.text);
  const refs = references(m, URI, c.position, true);
  assert.deepEqual(refs.map((r) => r.range.start.line), [4, 7, 8, 9, 13]);
  for (const r of refs) assert.equal(textAt(c.text, r.range), 'fetch_data');
  assert.equal(references(m, URI, c.position, false).length, 4);
  assert.equal(documentHighlights(m, c.position).length, 5);
});

test('rename edits every home and nothing else', () => {
  const c = at(V1, 4, 'fetch_data', 1);
  const m = buildModel(c.text);
  const prep = prepareRename(m, c.position);
  assert.ok(prep.ok);
  const r = rename(m, URI, c.position, 'load');
  assert.ok(r.ok);
  const out = applyEdits(c.text, r.edit.changes![URI]);
  assert.equal(out, c.text.replaceAll('fetch_data', 'load'));
});

test('rename refuses bad names, collisions, and non-task positions', () => {
  const c = at(V1, 4, 'fetch_data', 1);
  const m = buildModel(c.text);
  const bad = rename(m, URI, c.position, 'Load-It');
  assert.ok(!bad.ok && /not a valid task id/.test(bad.message));
  const clash = rename(m, URI, c.position, 'summarize');
  assert.ok(!clash.ok && /already exists/.test(clash.message));
  const c2 = at(V1, 11, 'prompt', 2);
  const p = prepareRename(buildModel(c2.text), c2.position);
  assert.ok(!p.ok && /Only task ids/.test(p.message));
});

test('v1-draft: list ids, depends_on and quoted ids are homes', () => {
  const lines = [
    'nika: v1',
    'workflow: demo',
    'tasks:',
    '  - id: "step_one"',
    '    exec: "echo hi"',
    '  - id: step_two',
    '    depends_on: [step_one]',
    '    infer: { prompt: "${{ tasks.step_one.output }}" }',
    '  - name: step_three',
    '    depends_on: step_one',
    '    after: { step_two: success }',
    '    exec: "true"',
  ];
  const c = at(lines, 3, 'step_one', 2);
  const m = buildModel(c.text);
  assert.equal(m.analysis.dialect, 'v1-draft');
  const refs = references(m, URI, c.position, true);
  assert.deepEqual(refs.map((r) => r.range.start.line), [3, 6, 7, 9]);
  const r = rename(m, URI, c.position, 'first');
  assert.ok(r.ok);
  const out = applyEdits(c.text, r.edit.changes![URI]);
  assert.equal(out, c.text.replaceAll('step_one', 'first'));
});

test('legacy: use: paths and flows: source/target are homes', () => {
  const lines = [
    'schema: nika/workflow@0.4',
    'workflow: demo',
    'tasks:',
    '  - id: get_entity',
    '    exec: "echo {}"',
    '  - id: gen',
    '    use: { entity: get_entity.data, other: "$get_entity ?? 1", obj: { from: get_entity, path: x } }',
    '    infer: "Write {{use.entity}}"',
    'flows:',
    '  - { source: get_entity, target: gen }',
    '  - source: [get_entity]',
    '    target: gen',
  ];
  const c = at(lines, 9, 'get_entity', 4);
  const m = buildModel(c.text);
  assert.equal(m.analysis.dialect, 'legacy');
  const refs = references(m, URI, c.position, true);
  assert.equal(refs.length, 6);
  for (const r of refs) assert.equal(textAt(c.text, r.range), 'get_entity');
  const def = definition(m, URI, c.position);
  assert.equal(def[0].range.start.line, 3);
  const r = rename(m, URI, c.position, 'entity_src');
  assert.ok(r.ok);
  assert.equal(applyEdits(c.text, r.edit.changes![URI]), c.text.replaceAll('get_entity', 'entity_src'));
});

test('CRLF: rename and references land exactly on the ids', () => {
  const c = cursor(V1.map((l, i) => (i === 4 ? l.replace('fetch_data', 'f|etch_data') : l)).join('\r\n'));
  const m = buildModel(c.text);
  const refs = references(m, URI, c.position, true);
  assert.equal(refs.length, 5);
  for (const r of refs) assert.equal(textAt(c.text, r.range), 'fetch_data');
  const r = rename(m, URI, c.position, 'load');
  assert.ok(r.ok);
  assert.equal(applyEdits(c.text, r.edit.changes![URI]), c.text.replaceAll('fetch_data', 'load'));
});

test('document highlights mark the declaration as a write', () => {
  const c = at(V1, 13, 'fetch_data', 2);
  const hs = documentHighlights(buildModel(c.text), c.position);
  assert.equal(hs.filter((h) => h.kind === 3).length, 1);
  assert.equal(hs.find((h) => h.kind === 3)!.range.start.line, 4);
});
