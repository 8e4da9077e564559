import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, TextEdit } from 'vscode-languageserver';
import { buildModel } from '../../server/model.js';
import { completion } from '../../server/features/completion.js';
import type { ToolCatalog } from '../../core/catalog/mcp.js';
import { applyEdits, cursor, textAt } from './cursor.js';

const CATALOG: ToolCatalog = {
  servers: [
    {
      name: 'everything', status: 'connected', tools: [
        { name: 'echo', description: 'Echoes back the input', inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] } },
        { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object', properties: { b: { type: 'number' }, a: { type: 'number' }, mode: { type: 'string', enum: ['fast', 'exact'], default: 'fast' } }, required: ['a', 'b'] } },
      ],
    },
    { name: 'broken', status: 'error', error: 'spawn ENOENT' },
  ],
};

function complete(lines: string[], catalog: ToolCatalog = { servers: [] }, marker = '|') {
  const c = cursor(lines, marker);
  const list = completion(buildModel(c.text, catalog), c.position);
  return { ...c, items: list.items };
}
const labels = (items: CompletionItem[]) => items.map((i) => i.label);
function apply(c: { text: string }, item: CompletionItem): string {
  const e = item.textEdit as TextEdit;
  return applyEdits(c.text, [{ range: e.range, newText: e.newText }]);
}

test('envelope keys per dialect, without the ones already written', () => {
  let r = complete(['nika: demo', '|', 'tasks:', '  a:', '    exec: { command: [ls] }']);
  assert.deepEqual(labels(r.items).sort(), ['const', 'inputs', 'model', 'outputs', 'permits', 'run', 'secrets']);
  r = complete(['schema: nika/workflow@0.4', 'wor|', 'tasks:', '  - id: a', '    exec: "ls"']);
  assert.ok(labels(r.items).includes('workflow'));
  assert.ok(labels(r.items).includes('flows'));
  assert.ok(!labels(r.items).includes('permits'));
  const wf = r.items.find((i) => i.label === 'workflow')!;
  assert.equal(textAt(r.text, (wf.textEdit as TextEdit).range), 'wor');
});

test('task keys: verbs are snippets with bodies; other verbs vanish once one is written', () => {
  let r = complete(['nika: demo', 'tasks:', '  a:', '    |']);
  const infer = r.items.find((i) => i.label === 'infer')!;
  assert.equal(infer.insertTextFormat, 2);
  assert.equal((infer.textEdit as TextEdit).newText, 'infer:\n  prompt: ${1}');
  assert.equal((r.items.find((i) => i.label === 'exec')!.textEdit as TextEdit).newText, 'exec:\n  command: [${1}]');
  assert.match((r.items.find((i) => i.label === 'agent')!.textEdit as TextEdit).newText, /tools: \[/);
  assert.ok(labels(r.items).includes('for_each'));
  r = complete(['nika: demo', 'tasks:', '  a:', '    infer: { prompt: hi }', '    |']);
  assert.ok(!labels(r.items).includes('exec'));
  assert.ok(!labels(r.items).includes('infer'));
  assert.ok(labels(r.items).includes('retry'));
});

test('verb body fields and nested blocks', () => {
  let r = complete(['nika: demo', 'tasks:', '  a:', '    exec:', '      command: [ls]', '      |']);
  assert.deepEqual(labels(r.items).sort(), ['capture', 'cwd', 'decode', 'env', 'shell', 'stdin']);
  r = complete(['nika: demo', 'tasks:', '  a:', '    exec: { command: [ls] }', '    retry:', '      |']);
  assert.ok(labels(r.items).includes('max_attempts'));
  assert.ok(labels(r.items).includes('backoff_strategy'));
  r = complete(['nika: demo', 'tasks:', '  a:', '    exec: { command: [ls], | }']);
  assert.ok(labels(r.items).includes('capture'), 'flow map keys');
  assert.ok(!labels(r.items).includes('command'));
});

test('enum values: capture, decode, backoff, secrets.source, input type', () => {
  let r = complete(['nika: demo', 'tasks:', '  a:', '    exec:', '      command: [ls]', '      capture: |']);
  assert.deepEqual(labels(r.items), ['stdout', 'stderr', 'combined', 'structured']);
  r = complete(['nika: demo', 'tasks:', '  a:', '    exec: { command: [ls], decode: | }']);
  assert.deepEqual(labels(r.items), ['text', 'json', 'jsonl', 'bytes']);
  r = complete(['nika: demo', 'secrets:', '  k:', '    source: |', 'tasks:', '  a:', '    exec: { command: [ls] }']);
  assert.deepEqual(labels(r.items), ['env', 'file', 'vault']);
  r = complete(['nika: demo', 'inputs:', '  n: { type: | }', 'tasks:', '  a:', '    exec: { command: [ls] }']);
  assert.ok(labels(r.items).includes('integer'));
  r = complete(['nika: demo', 'tasks:', '  a:', '    exec: { command: [ls] }', '    retry: { max_attempts: 2, backoff_strategy: l| }']);
  assert.deepEqual(labels(r.items), ['fixed', 'linear', 'exponential']);
});

test('after: keys are task ids (upstream first), values are predicates', () => {
  let r = complete(['nika: demo', 'tasks:', '  one:', '    exec: { command: [ls] }', '  two:', '    exec: { command: [ls] }', '  three:', '    after:', '      |', '    exec: { command: [ls] }']);
  assert.deepEqual(labels(r.items), ['two', 'one']);
  assert.match((r.items[0].textEdit as TextEdit).newText, /^two: \$\{1\|success,failure,skipped,terminal,unwind\|\}$/);
  r = complete(['nika: demo', 'tasks:', '  one:', '    exec: { command: [ls] }', '  two:', '    after: { one: | }', '    exec: { command: [ls] }']);
  assert.deepEqual(labels(r.items), ['success', 'failure', 'skipped', 'terminal', 'unwind']);
});

test('tool: builtins with an args skeleton of the required args', () => {
  const r = complete(['nika: demo', 'tasks:', '  a:', '    invoke:', '      tool: nika:fe|']);
  const fetch = r.items.find((i) => i.label === 'nika:fetch')!;
  assert.ok(fetch, 'nika:fetch offered');
  assert.equal(textAt(r.text, (fetch.textEdit as TextEdit).range), 'nika:fe');
  assert.equal((fetch.textEdit as TextEdit).newText, 'nika:fetch\nargs:\n  url: ${1}');
  assert.equal(r.items.filter((i) => String(i.label).startsWith('nika:')).length, 26, 'agent-only builtins are not offered to invoke');
  assert.match(String((fetch.documentation as { value: string }).value), /url/);
  const out = apply(r, fetch);
  assert.ok(out.endsWith('      tool: nika:fetch\nargs:\n  url: ${1}'), 'VS Code re-indents the following lines');
});

test('tool: no skeleton when args: exists; MCP servers then tools after the slash', () => {
  let r = complete(['nika: demo', 'tasks:', '  a:', '    invoke:', '      tool: mcp:ev|', '      args: {}'], CATALOG);
  const server = r.items.find((i) => i.label === 'mcp:everything/')!;
  assert.ok(server);
  assert.equal(textAt(r.text, (server.textEdit as TextEdit).range), 'mcp:ev');
  assert.ok(server.command, 'choosing a server re-triggers completion');
  assert.ok(labels(r.items).includes('mcp:broken/'));
  assert.equal((r.items.find((i) => i.label === 'nika:read')!.textEdit as TextEdit).newText, 'nika:read');
  r = complete(['nika: demo', 'tasks:', '  a:', '    invoke:', '      tool: mcp:everything/|'], CATALOG);
  assert.deepEqual(labels(r.items), ['mcp:everything/echo', 'mcp:everything/add']);
  const echo = r.items[0];
  assert.equal(echo.detail, 'requires message');
  assert.match((echo.documentation as { value: string }).value, /Echoes back the input[\s\S]*`message` \*\*\\\*\*\*/);
  assert.equal((echo.textEdit as TextEdit).newText, 'mcp:everything/echo\nargs:\n  message: ${1}');
});

test('agent.tools list items: tool ids incl. globs and agent-only builtins', () => {
  let r = complete(['nika: demo', 'tasks:', '  a:', '    agent:', '      prompt: go', '      tools:', '        - |'], CATALOG);
  assert.ok(labels(r.items).includes('nika:done'));
  assert.ok(labels(r.items).includes('mcp:everything/'));
  r = complete(['nika: demo', 'tasks:', '  a:', '    agent: { prompt: go, tools: [mcp:everything/|] }'], CATALOG);
  assert.deepEqual(labels(r.items), ['mcp:everything/*', 'mcp:everything/echo', 'mcp:everything/add']);
});

test('args: keys from the MCP inputSchema (required first, enums, defaults) and from builtins', () => {
  let r = complete(['nika: demo', 'tasks:', '  a:', '    invoke:', '      tool: mcp:everything/add', '      args:', '        |'], CATALOG);
  assert.deepEqual(labels(r.items), ['b', 'a', 'mode']);
  assert.equal((r.items[2].textEdit as TextEdit).newText, 'mode: ${1|fast,exact|}');
  r = complete(['nika: demo', 'tasks:', '  a:', '    invoke:', '      tool: nika:fetch', '      args:', '        url: x', '        |']);
  assert.ok(!labels(r.items).includes('url'));
  assert.ok(labels(r.items).includes('method'));
  r = complete(['nika: demo', 'tasks:', '  a:', '    invoke:', '      tool: nika:fetch', '      args:', '        method: |']);
  assert.ok(labels(r.items).includes('POST'));
});

test('model: provider prefixes first, then example models; after the slash only that provider', () => {
  let r = complete(['nika: demo', 'model: |', 'tasks:', '  a:', '    exec: { command: [ls] }']);
  const ls = labels(r.items);
  assert.equal(ls.filter((l) => String(l).endsWith('/')).length, 17);
  assert.ok(ls.indexOf('mock/') < ls.indexOf('mock/echo'));
  r = complete(['nika: demo', 'tasks:', '  a:', '    infer:', '      prompt: hi', '      model: mock/|']);
  assert.deepEqual(labels(r.items), ['mock/echo', 'mock/mock-deterministic', 'mock/mock-error', 'mock/mock-streaming', 'mock/mock-json']);
  assert.equal(textAt(r.text, (r.items[0].textEdit as TextEdit).range), 'mock/');
});

test('with: value snippets bind an upstream output', () => {
  const r = complete(['nika: demo', 'tasks:', '  one:', '    exec: { command: [ls] }', '  two:', '    with:', '      x: |', '    exec: { command: [ls] }']);
  assert.deepEqual(labels(r.items), ['"${{ tasks.one.output }}"']);
});

test('inside ${{ }}: roots, declared names, with aliases, tasks, projections, callables', () => {
  const base = [
    'nika: demo',
    'inputs:',
    '  topic: { type: string, default: cats }',
    'const:',
    '  n: 3',
    'secrets:',
    '  key: { source: env, key: API_KEY }',
    'tasks:',
    '  one:',
    '    exec: { command: [ls] }',
    '    extract: { first: ".[0]" }',
    '  two:',
    '    with: { x: "${{ tasks.one.output }}" }',
    '    for_each: { items: [1, 2] }',
  ];
  let r = complete([...base, '    infer: { prompt: "${{ | }}" }']);
  const ls = labels(r.items);
  for (const root of ['inputs', 'const', 'secrets', 'with', 'tasks', 'item', 'index', 'size', 'has']) assert.ok(ls.includes(root), root);
  assert.ok(!ls.includes('group'), 'group only inside with:');
  r = complete([...base, '    infer: { prompt: "${{ inputs.| }}" }']);
  assert.deepEqual(labels(r.items), ['topic']);
  assert.match((r.items[0].documentation as { value: string }).value, /default: `cats`/);
  r = complete([...base, '    infer: { prompt: "${{ const.| }}" }']);
  assert.deepEqual(labels(r.items), ['n']);
  r = complete([...base, '    infer: { prompt: "${{ secrets.k| }}" }']);
  assert.deepEqual(labels(r.items), ['key']);
  r = complete([...base, '    infer: { prompt: "${{ with.| }}" }']);
  assert.deepEqual(labels(r.items), ['x']);
  r = complete([...base, '    infer: { prompt: "${{ tasks.| }}" }']);
  assert.deepEqual(labels(r.items), ['one']);
  r = complete([...base, '    infer: { prompt: "${{ tasks.one.| }}" }']);
  assert.deepEqual(labels(r.items), ['output', 'status', 'error', 'duration_ms', 'started_at', 'ended_at', 'first']);
  r = complete([...base, '    infer: { prompt: "${{ inputs.topic.st| }}" }']);
  assert.ok(labels(r.items).includes('startsWith'));
  const sw = r.items.find((i) => i.label === 'startsWith')!;
  assert.equal(textAt(r.text, (sw.textEdit as TextEdit).range), 'st');
});

test('inside ${{ }} while the YAML is still broken (unclosed quote and island)', () => {
  const r = complete(['nika: demo', 'inputs:', '  topic: { type: string }', 'tasks:', '  a:', '    infer:', '      prompt: "about ${{ inputs.|']);
  assert.deepEqual(labels(r.items), ['topic']);
});

test('v1-draft: vars/env roots inside expressions; task keys of the list form', () => {
  let r = complete(['nika: v1', 'workflow: d', 'vars:', '  region: eu', 'tasks:', '  - id: a', '    exec: "echo ${{ vars.| }}"']);
  assert.deepEqual(labels(r.items), ['region']);
  r = complete(['nika: v1', 'workflow: d', 'tasks:', '  - id: a', '    exec: "ls"', '  - id: b', '    |']);
  assert.ok(labels(r.items).includes('depends_on'));
  assert.ok(labels(r.items).includes('infer'));
  r = complete(['nika: v1', 'workflow: d', 'tasks:', '  - id: a', '    exec: "ls"', '  - id: b', '    depends_on: [|]', '    exec: "ls"']);
  assert.deepEqual(labels(r.items), ['a']);
});

test('nothing right after `key:` (before the space), values once the space is typed', () => {
  let r = complete(['nika: demo', 'tasks:', '  a:', '    exec:', '      command: [ls]', '      capture:|']);
  assert.deepEqual(r.items, []);
  r = complete(['nika: demo', 'tasks:', '  a:', '    exec: { command: [ls], capture:| }']);
  assert.deepEqual(r.items, []);
  r = complete(['nika: demo', 'tasks:', '  a:', '    invoke:', '      tool: nika:|']);
  assert.ok(labels(r.items).includes('nika:fetch'), 'a colon inside a value token still completes');
});

test('CRLF documents: ranges stay on the right line and column', () => {
  const c = cursor(['nika: demo', 'tasks:', '  a:', '    exec:', '      command: [ls]', '      capture: st|'].join('\r\n'));
  const items = completion(buildModel(c.text), c.position).items;
  const e = items[0].textEdit as TextEdit;
  assert.deepEqual(e.range, { start: { line: 5, character: 15 }, end: { line: 5, character: 17 } });
});

test('completion answers (possibly empty) on any position of odd text', () => {
  const texts = ['|', ' |', ':::\n|', '- - - |', '{[|', 'nika: x\ntasks:\n  a:\n    infer: {prompt: "${{ |', '"\\u|', '# comment |'];
  for (const t of texts) {
    const c = cursor(t);
    const list = completion(buildModel(c.text), c.position);
    assert.ok(Array.isArray(list.items));
  }
});
