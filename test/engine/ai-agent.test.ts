// The agent loop end to end: a real SDK talking to the loopback model, which picks a real MCP
// tool from server-everything through the pool; and the mock doing the same offline.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAgent } from '../../engine/ai/agent.js';
import { McpPool } from '../../engine/mcp/pool.js';
import { NikaError } from '../../engine/contracts.js';
import type { AgentBody } from '../../core/ir.js';
import { LlmServer } from '../support/llm-server.js';
import { eventsOf, fakeContext } from '../support/fake-context.js';
import { everythingConfig } from '../support/mcp-servers.js';

const agent = (b: Partial<AgentBody>): AgentBody => ({ verb: 'agent', prompt: 'Say hello through the echo tool', tools: ['mcp:everything/echo', 'mcp:everything/get-sum'], ...b });

let server: LlmServer;
let pool: McpPool;
before(async () => {
  server = await LlmServer.start();
  pool = new McpPool({ everything: everythingConfig() });
});
after(async () => {
  await pool.close();
  await server.close();
});

const protocols = [
  { name: 'openai', model: 'openai/gpt-loop', env: () => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl }) },
  { name: 'anthropic', model: 'anthropic/claude-loop', env: () => ({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.anthropicBaseUrl }) },
] as const;

/** The tool results the SDK sent back in the last request, whatever the wire format. */
function toolResultsSent(protocol: string): Array<{ id: string; content: string; isError: boolean }> {
  const msgs: any[] = server.modelRequests().at(-1)!.body.messages;
  if (protocol === 'openai') return msgs.filter((m) => m.role === 'tool').map((m) => ({ id: m.tool_call_id, content: m.content, isError: String(m.content).startsWith('ERROR:') }));
  return msgs.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_result').map((b: any) => ({ id: b.tool_use_id, content: b.content, isError: !!b.is_error }));
}

for (const p of protocols) {
  describe(`agent on ${p.name}`, () => {
    test('the model picks a real MCP tool; its result goes back; the final text is the output', async () => {
      server.enqueue(
        { text: 'Calling echo.', toolCalls: [{ id: 'call_a', name: 'mcp__everything__echo', args: { message: 'hello' } }], usage: { input_tokens: 100, output_tokens: 10 } },
        { text: 'The tool answered: Echo: hello', usage: { input_tokens: 150, output_tokens: 12 } },
      );
      const ctx = fakeContext({ env: p.env(), pool, defaultModel: p.model });
      const r = await runAgent(agent({}), ctx);
      assert.equal(r.output, 'The tool answered: Echo: hello');
      assert.equal(r.turns, 2);
      assert.deepEqual(r.usage, { input_tokens: 250, output_tokens: 22 });
      const offered = server.modelRequests().at(-2)!.body.tools.map((t: any) => t.name ?? t.function?.name).sort();
      assert.deepEqual(offered, ['mcp__everything__echo', 'mcp__everything__get-sum']);
      assert.deepEqual(toolResultsSent(p.name), [{ id: 'call_a', content: 'Echo: hello', isError: false }]);
      assert.deepEqual(eventsOf(ctx, 'agent_tool_call').map((e) => [e.tool, e.call_id, e.args]), [['mcp:everything/echo', 'call_a', { message: 'hello' }]]);
      assert.deepEqual(eventsOf(ctx, 'agent_tool_result').map((e) => [e.result, e.is_error]), [['Echo: hello', false]]);
      const turns = eventsOf(ctx, 'agent_turn');
      assert.deepEqual(turns.map((t) => t.tokens_used), [110, 272]);
      assert.equal(turns[0].max_turns, 10);
      assert.ok(eventsOf(ctx, 'infer_chunk').length >= 2, 'assistant text is streamed');
    });

    test('a failing MCP call is fed back as an error result and the loop goes on', async () => {
      server.enqueue(
        { toolCalls: [{ id: 'bad', name: 'mcp__everything__get-sum', args: { a: 'one' } }] },
        { text: 'Sorry, the sum failed.' },
      );
      const ctx = fakeContext({ env: p.env(), pool, defaultModel: p.model });
      const r = await runAgent(agent({}), ctx);
      assert.equal(r.output, 'Sorry, the sum failed.');
      const sent = toolResultsSent(p.name);
      assert.equal(sent.length, 1);
      assert.equal(sent[0]!.isError, true);
      assert.match(sent[0]!.content, /NIKA-MCP-002/);
      assert.equal(eventsOf(ctx, 'agent_tool_result')[0].is_error, true);
    });

    test('nika:done ends the loop with its result; schema checks it', async () => {
      server.enqueue(
        { toolCalls: [{ id: 's', name: 'mcp__everything__get-sum', args: { a: 2, b: 3 } }] },
        { toolCalls: [{ id: 'd', name: 'nika__done', args: { result: { sum: 5 } } }] },
      );
      const ctx = fakeContext({ env: p.env(), pool, defaultModel: p.model });
      const r = await runAgent(agent({ tools: ['mcp:everything/get-sum', 'nika:done'], schema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } }), ctx);
      assert.deepEqual(r.output, { sum: 5 });
      assert.match(String(eventsOf(ctx, 'agent_tool_result')[0].result), /5/);
    });

    test('max_turns: a model that keeps calling tools fails with NIKA-AGENT-001', async () => {
      server.enqueue(
        { text: 'first look', toolCalls: [{ name: 'mcp__everything__echo', args: { message: '1' } }] },
        { text: 'second look', toolCalls: [{ name: 'mcp__everything__echo', args: { message: '2' } }] },
      );
      const ctx = fakeContext({ env: p.env(), pool, defaultModel: p.model });
      await assert.rejects(runAgent(agent({ maxTurns: 2 }), ctx), (e: NikaError) => e.code === 'NIKA-AGENT-001' && e.opts.details?.partial_output === 'second look');
      assert.equal(eventsOf(ctx, 'agent_tool_result').length, 1, 'the last turn’s calls are not run');
    });

    test('max_tokens_total: cumulative usage fails with NIKA-AGENT-002', async () => {
      server.enqueue(
        { toolCalls: [{ name: 'mcp__everything__echo', args: { message: '1' } }], usage: { input_tokens: 600, output_tokens: 50 } },
        { toolCalls: [{ name: 'mcp__everything__echo', args: { message: '2' } }], usage: { input_tokens: 700, output_tokens: 50 } },
      );
      const ctx = fakeContext({ env: p.env(), pool, defaultModel: p.model });
      await assert.rejects(runAgent(agent({ maxTokensTotal: '1000' }), ctx), (e: NikaError) => e.code === 'NIKA-AGENT-002' && e.opts.details?.tokens_used === 1400);
    });

    test('a call to a tool outside the whitelist fails the task with NIKA-SEC-002', async () => {
      server.enqueue({ toolCalls: [{ name: 'mcp__everything__get-env', args: {} }] });
      const ctx = fakeContext({ env: p.env(), pool, defaultModel: p.model });
      await assert.rejects(runAgent(agent({}), ctx), (e: NikaError) => e.code === 'NIKA-SEC-002');
      assert.equal(ctx.toolCalls.length, 0);
    });
  });
}

describe('agent on mock with a real MCP server (offline)', () => {
  test('mock/echo calls the first granted MCP tool with the prompt, then finishes via nika:done', async () => {
    const ctx = fakeContext({ pool, modelOverride: 'mock/echo', defaultModel: 'openai/gpt-never-called' });
    const r = await runAgent(agent({ tools: ['mcp:everything/echo', 'nika:done'] }), ctx);
    assert.equal(r.output, 'Echo: Say hello through the echo tool');
    assert.deepEqual(ctx.toolCalls, [{ id: 'mcp:everything/echo', args: { message: 'Say hello through the echo tool' } }]);
  });

  test('a whitelist glob offers every matching tool; the mock calls the first', async () => {
    const ctx = fakeContext({ pool, defaultModel: 'mock/echo' });
    const r = await runAgent(agent({ tools: ['mcp:everything/*', '!mcp:everything/trigger-*', '!mcp:everything/toggle-*'] }), ctx);
    assert.equal(r.turns, 2);
    assert.equal(ctx.toolCalls.length, 1);
    assert.ok(!ctx.toolCalls[0]!.id.includes('trigger-'));
  });
});
