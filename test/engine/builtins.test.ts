// Each nika:* builtin through a real invoke task: its happy path and one error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runYaml } from '../cli/helpers.js';

const invoke = (tool: string, args: string, extra = '') =>
  `nika: t\npermits:\n  fs: { read: ["**"], write: ["**"] }\n  tools: ["nika:*"]\ntasks:\n  x:\n${extra}    invoke:\n      tool: "nika:${tool}"\n      args: ${args}\n`;

async function call(tool: string, args: string, opts: Parameters<typeof runYaml>[1] = {}) {
  const { result, events, dir } = await runYaml(invoke(tool, args), opts);
  return { ...result.tasks.x, events, dir };
}

test('nika:write, edit, read round-trip a file; write refuses to overwrite when told', async () => {
  const w = await call('write', '{ path: "d/a.txt", content: "hello old world", create_dirs: true }');
  assert.equal(w.output, 'd/a.txt');
  assert.equal(readFileSync(join(w.dir, 'd/a.txt'), 'utf8'), 'hello old world');
  const e = await call('edit', '{ path: "d/a.txt", find: "old", replace: "new" }', { dir: w.dir });
  assert.equal(e.status, 'success');
  const r = await call('read', '{ path: "d/a.txt" }', { dir: w.dir });
  assert.equal(r.output, 'hello new world');
  const no = await call('write', '{ path: "d/a.txt", content: "x", overwrite: false }', { dir: w.dir });
  assert.equal(no.error?.code, 'NIKA-BUILTIN-WRITE-001');
  const noDir = await call('write', '{ path: "missing/dir/f.txt", content: "x" }', { dir: w.dir });
  assert.equal(noDir.error?.code, 'NIKA-BUILTIN-WRITE-002');
});

test('nika:read of a missing file and nika:edit with no match fail with their codes', async () => {
  assert.equal((await call('read', '{ path: "nope.txt" }')).error?.code, 'NIKA-BUILTIN-READ-001');
  const base = await call('write', '{ path: "f.txt", content: "a a a" }');
  assert.equal((await call('edit', '{ path: "f.txt", find: "zzz", replace: "y" }', { dir: base.dir })).error?.code, 'NIKA-BUILTIN-EDIT-001');
  assert.equal((await call('edit', '{ path: "f.txt", find: "a", replace: "b" }', { dir: base.dir })).error?.code, 'NIKA-BUILTIN-EDIT-001', 'ambiguous without count');
  await call('edit', '{ path: "f.txt", find: "a", replace: "b", count: 0 }', { dir: base.dir });
  assert.equal(readFileSync(join(base.dir, 'f.txt'), 'utf8'), 'b b b');
});

test('nika:glob returns sorted relative paths; nika:grep returns {path, line, match}', async () => {
  const base = await call('write', '{ path: "src/b.ts", content: "const x = 1;\\n// TODO fix\\n", create_dirs: true }');
  writeFileSync(join(base.dir, 'src', 'a.ts'), 'todo later\n');
  writeFileSync(join(base.dir, 'src', 'c.md'), 'nothing\n');
  const g = await call('glob', '{ pattern: "src/*.ts" }', { dir: base.dir });
  assert.deepEqual(g.output, ['src/a.ts', 'src/b.ts']);
  const gr = await call('grep', '{ pattern: "todo", path: "src", case_insensitive: true }', { dir: base.dir });
  assert.deepEqual(gr.output, [{ path: 'src/a.ts', line: 1, match: 'todo later' }, { path: 'src/b.ts', line: 2, match: '// TODO fix' }]);
  assert.equal((await call('grep', '{ pattern: "(", path: "src" }', { dir: base.dir })).error?.code, 'NIKA-BUILTIN-GREP-001');
});

test('nika:jq runs jq; a runtime error is NIKA-BUILTIN-JQ-001', async () => {
  assert.deepEqual((await call('jq', '{ expression: "map(. * 2)", input: [1, 2, 3] }')).output, [2, 4, 6]);
  assert.equal((await call('jq', '{ expression: ".a.b", input: { a: 1 } }')).error?.code, 'NIKA-BUILTIN-JQ-001');
});

test('nika:assert passes on true and fails with NIKA-BUILTIN-ASSERT-001 and the message', async () => {
  assert.equal((await call('assert', '{ condition: true }')).output, true);
  const f = await call('assert', '{ condition: false, message: "numbers disagree" }');
  assert.equal(f.error?.code, 'NIKA-BUILTIN-ASSERT-001');
  assert.match(f.error!.message, /numbers disagree/);
});

test('nika:log and nika:emit write into the trace; emit checks the event name', async () => {
  const l = await call('log', '{ message: "hello log", level: warn, data: { k: 1 } }');
  assert.ok(l.events.some((e) => e.type === 'task_log' && e.message === 'hello log' && e.level === 'warn'));
  const e = await call('emit', '{ event_type: "deploy.done", payload: { ok: true } }');
  assert.ok(e.events.some((x) => x.type === 'task_log' && x.level === 'event' && x.message === 'deploy.done'));
  assert.equal((await call('emit', '{ event_type: "Bad Name" }')).error?.code, 'NIKA-BUILTIN-EMIT-001');
});

test('nika:uuid v7 and v4, nika:hash blake3 and sha256 (md5 refused)', async () => {
  assert.match((await call('uuid', '{}')).output as string, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match((await call('uuid', '{ version: v4 }')).output as string, /^[0-9a-f-]{8}-[0-9a-f]{4}-4/);
  assert.equal((await call('hash', '{ content: "abc" }')).output, '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
  assert.equal((await call('hash', '{ content: "abc", algo: sha256 }')).output, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal((await call('hash', '{ content: "abc", algo: md5 }')).error?.code, 'NIKA-BUILTIN-001');
});

test('nika:date formats, adds and diffs; a bad timestamp is NIKA-BUILTIN-DATE-001', async () => {
  assert.equal((await call('date', '{ op: format, input: "2026-03-04T05:06:07Z", format: "%Y/%m/%d %H:%M" }')).output, '2026/03/04 05:06');
  assert.equal((await call('date', '{ op: add, base: "2026-01-01T00:00:00Z", duration: "36h" }')).output, '2026-01-02T12:00:00.000Z');
  assert.equal((await call('date', '{ op: diff, start: "2026-01-01T00:00:00Z", end: "2026-01-03T00:00:00Z", unit: h }')).output, 48);
  assert.equal((await call('date', '{ op: parse, input: "not a date" }')).error?.code, 'NIKA-BUILTIN-DATE-001');
});

test('nika:convert between csv, json, yaml and toml; bad input is NIKA-BUILTIN-CONVERT-001', async () => {
  assert.deepEqual((await call('convert', '{ input: "a,b\\n1,2\\n", from: csv, to: json }')).output, [{ a: '1', b: '2' }]);
  assert.equal((await call('convert', '{ input: "{\\"k\\": [1]}", from: json, to: yaml }')).output, 'k:\n  - 1\n');
  assert.match((await call('convert', '{ input: { title: "x" }, from: json, to: toml }')).output as string, /title = "x"/);
  assert.equal((await call('convert', '{ input: "{oops", from: json, to: yaml }')).error?.code, 'NIKA-BUILTIN-CONVERT-001');
});

test('nika:validate reports {valid, errors}; a broken schema is NIKA-BUILTIN-VALIDATE-001', async () => {
  const ok = await call('validate', '{ data: { n: 1 }, schema: { type: object, required: [n] } }');
  assert.deepEqual(ok.output, { valid: true, errors: [] });
  const bad = await call('validate', '{ data: { n: "x" }, schema: { type: object, properties: { n: { type: integer } } } }');
  assert.equal((bad.output as { valid: boolean }).valid, false);
  assert.equal(bad.status, 'success', 'invalid data is not a failure');
  assert.equal((await call('validate', '{ data: 1, schema: { type: 12 } }')).error?.code, 'NIKA-BUILTIN-VALIDATE-001');
});

test('nika:json_diff gives an RFC 6902 patch; nika:json_merge_patch applies RFC 7396', async () => {
  assert.deepEqual((await call('json_diff', '{ before: { a: 1, b: [1] }, after: { a: 2, b: [1, 2], c: true } }')).output, [
    { op: 'replace', path: '/a', value: 2 }, { op: 'add', path: '/b/1', value: 2 }, { op: 'add', path: '/c', value: true },
  ]);
  assert.deepEqual((await call('json_merge_patch', '{ target: { a: 1, b: { c: 2, d: 3 } }, patch: { a: null, b: { c: 5 } } }')).output, { b: { c: 5, d: 3 } });
  assert.equal((await call('json_merge_patch', '{ target: 1 }')).error?.code, 'NIKA-BUILTIN-001');
});

test('nika:wait pauses for a duration; a bad duration is NIKA-BUILTIN-WAIT-001; both forms at once are refused', async () => {
  assert.equal((await call('wait', '{ duration: "20ms" }')).status, 'success');
  assert.equal((await call('wait', '{ duration: "soon" }')).error?.code, 'NIKA-BUILTIN-WAIT-001');
  assert.equal((await call('wait', '{ duration: "1s", until: "2030-01-01T00:00:00Z" }')).error?.code, 'NIKA-BUILTIN-001');
});

test('nika:prompt headless answers its default, else NIKA-BUILTIN-PROMPT-001; a caller hook answers otherwise', async () => {
  assert.equal((await call('prompt', '{ message: "Ship it?", default: true }')).output, true);
  assert.equal((await call('prompt', '{ message: "Ship it?" }')).error?.code, 'NIKA-BUILTIN-PROMPT-001');
  const asked = await call('prompt', '{ message: "Which?", mode: choice, choices: [a, b] }', { prompt: async (r) => r.choices![1] });
  assert.equal(asked.output, 'b');
});

test('nika:done outside an agent is NIKA-BUILTIN-DONE-001; nika:inspect reads the run', async () => {
  assert.equal((await call('done', '{ result: 1 }')).error?.code, 'NIKA-BUILTIN-DONE-001');
  const { result } = await runYaml(`nika: t
permits: { tools: ["nika:*"] }
tasks:
  a:
    invoke: { tool: "nika:log", args: { message: hi } }
  b:
    after: { a: success }
    invoke: { tool: "nika:inspect", args: { view: records } }
`);
  assert.equal((result.tasks.b.output as Record<string, { status: string }>).a.status, 'success');
});

test('unknown arguments and unimplemented builtins fail clearly', async () => {
  assert.equal((await call('read', '{ file: "x" }')).error?.code, 'NIKA-BUILTIN-001');
  assert.equal((await call('chart', '{ data: [], chart: {}, out: "c.svg" }')).error?.code, 'NIKA-BUILTIN-CHART-001');
});
