import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../../server/model.js';
import { hover } from '../../server/features/hover.js';
import type { ToolCatalog } from '../../core/catalog/mcp.js';
import { cursor, textAt } from './cursor.js';

const CATALOG: ToolCatalog = {
  servers: [
    { name: 'everything', status: 'connected', tools: [{ name: 'echo', title: 'Echo Tool', description: 'Echoes back the input', inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' }, upper: { type: 'boolean' } }, required: ['message'] } }] },
    { name: 'broken', status: 'error', error: 'spawn ENOENT' },
  ],
};

const DOC = [
  'nika: demo',
  'model: anthropic/claude-sonnet-4-5',
  'inputs:',
  '  topic: { type: string, default: cats, description: What to write about }',
  'const:',
  '  limit: 5',
  'secrets:',
  '  api: { source: env, key: API_KEY }',
  'tasks:',
  '  fetch_data:',
  '    invoke:',
  '      tool: nika:fetch',
  '      args: { url: "https://example.com" }',
  '    extract: { title: ".title" }',
  '  summarize:',
  '    with: { raw: "${{ tasks.fetch_data.title }}" }',
  '    after: { fetch_data: terminal }',
  '    infer:',
  '      prompt: "${{ inputs.topic }} ${{ const.limit }} ${{ secrets.api }} ${{ with.raw }} ${{ size(with.raw) }}"',
  '  call:',
  '    invoke: { tool: "mcp:everything/echo", args: { message: hi } }',
  '  off:',
  '    invoke: { tool: "mcp:broken/x" }',
];

function hoverAt(line: number, needle: string, delta = 1, catalog: ToolCatalog = CATALOG) {
  const marked = DOC.map((l, i) => (i === line ? l.replace(needle, needle.slice(0, delta) + '|' + needle.slice(delta)) : l));
  const c = cursor(marked);
  const h = hover(buildModel(c.text, catalog), c.position);
  return { h, md: h ? (h.contents as { value: string }).value : '', text: c.text };
}

test('hover on expression names: input, const, secret (never a value), with binding, task, projection, extract, function', () => {
  let r = hoverAt(18, 'inputs.topic', 8);
  assert.match(r.md, /inputs\.topic\*\*: `string`/);
  assert.match(r.md, /default: `cats`/);
  assert.match(r.md, /What to write about/);
  assert.equal(textAt(r.text, r.h!.range!), 'topic');
  r = hoverAt(18, 'const.limit', 7);
  assert.match(r.md, /const\.limit\*\* = `5`/);
  r = hoverAt(18, 'secrets.api', 9);
  assert.match(r.md, /from `env` \(key `API_KEY`\)/);
  assert.match(r.md, /never shown/);
  r = hoverAt(18, 'with.raw }}', 6);
  assert.match(r.md, /tasks\.fetch_data\.title/);
  r = hoverAt(15, 'fetch_data', 2);
  assert.match(r.md, /task fetch_data/);
  assert.match(r.md, /invoke: nika:fetch/);
  r = hoverAt(15, 'title', 2);
  assert.match(r.md, /extract:` binding of `fetch_data`: jq `\.title`/);
  r = hoverAt(18, 'size', 1);
  assert.match(r.md, /size\(x\) → int/);
  r = hoverAt(18, 'inputs', 2);
  assert.match(r.md, /\*\*inputs\*\* — Typed workflow inputs/);
});

test('hover on keys, verbs, after keys and predicates', () => {
  let r = hoverAt(17, 'infer', 2);
  assert.match(r.md, /one LLM call/);
  r = hoverAt(13, 'extract', 2);
  assert.match(r.md, /jq bindings/);
  r = hoverAt(16, 'fetch_data', 2);
  assert.match(r.md, /task fetch_data/);
  r = hoverAt(16, 'terminal', 2);
  assert.match(r.md, /any\*\* terminal state/);
  r = hoverAt(9, 'fetch_data', 2);
  assert.match(r.md, /task fetch_data/);
});

test('hover on tools: builtin args table, MCP tool schema with required marks, disconnected server', () => {
  let r = hoverAt(11, 'nika:fetch', 3);
  assert.match(r.md, /\*\*nika:fetch\*\* · network/);
  assert.match(r.md, /\| `url` \*\*\\\*\*\* \| string \|/);
  r = hoverAt(20, 'mcp:everything/echo', 5);
  assert.match(r.md, /\*\*Echo Tool\*\* · `mcp:everything\/echo`/);
  assert.match(r.md, /Echoes back the input/);
  assert.match(r.md, /`message` \*\*\\\*\*\* \| string \| Message to echo/);
  assert.match(r.md, /`upper` \| boolean/);
  r = hoverAt(22, 'mcp:broken/x', 5);
  assert.match(r.md, /broken` is error: spawn ENOENT/);
});

test('hover on models', () => {
  const r = hoverAt(1, 'anthropic', 3);
  assert.match(r.md, /\*\*claude-sonnet-4-5\*\* via \*\*anthropic\*\*/);
  assert.match(r.md, /ANTHROPIC_API_KEY/);
});

test('hover answers null where nothing is known, and on hostile text', () => {
  assert.equal(hover(buildModel('nika: demo\n'), { line: 5, character: 3 }), null);
  assert.equal(hover(buildModel('\u0000\u0001{{{'), { line: 0, character: 2 }), null);
});
