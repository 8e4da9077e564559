import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolCatalog } from '../../core/catalog/mcp.js';
import { crlf, doc, fixed, none, one, oneAt, withCode, covered, diagnose } from './semantic-helpers.js';

const HEAD = ['nika: tools', 'permits: {}', 'tasks:'];
const invoke = (tool: string, args?: string) => doc(...HEAD, '  t:', `    invoke: { tool: "${tool}"${args ? `, args: ${args}` : ''} }`);

test('tool id grammar: legacy s::t in current v1 gets a rewrite fix; x-vendor and missing slash are refused', () => {
  const t = invoke('github::search');
  const d = oneAt(t, 'NIKA-PARSE-019', 'github::search');
  assert.ok(fixed(t, d).includes('tool: "mcp:github/search"'));
  assert.match(oneAt(invoke('x-acme:thing'), 'NIKA-PARSE-019', 'x-acme:thing').message, /reserved/);
  assert.match(oneAt(invoke('mcp:postgres'), 'NIKA-PARSE-019', 'mcp:postgres').message, /mcp:<server>\/<tool>/);
  const bare = invoke('jq', '{ expression: "." }');
  assert.ok(fixed(bare, oneAt(bare, 'NIKA-PARSE-019', 'jq')).includes('tool: "nika:jq"'));
});

test('unknown builtin ⇒ INVOKE-001 with did-you-mean; renamed builtins get their migration', () => {
  const t = invoke('nika:fecth', '{ url: "https://example.com" }');
  assert.ok(fixed(t, one(t, 'NIKA-INVOKE-001', 'nika:fecth')).includes('"nika:fetch"'));
  const s = invoke('nika:sleep', '{ duration: "1s" }');
  const d = one(s, 'NIKA-INVOKE-001', 'nika:sleep');
  assert.match(d.message, /nika:wait/);
  assert.ok(fixed(s, d).includes('tool: "nika:wait"'));
});

test('agent-only builtins in a standalone invoke', () => {
  one(invoke('nika:done', '{ result: 1 }'), 'NIKA-BUILTIN-DONE-001', 'nika:done');
  one(invoke('nika:compose', '{ workflow_yaml: "x" }'), 'NIKA-BUILTIN-COMPOSE-001', 'nika:compose');
  none(doc(...HEAD, '  t:', '    agent: { prompt: "go", tools: ["nika:done", "nika:read"] }'), 'NIKA-BUILTIN-DONE-001');
});

test('builtin args: missing required (fix adds skeleton keys), unknown names, enums, XOR', () => {
  const m = doc(...HEAD, '  t:', '    invoke:', '      tool: nika:write', '      args:', '        path: out.txt');
  const d = one(m, 'NIKA-BUILTIN-001', 'args');
  assert.equal(fixed(m, d), doc(...HEAD, '  t:', '    invoke:', '      tool: nika:write', '      args:', '        path: out.txt', '        content: ""'));
  const noArgs = doc(...HEAD, '  t:', '    invoke:', '      tool: nika:read');
  assert.equal(fixed(noArgs, one(noArgs, 'NIKA-BUILTIN-001', 'nika:read')), doc(...HEAD, '  t:', '    invoke:', '      tool: nika:read', '      args:', '        path: ""'));

  const q = invoke('nika:jq', '{ query: ".a", input: 1 }');
  const qd = one(q, 'NIKA-BUILTIN-001', 'query');
  assert.ok(fixed(q, qd).includes('{ expression: ".a", input: 1 }'));

  one(invoke('nika:fetch', '{ url: "https://x.dev", mode: markdwn }'), 'NIKA-BUILTIN-001', 'markdwn');
  none(invoke('nika:fetch', '{ url: "https://x.dev", mode: "${{ inputs.m }}" }'), 'NIKA-BUILTIN-001');
  one(invoke('nika:wait', '{}'), 'NIKA-BUILTIN-001', 'args');
  one(invoke('nika:wait', '{ duration: "1s", until: "2030-01-01T00:00:00Z" }'), 'NIKA-BUILTIN-001', 'until');
  none(invoke('nika:wait', '{ duration: "1s" }'), 'NIKA-BUILTIN-001');
});

const CATALOG: ToolCatalog = {
  servers: [
    {
      name: 'everything', status: 'connected',
      tools: [
        { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false } },
        { name: 'add', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
      ],
    },
    { name: 'broken', status: 'error', error: 'spawn ENOENT' },
  ],
};

test('MCP: connected server, unknown tool ⇒ INVOKE-001 with did-you-mean from the server', () => {
  const t = invoke('mcp:everything/ecko', '{ message: hi }');
  const d = one(t, 'NIKA-INVOKE-001', 'ecko', CATALOG);
  assert.ok(fixed(t, d).includes('"mcp:everything/echo"'));
});

test('MCP: error-state or unknown servers give only hints, never errors', () => {
  for (const text of [invoke('mcp:broken/anything', '{ x: 1 }'), invoke('mcp:nowhere/tool'), doc(...HEAD, '  t:', '    agent: { prompt: "p", tools: ["mcp:broken/*"] }')]) {
    // The catalog's verdicts only: the permits law (SEC-004 for an ungranted tool) is independent of it.
    const found = diagnose(text, CATALOG).filter((d) => (/MCP|mcp/.test(d.message) || d.code.startsWith('NIKA-INVOKE')) && !/^NIKA-(SEC|AUTH)-/.test(d.code));
    assert.ok(found.length >= 1);
    assert.ok(found.every((d) => d.severity === 'hint'), JSON.stringify(found));
  }
  assert.match(withCode(invoke('mcp:broken/anything'), 'mcp-unverified', CATALOG)[0].message, /not connected \(failed: spawn ENOENT\)/);
});

test('MCP args checked against inputSchema: missing required (with fix), unknown key, literal type', () => {
  const missing = doc(...HEAD, '  t:', '    invoke:', '      tool: mcp:everything/add', '      args:', '        a: 1');
  const d = one(missing, 'NIKA-INVOKE-002', 'args', CATALOG);
  assert.equal(fixed(missing, d), doc(...HEAD, '  t:', '    invoke:', '      tool: mcp:everything/add', '      args:', '        a: 1', '        b: 0'));

  const extra = invoke('mcp:everything/echo', '{ message: hi, mesage: yo }');
  const e = one(extra, 'NIKA-INVOKE-002', 'mesage', CATALOG);
  assert.match(e.message, /no argument 'mesage'/);

  one(invoke('mcp:everything/add', '{ a: "one", b: 2 }'), 'NIKA-INVOKE-002', '"one"', CATALOG);
  none(invoke('mcp:everything/add', '{ a: "${{ inputs.x }}", b: 2 }'), 'NIKA-INVOKE-002', CATALOG);
  none(invoke('mcp:everything/echo', '{ message: "hello" }'), 'NIKA-INVOKE-002', CATALOG);
});

test('MCP: legacy invoke { mcp, tool, params } is checked the same way', () => {
  const text = doc('schema: "nika/workflow@0.5"', 'tasks:', '  - id: t', '    invoke: { mcp: everything, tool: echo, params: { msg: hi } }');
  const found = withCode(text, 'NIKA-INVOKE-002', CATALOG);
  assert.deepEqual(found.map((d) => covered(text, d)).sort(), ['msg', 'params']);
  one(doc('schema: "nika/workflow@0.5"', 'tasks:', '  - id: t', '    invoke: { mcp: everything, tool: ech, params: { message: hi } }'), 'NIKA-INVOKE-001', 'ech', CATALOG);
});

test('models: provider must be one of the 17 (did-you-mean), bare names get a provider; ${{ }} skipped', () => {
  const t = doc('nika: m', 'model: antropic/claude-sonnet-4-5', 'tasks:', '  a:', '    infer: { prompt: "x" }');
  assert.ok(fixed(t, one(t, 'NIKA-PROVIDER-001', 'antropic')).includes('model: anthropic/claude-sonnet-4-5'));
  const bare = crlf('nika: m', 'tasks:', '  a:', '    agent:', '      model: claude-sonnet-4-5', '      prompt: go');
  assert.ok(fixed(bare, one(bare, 'NIKA-PROVIDER-001', 'claude-sonnet-4-5')).includes('model: anthropic/claude-sonnet-4-5\r\n'));
  none(doc('nika: m', 'inputs: { m: { type: string } }', 'model: "${{ inputs.m }}"', 'tasks:', '  a:', '    infer: { prompt: "x", model: ollama/qwen3:8b }'), 'NIKA-PROVIDER-001');
  // Legacy provider names map to current prefixes in legacy files.
  none(doc('schema: "nika/workflow@0.4"', 'provider: claude', 'model: claude-sonnet-4', 'tasks:', '  - id: a', '    infer: "x"'), 'NIKA-PROVIDER-001');
  one(doc('schema: "nika/workflow@0.4"', 'provider: claud', 'model: claude-sonnet-4', 'tasks:', '  - id: a', '    infer: "x"'), 'NIKA-PROVIDER-001', 'claud');
});

test('declared but unused inputs/const/secrets ⇒ DRIFT-001 hint, faded', () => {
  const text = doc('nika: u', 'inputs:', '  used: { type: string }', '  spare: { type: string }', 'const: { k: 1 }', 'tasks:', '  a:', '    infer: { prompt: "${{ inputs.used }}" }');
  const found = withCode(text, 'NIKA-DRIFT-001');
  assert.deepEqual(found.map((d) => covered(text, d)), ['spare', 'k']);
  assert.ok(found.every((d) => d.severity === 'hint' && d.tags?.includes('unnecessary')));
});
