// How the pool's stdio transport reads a server's stdout: messages cut anywhere (inside
// multi-byte characters, across message boundaries), CRLF endings, log lines that are no
// message, and messages far larger than a pipe's chunk.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpPool } from '../../engine/mcp/pool.js';
import { BAD_MCP } from '../support/processes.js';

const pools: McpPool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

test('a server whose stdout arrives in 5-byte pieces with CRLF endings and a log line is understood; the log line shows with its stderr', async () => {
  const said: string[] = [];
  const p = new McpPool({ ragged: { command: process.execPath, args: [BAD_MCP, 'ragged-stdout'] } }, { onStderr: (_s, t) => said.push(t) });
  pools.push(p);
  const tools = await p.listTools('ragged');
  assert.ok(tools.some((t) => t.name === 'ok'), tools.map((t) => t.name).join(','));
  const text = 'héllo ✓ 🎉 日本語 — ünïcödé';
  assert.equal(await p.callTool('ragged', 'ok', { text }, {}), `ok: ${text}`);
  // Two calls in flight: their answers share pieces.
  const both = await Promise.all([p.callTool('ragged', 'ok', { text: 'α' }, {}), p.callTool('ragged', 'ok', { text: 'β' }, {})]);
  assert.deepEqual(both, ['ok: α', 'ok: β']);
  assert.ok(said.some((t) => /\[stdout, not JSON[^\]]*\] bad-mcp-server: a log line on stdout/.test(t)), said.join(''));
});

test('a 3 MB answer (many pipe chunks) arrives whole', async () => {
  const p = new McpPool({ bad: { command: process.execPath, args: [BAD_MCP] } });
  pools.push(p);
  const text = 'ж'.repeat(1_500_000);
  const r = (await p.callTool('bad', 'ok', { text }, {})) as string;
  assert.equal(r.length, text.length + 4);
  assert.equal(r, `ok: ${text}`);
});
