import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argsSkeleton, coerceField, missingRequired, parseArgsDocument, planToolForm } from '../../client/model/toolForm.js';
import { serverRow, toCatalog, toolRow, toolTooltip, type ServerView } from '../../client/model/mcpTree.js';
import { parseOfficialLine } from '../../client/model/officialEvents.js';

test('a flat schema becomes one question per property, required first, enums and nullables flattened', () => {
  const plan = planToolForm({
    type: 'object',
    properties: {
      note: { type: ['string', 'null'], description: 'optional note' },
      a: { type: 'number' },
      op: { type: 'string', enum: ['add', 'mul'] },
      verbose: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
      tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
      ids: { type: 'array', items: { type: 'integer' } },
    },
    required: ['a', 'op'],
  });
  assert.equal(plan.kind, 'form');
  if (plan.kind !== 'form') return;
  assert.deepEqual(plan.fields.map((f) => [f.name, f.kind, f.required]), [
    ['a', 'number', true], ['op', 'enum', true], ['note', 'string', false], ['verbose', 'boolean', false],
    ['tags', 'multi-enum', false], ['ids', 'json', false],
  ]);
  assert.deepEqual(plan.fields[1].options, ['add', 'mul']);
});

test('nested objects, $ref and unions fall back to the JSON editor with a skeleton of every key', () => {
  const plan = planToolForm({
    type: 'object',
    properties: { query: { type: 'string' }, filter: { type: 'object', properties: { limit: { type: 'integer', default: 10 } } } },
    required: ['query'],
  });
  assert.equal(plan.kind, 'json');
  if (plan.kind !== 'json') return;
  assert.match(plan.reason, /"filter" is an object/);
  assert.deepEqual(JSON.parse(plan.skeleton), { query: '', filter: { limit: 10 } });
  assert.equal(planToolForm({ $ref: '#/defs/x' }).kind, 'json');
});

test('a tool without arguments is a form with no questions', () => {
  assert.deepEqual(planToolForm({ type: 'object' }), { kind: 'form', fields: [] });
  assert.deepEqual(planToolForm(undefined), { kind: 'form', fields: [] });
});

test('field answers are coerced to the schema type; empty optional ones are omitted', () => {
  const num = { name: 'a', kind: 'integer' as const, required: true, hasDefault: false };
  assert.deepEqual(coerceField(num, '7'), { ok: true, value: 7 });
  assert.equal(coerceField(num, '7.5').ok, false);
  assert.equal(coerceField(num, '').ok, false);
  assert.deepEqual(coerceField({ ...num, required: false }, ''), { ok: true, value: undefined, omit: true });
  assert.deepEqual(coerceField({ name: 'e', kind: 'enum', required: true, hasDefault: false, options: [1, 2] }, '2'), { ok: true, value: 2 });
  assert.deepEqual(coerceField({ name: 'b', kind: 'boolean', required: true, hasDefault: false }, 'false'), { ok: true, value: false });
  assert.deepEqual(coerceField({ name: 't', kind: 'multi-enum', required: false, hasDefault: false, options: ['x', 'y'] }, 'x, y'), { ok: true, value: ['x', 'y'] });
  assert.deepEqual(coerceField({ name: 's', kind: 'string', required: true, hasDefault: false }, ''), { ok: true, value: '' });
});

test('the JSON editor text must be an object; missing required keys are named before sending', () => {
  assert.deepEqual(parseArgsDocument(' '), { ok: true, value: {} });
  assert.equal(parseArgsDocument('[1]').ok, false);
  assert.match((parseArgsDocument('{oops') as { error: string }).error, /not valid JSON/);
  assert.deepEqual(missingRequired({ required: ['a', 'b'] }, { a: 1 }), ['b']);
  assert.deepEqual(argsSkeleton({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } }, required: ['a'] }), { a: '' });
});

const servers: ServerView[] = [
  { name: 'everything', state: 'connected', origin: '.vscode/mcp.json', transport: 'stdio', target: 'npx -y @modelcontextprotocol/server-everything',
    tools: [{ name: 'echo', description: 'Echoes back the input. Useful for tests.\nSecond line.', inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] }, annotations: { readOnlyHint: true } }] },
  { name: 'broken', state: 'error', error: 'spawn nonexistent ENOENT' },
  { name: 'later', state: 'idle' },
];

test('server rows show state, tool count or the error message, and the right start/stop action', () => {
  const ok = serverRow(servers[0]);
  assert.equal(ok.description, 'connected · 1 tool');
  assert.equal(ok.contextValue, 'mcpServer.running');
  const bad = serverRow(servers[1]);
  assert.equal(bad.description, 'error · spawn nonexistent ENOENT');
  assert.equal(bad.icon.id, 'error');
  assert.equal(bad.contextValue, 'mcpServer.stopped');
  assert.equal(serverRow(servers[2]).description, 'not started');
});

test('tool rows: first sentence as description; tooltip lists arguments, annotations and the schema', () => {
  const row = toolRow('everything', servers[0].tools![0]);
  assert.equal(row.label, 'echo');
  assert.equal(row.description, 'Echoes back the input.');
  const tip = toolTooltip('everything', servers[0].tools![0]);
  assert.match(tip, /`mcp:everything\/echo`/);
  assert.match(tip, /- `message` \*\(required\)\*: string — Message to echo/);
  assert.match(tip, /`readOnly`/);
  assert.match(tip, /\*\*Input schema\*\*\n```json\n\{/);
});

test('the catalog for the language server: tools only for connected servers, offline ones flagged', () => {
  const c = toCatalog(servers);
  assert.deepEqual(c.servers.map((s) => [s.name, s.status, s.tools?.length]), [['everything', 'connected', 1], ['broken', 'error', undefined], ['later', 'connecting', undefined]]);
  assert.equal(c.servers[1].error, 'spawn nonexistent ENOENT');
});

test('official NDJSON (current and legacy shapes) maps onto our events; junk lines are dropped', () => {
  const cur = parseOfficialLine(JSON.stringify({ id: 'x', timestamp: 2_000_000_000, kind: 'task_failed', run: 'R', fields: [{ key: 'task', value: 'build' }, { key: 'detail', value: 'NIKA-EXEC-001: exit 1' }, { key: 'duration_ms', value: 12 }] }), 'fallback');
  assert.deepEqual(cur, [{ ts: 2000, run_id: 'R', task_id: 'build', type: 'task_failed', error: { code: 'NIKA-EXEC-001', message: 'NIKA-EXEC-001: exit 1' }, duration_ms: 12, attempts: 1 }]);
  const legacy = parseOfficialLine(JSON.stringify({ id: 3, timestamp_ms: 5, kind: { type: 'workflow_aborted', reason: 'ctrl-c', duration_ms: 9 } }), 'L');
  assert.equal(legacy[0].type, 'workflow_cancelled');
  assert.equal((legacy[0] as { state: string }).state, 'cancelled');
  const turn = parseOfficialLine(JSON.stringify({ timestamp_ms: 1, kind: { type: 'agent_turn', task_id: 'ag', turn_index: 0, kind: 'assistant', metadata: { text: 'hello' } } }), 'L');
  assert.deepEqual(turn.map((e) => [e.type, (e as { turn: number }).turn, (e as { text: string }).text]), [['agent_turn', 1, 'hello']]);
  assert.deepEqual(parseOfficialLine('not json', 'x'), []);
  assert.deepEqual(parseOfficialLine('{"kind":"cost_incurred","fields":[]}', 'x'), []);
});

import { engineEnv, keyedProviders, redact } from '../../client/model/providerEnv.js';

test('keys and base URLs reach the engine under both variable spellings; unknown providers are ignored', () => {
  const env = engineEnv({ anthropic: 'sk-ant-1', groq: 'gsk', nope: 'x' }, { ollama: 'http://gpu:11434/v1', openai: '' });
  assert.deepEqual(env, {
    NIKA_ANTHROPIC_API_KEY: 'sk-ant-1', ANTHROPIC_API_KEY: 'sk-ant-1',
    NIKA_GROQ_API_KEY: 'gsk', GROQ_API_KEY: 'gsk',
    NIKA_OLLAMA_BASE_URL: 'http://gpu:11434/v1', OLLAMA_BASE_URL: 'http://gpu:11434/v1',
  });
  assert.equal(keyedProviders().length, 16);
  assert.equal(redact('key=sk-ant-1 ok', ['sk-ant-1']), 'key=*** ok');
});
