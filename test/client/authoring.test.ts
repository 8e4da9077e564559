import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { analyze } from '../../core/analyze.js';
import { lensPlan } from '../../client/model/lenses.js';
import { coerceInput, inputQuestions } from '../../client/model/inputs.js';
import { planInvokeInsertion, snakeId, type TextEdit } from '../../client/model/invokeTask.js';

function apply(text: string, edits: TextEdit[]): string {
  for (const e of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

const V1 = `# a comment first

nika: hello
inputs:
  name: { type: string, required: true }
  count: { type: integer, required: true }
  loud: { type: bool, required: true }
  mood: { type: { enum: [calm, happy] }, required: true }
  tags: { type: { array: string }, required: true }
  greeting: { type: string, default: hi }
tasks:
  greet:
    infer: { prompt: "Say hi to \${{ inputs.name }}" }
  shout:
    with: { g: "\${{ tasks.greet.output }}" }
    exec: { command: [echo, "\${{ with.g }}"] }
`;

test('lenses: the workflow row sits on the first content line, one row per task on its key', () => {
  const a = analyze(V1);
  const spots = lensPlan(a.workflow, a.doc.lines);
  assert.deepEqual(spots, [
    { kind: 'workflow', line: 2 },
    { kind: 'task', line: 11, character: 2, taskId: 'greet' },
    { kind: 'task', line: 13, character: 2, taskId: 'shout' },
  ]);
});

test('lenses follow the id value in list dialects and CRLF files', () => {
  const text = 'schema: "nika/workflow@0.5"\r\ntasks:\r\n  - id: one\r\n    exec: "echo 1"\r\n  - id: two\r\n    exec: "echo 2"\r\n';
  const a = analyze(text);
  const tasks = lensPlan(a.workflow, a.doc.lines).filter((s) => s.kind === 'task');
  assert.deepEqual(tasks.map((s) => [s.line, s.kind === 'task' && s.taskId]), [[2, 'one'], [4, 'two']]);
});

test('required inputs without defaults are asked, each with its type', () => {
  const a = analyze(V1);
  const qs = inputQuestions(a.workflow.inputs, { count: 3 });
  assert.deepEqual(qs.map((q) => [q.name, q.kind]), [['name', 'string'], ['loud', 'bool'], ['mood', 'enum'], ['tags', 'json']]);
  assert.deepEqual(qs.find((q) => q.name === 'mood')!.options, ['calm', 'happy']);
});

test('typed answers are coerced, wrong ones explained', () => {
  assert.deepEqual(coerceInput({ name: 'n', kind: 'integer', typeLabel: 'integer' }, ' 42 '), { ok: true, value: 42 });
  assert.equal(coerceInput({ name: 'n', kind: 'integer', typeLabel: 'integer' }, '4.5').ok, false);
  assert.deepEqual(coerceInput({ name: 'n', kind: 'number', typeLabel: 'number', max: 1 }, '2'), { ok: false, error: 'must be ≤ 1' });
  assert.deepEqual(coerceInput({ name: 'b', kind: 'bool', typeLabel: 'bool' }, 'yes'), { ok: true, value: true });
  assert.deepEqual(coerceInput({ name: 'j', kind: 'json', typeLabel: 'array' }, '["a", "b"]'), { ok: true, value: ['a', 'b'] });
  assert.equal(coerceInput({ name: 'j', kind: 'json', typeLabel: 'array' }, '[a').ok, false);
  assert.deepEqual(coerceInput({ name: 's', kind: 'string', typeLabel: 'string' }, ' keep spaces '), { ok: true, value: ' keep spaces ' });
});

const echo = {
  server: 'everything', name: 'echo',
  inputSchema: { type: 'object', properties: { message: { type: 'string' }, times: { type: 'integer' } }, required: ['message'] },
};

test('invoke task (v1): inserted after the task under the cursor, with required args and a new permits block', () => {
  const cursor = V1.indexOf('infer: {');
  const plan = planInvokeInsertion(analyze(V1), cursor, echo);
  assert.ok(!('error' in plan));
  assert.equal(plan.taskId, 'echo');
  assert.equal(plan.grantAdded, true);
  const out = apply(V1, plan.edits);
  // The new block grants what the workflow already does (exec echo) as well as the new tool.
  assert.match(out, /permits:\n  exec: \[echo\]\n  tools: \["mcp:everything\/echo"\]\ntasks:\n  greet:\n    infer: .*\n  echo:\n    invoke:\n      tool: mcp:everything\/echo\n      args:\n        message: ""\n  shout:/);
  // The result is still a valid current-v1 workflow with the new task and the grant.
  const a = analyze(out);
  assert.deepEqual(a.workflow.tasks.map((t) => t.id), ['greet', 'echo', 'shout']);
  assert.deepEqual(a.workflow.permits?.tools, ['mcp:everything/echo']);
  assert.deepEqual(a.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), []);
});

test('invoke task: an existing permits.tools list gets the entry; a glob that already admits it adds nothing', () => {
  const base = 'nika: t\npermits:\n  tools:\n    - nika:read\ntasks:\n  a:\n    invoke: { tool: "nika:read", args: { path: x } }\n';
  const plan = planInvokeInsertion(analyze(base), base.length, echo);
  assert.ok(!('error' in plan));
  const out = apply(base, plan.edits);
  assert.deepEqual(parse(out).permits.tools, ['nika:read', 'mcp:everything/echo']);
  assert.equal(parse(out).tasks.echo.invoke.tool, 'mcp:everything/echo');

  const globbed = 'nika: t\npermits: { tools: ["mcp:everything/*"] }\ntasks:\n  a:\n    exec: { command: [ls] }\n';
  const p2 = planInvokeInsertion(analyze(globbed), 0, echo);
  assert.ok(!('error' in p2));
  assert.equal(p2.grantAdded, false);
  assert.equal(p2.edits.length, 1);
});

test('invoke task: flow permits and empty permits are extended in place; ids never collide', () => {
  const base = 'nika: t\npermits: {}\ntasks:\n  echo:\n    exec: { command: [ls] }\n';
  const plan = planInvokeInsertion(analyze(base), 0, echo);
  assert.ok(!('error' in plan));
  assert.equal(plan.taskId, 'echo_2');
  const out = apply(base, plan.edits);
  const y = parse(out);
  assert.deepEqual(y.permits, { tools: ['mcp:everything/echo'] });
  assert.deepEqual(Object.keys(y.tasks), ['echo', 'echo_2']);
});

test('invoke task in a legacy file uses the legacy shape and adds no permits', () => {
  const base = 'schema: "nika/workflow@0.5"\nmcp:\n  everything: { command: npx }\ntasks:\n  - id: first\n    exec: "echo 1"\n';
  const plan = planInvokeInsertion(analyze(base), base.length, echo);
  assert.ok(!('error' in plan));
  const y = parse(apply(base, plan.edits));
  assert.equal(y.permits, undefined);
  assert.deepEqual(y.tasks[1], { id: 'echo', invoke: { mcp: 'everything', tool: 'echo', params: { message: '' } } });
});

test('invoke task on a blank line between tasks uses that line; v1-draft lists keep their id key', () => {
  const base = 'nika: v1\nvars: { a: 1 }\ntasks:\n  - name: one\n    exec: echo 1\n\n  - name: two\n    exec: echo 2\n';
  const cursor = base.indexOf('\n\n') + 1;
  const plan = planInvokeInsertion(analyze(base), cursor, { server: 'mem', name: 'ReadGraph', inputSchema: {} });
  assert.ok(!('error' in plan));
  const y = parse(apply(base, plan.edits));
  assert.deepEqual(y.tasks.map((t: { name: string }) => t.name), ['one', 'read_graph', 'two']);
  assert.deepEqual(y.tasks[1].invoke, { tool: 'mcp:mem/ReadGraph', args: {} });
});

test('tool names become snake_case task ids', () => {
  assert.equal(snakeId('get-weather'), 'get_weather');
  assert.equal(snakeId('readFile'), 'read_file');
  assert.equal(snakeId('2fa'), 'call_2fa');
});
