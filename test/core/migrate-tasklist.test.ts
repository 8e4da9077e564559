// The NIKA-PARSE-022 quick fix: a current-v1 `tasks:` list becomes the equivalent map in one edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import { convertTaskListToMap } from '../../core/migrate.js';

function apply(text: string): string {
  const edit = convertTaskListToMap(text);
  assert.ok(edit, 'an edit is offered');
  assert.ok(edit.span.start > text.indexOf('tasks:'), 'the tasks: key itself is kept');
  return text.slice(0, edit.span.start) + edit.newText + text.slice(edit.span.end);
}

const LIST = `nika: my-flow
model: mock/echo
permits:
  exec: [echo]
tasks:
  # fetch first
  - id: a
    name: Say hello
    infer: { prompt: "hi" }
  # then echo it
  - id: b
    with: { x: "\${{ tasks.a.output }}" }
    exec:
      command: [echo, "\${{ with.x }}"]
outputs:
  o: \${{ tasks.b.output }}
`;

test('list entries become map entries keyed by id; id/name keys go, comments and styles stay', () => {
  const before = analyze(LIST);
  assert.ok(before.diagnostics.some((d) => d.code === 'NIKA-PARSE-022'), 'fixture shows the problem');
  const fixed = apply(LIST);
  const after = analyze(fixed);
  assert.deepEqual(after.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), [], fixed);
  assert.deepEqual(after.workflow.tasks.map((t) => t.id), ['a', 'b']);
  assert.deepEqual(after.workflow.tasks[1].with, { x: '${{ tasks.a.output }}' });
  assert.ok(!/^\s*(- )?id:/m.test(fixed), fixed);
  assert.match(fixed, /# fetch first\n\s*# Say hello\n {2}a:\n {4}infer: \{ prompt: "hi" \}/);
  assert.match(fixed, /# then echo it\n {2}b:/);
  // Everything outside the tasks value is untouched.
  assert.ok(fixed.startsWith(LIST.slice(0, LIST.indexOf('tasks:') + 'tasks:'.length)));
  assert.ok(fixed.endsWith('outputs:\n  o: ${{ tasks.b.output }}\n'));
});

test('name: alone serves as the id; flow lists and a list at the end of the file work', () => {
  const text = 'nika: x\ntasks: [{ name: one, infer: { prompt: "a" } }, { name: two, infer: { prompt: "b" } }]';
  const fixed = apply(text);
  assert.deepEqual(analyze(fixed).workflow.tasks.map((t) => t.id), ['one', 'two']);
  assert.deepEqual(analyze(fixed).diagnostics.filter((d) => d.severity === 'error'), []);
});

test('CRLF documents get CRLF text', () => {
  const text = LIST.replace(/\n/g, '\r\n');
  const fixed = apply(text);
  assert.ok(!/[^\r]\n/.test(fixed));
  assert.deepEqual(analyze(fixed).workflow.tasks.map((t) => t.id), ['a', 'b']);
});

test('no edit when an entry has no usable id, ids repeat, or tasks is already a map', () => {
  assert.equal(convertTaskListToMap('nika: x\ntasks:\n  - infer: { prompt: a }\n'), undefined);
  assert.equal(convertTaskListToMap('nika: x\ntasks:\n  - id: Bad-Id\n    infer: { prompt: a }\n'), undefined);
  assert.equal(convertTaskListToMap('nika: x\ntasks:\n  - id: a\n    infer: { prompt: a }\n  - id: a\n    infer: { prompt: b }\n'), undefined);
  assert.equal(convertTaskListToMap('nika: x\ntasks:\n  a:\n    infer: { prompt: a }\n'), undefined);
  assert.equal(convertTaskListToMap('nika: x\ntasks: [\n'), undefined);
});
