// The offline provider through the real infer/agent verbs: the contract users rehearse with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInfer } from '../../engine/ai/infer.js';
import { runAgent } from '../../engine/ai/agent.js';
import { NikaError } from '../../engine/contracts.js';
import type { AgentBody, InferBody } from '../../core/ir.js';
import { eventsOf, fakeContext } from '../support/fake-context.js';

const infer = (b: Partial<InferBody>): InferBody => ({ verb: 'infer', prompt: 'hello', ...b });
const agent = (b: Partial<AgentBody>): AgentBody => ({ verb: 'agent', prompt: 'find it', tools: [], ...b });

const echoTool = {
  schema: { id: 'nika:log', description: 'log', inputSchema: { type: 'object', properties: { message: { type: 'string' }, level: { enum: ['info', 'warn'] }, n: { type: 'integer' } }, required: ['message', 'level', 'n'] } },
  run: (args: Record<string, unknown>) => ({ logged: args.message }),
};

test('mock/echo answers with the exact prefix and streams it as infer_chunk', async () => {
  const ctx = fakeContext({ defaultModel: 'mock/echo' });
  const r = await runInfer(infer({ prompt: 'Summarize: sky' }), ctx);
  assert.equal(r.output, 'mock(echo) · Summarize: sky');
  assert.equal(r.model, 'mock/echo');
  assert.equal(eventsOf(ctx, 'infer_chunk').map((e) => e.text).join(''), 'mock(echo) · Summarize: sky');
  assert.equal(eventsOf(ctx, 'infer_chunk')[0].task_id, 'task');
  assert.ok(r.usage && r.usage.input_tokens > 0 && r.usage.output_tokens > 0);
});

test('model precedence: --model override beats the task model, which beats the workflow default', async () => {
  const a = await runInfer(infer({ model: 'mock/mock-error' }), fakeContext({ modelOverride: 'mock/echo', defaultModel: 'openai/gpt-x' }));
  assert.equal(a.output, 'mock(echo) · hello');
  const b = await runInfer(infer({ model: 'mock/mock-deterministic' }), fakeContext({ defaultModel: 'mock/echo' }));
  assert.match(String(b.output), /^mock\(deterministic\) · [0-9a-f]{16}$/);
  await assert.rejects(runInfer(infer({}), fakeContext({})), (e: NikaError) => e.code === 'NIKA-INFER-001' && /no model/.test(e.message));
});

test('mock schema answers are zero values of the schema shape', async () => {
  const schema = {
    type: 'object',
    properties: { title: { type: 'string' }, score: { type: 'number' }, ok: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } }, mood: { enum: ['happy', 'sad'] }, meta: { type: 'object', properties: { n: { type: 'integer' } } } },
  };
  const r = await runInfer(infer({ model: 'mock/echo', schema }), fakeContext());
  assert.deepEqual(r.output, { title: '', score: 0, ok: false, tags: [], mood: 'happy', meta: { n: 0 } });
});

test('mock-streaming sends several chunks; mock-json returns an object; mock-deterministic is stable', async () => {
  const ctx = fakeContext();
  const r = await runInfer(infer({ model: 'mock/mock-streaming', prompt: 'one two three four' }), ctx);
  const chunks = eventsOf(ctx, 'infer_chunk').map((e) => e.text);
  assert.ok(chunks.length >= 3, `expected several chunks, got ${chunks.length}`);
  assert.equal(chunks.join(''), r.output);
  assert.equal(r.output, 'mock(echo) · one two three four');
  const j = await runInfer(infer({ model: 'mock/mock-json', prompt: 'p' }), fakeContext());
  assert.deepEqual(j.output, { model: 'mock-json', prompt: 'p' });
  const d1 = await runInfer(infer({ model: 'mock/mock-deterministic', prompt: 'x' }), fakeContext());
  const d2 = await runInfer(infer({ model: 'mock/mock-deterministic', prompt: 'x' }), fakeContext());
  const d3 = await runInfer(infer({ model: 'mock/mock-deterministic', prompt: 'y' }), fakeContext());
  assert.equal(d1.output, d2.output);
  assert.notEqual(d1.output, d3.output);
});

test('mock-error fails with a non-transient provider error; unknown providers and mock models are refused', async () => {
  await assert.rejects(runInfer(infer({ model: 'mock/mock-error' }), fakeContext()), (e: NikaError) => e.code === 'NIKA-INFER-001' && !e.transient);
  await assert.rejects(runInfer(infer({ model: 'nope/x' }), fakeContext()), (e: NikaError) => e.code === 'NIKA-INFER-001' && /unknown provider "nope"/.test(e.message));
  await assert.rejects(runInfer(infer({ model: 'mock/banana' }), fakeContext()), /unknown mock model/);
  await assert.rejects(runInfer(infer({ model: 'gpt4' }), fakeContext()), /<provider>\/<name>/);
});

test('a missing cloud key names the variable and never a value', async () => {
  await assert.rejects(runInfer(infer({ model: 'openai/gpt-4o-mini' }), fakeContext({ env: { GROQ_API_KEY: 'sk-secret-groq' } })), (e: NikaError) => {
    assert.equal(e.code, 'NIKA-INFER-001');
    assert.match(e.message, /OPENAI_API_KEY/);
    assert.match(e.message, /NIKA_OPENAI_API_KEY/);
    return true;
  });
});

test('mock agent without tools answers at once', async () => {
  const ctx = fakeContext({ defaultModel: 'mock/echo' });
  const r = await runAgent(agent({}), ctx);
  assert.equal(r.output, 'mock(echo) · find it');
  assert.equal(r.turns, 1);
  assert.equal(eventsOf(ctx, 'agent_turn').length, 1);
});

test('mock agent calls the first granted tool with arguments built from its schema, then answers', async () => {
  const ctx = fakeContext({ defaultModel: 'mock/echo', builtins: { 'nika:log': echoTool } });
  const r = await runAgent(agent({ tools: ['nika:log'] }), ctx);
  assert.equal(r.output, 'mock(echo) · find it');
  assert.equal(r.turns, 2);
  assert.deepEqual(ctx.toolCalls, [{ id: 'nika:log', args: { message: 'find it', level: 'info', n: 0 } }]);
  const call = eventsOf(ctx, 'agent_tool_call')[0];
  assert.equal(call.tool, 'nika:log');
  const res = eventsOf(ctx, 'agent_tool_result')[0];
  assert.deepEqual(res.result, { logged: 'find it' });
  assert.equal(res.is_error, false);
  assert.equal(res.call_id, call.call_id);
  const turns = eventsOf(ctx, 'agent_turn');
  assert.deepEqual(turns.map((t) => t.turn), [1, 2]);
  assert.equal(turns[0].stop_reason, 'tool_use');
  assert.equal(turns[1].tokens_used, r.usage.input_tokens + r.usage.output_tokens);
});

test('nika:done ends the loop with its result (the last tool result for the mock)', async () => {
  const ctx = fakeContext({ defaultModel: 'mock/echo', builtins: { 'nika:log': echoTool } });
  const r = await runAgent(agent({ tools: ['nika:log', 'nika:done'] }), ctx);
  assert.deepEqual(r.output, { logged: 'find it' });
  assert.deepEqual(eventsOf(ctx, 'agent_tool_call').map((e) => e.tool), ['nika:log', 'nika:done']);
  assert.equal(ctx.toolCalls.length, 1, 'nika:done is handled by the loop, not dispatched');
  const only = await runAgent(agent({ tools: ['nika:done'] }), fakeContext({ defaultModel: 'mock/echo' }));
  assert.equal(only.output, 'mock(echo) · find it');
  assert.equal(only.turns, 1);
});

test('max_turns exhaustion fails with NIKA-AGENT-001 and the partial output, without running the last calls', async () => {
  const ctx = fakeContext({ defaultModel: 'mock/echo', builtins: { 'nika:log': echoTool } });
  await assert.rejects(runAgent(agent({ tools: ['nika:log'], maxTurns: '1' }), ctx), (e: NikaError) => {
    assert.equal(e.code, 'NIKA-AGENT-001');
    assert.equal(e.category, 'budget_error');
    assert.equal(e.opts.details?.partial_output, 'mock(echo) · find it');
    return true;
  });
  assert.equal(ctx.toolCalls.length, 0);
});

test('max_tokens_total exhaustion fails with NIKA-AGENT-002', async () => {
  const ctx = fakeContext({ defaultModel: 'mock/echo', builtins: { 'nika:log': echoTool } });
  await assert.rejects(runAgent(agent({ tools: ['nika:log'], maxTokensTotal: 5 }), ctx), (e: NikaError) => e.code === 'NIKA-AGENT-002' && (e.opts.details?.tokens_used as number) >= 5);
  const big = await runAgent(agent({ tools: ['nika:log'], maxTokensTotal: 100000 }), fakeContext({ defaultModel: 'mock/echo', builtins: { 'nika:log': echoTool } }));
  assert.equal(big.turns, 2);
});

test('tool errors go back to the model; security errors fail the task', async () => {
  const failing = { schema: echoTool.schema, run: () => { throw new NikaError('NIKA-BUILTIN-LOG-001', 'disk full'); } };
  const ctx = fakeContext({ defaultModel: 'mock/echo', builtins: { 'nika:log': failing } });
  const r = await runAgent(agent({ tools: ['nika:log'] }), ctx);
  assert.equal(r.output, 'mock(echo) · find it');
  const res = eventsOf(ctx, 'agent_tool_result')[0];
  assert.equal(res.is_error, true);
  assert.match(String(res.result), /NIKA-BUILTIN-LOG-001: disk full/);

  const denied = { schema: echoTool.schema, run: () => { throw new NikaError('NIKA-SEC-002', 'outside permits'); } };
  await assert.rejects(runAgent(agent({ tools: ['nika:log'] }), fakeContext({ defaultModel: 'mock/echo', builtins: { 'nika:log': denied } })), (e: NikaError) => e.code === 'NIKA-SEC-002');
});

test('agent with schema returns an object; legacy stop conditions end the loop', async () => {
  const r = await runAgent(agent({ schema: { type: 'object', properties: { answer: { type: 'string' } } } }), fakeContext({ defaultModel: 'mock/echo' }));
  assert.deepEqual(r.output, { answer: '' });
  const s = await runAgent(agent({ tools: ['nika:log'], stopConditions: ['find'] }), fakeContext({ defaultModel: 'mock/echo', builtins: { 'nika:log': echoTool } }));
  assert.equal(s.output, 'mock(echo) · find it');
  assert.equal(s.turns, 1);
});

test('cancellation stops the agent with the abort reason', async () => {
  const ac = new AbortController();
  ac.abort(new NikaError('NIKA-TIMEOUT-001', 'task timed out'));
  await assert.rejects(runAgent(agent({}), fakeContext({ defaultModel: 'mock/echo', signal: ac.signal })), (e: NikaError) => e.code === 'NIKA-TIMEOUT-001');
});

test('tool ids become provider-safe names and map back, even when long or colliding', async () => {
  const { ToolNameMap } = await import('../../engine/ai/tool-names.js');
  const m = new ToolNameMap();
  const ids = ['mcp:everything/echo', 'nika:done', 'mcp:a-b/c', 'mcp:a/b-c', `mcp:server/${'x'.repeat(80)}`, 'mcp:weird/tool.name', 'mcp:weird/tool_name'];
  const names = ids.map((id) => m.add(id));
  assert.equal(names[0], 'mcp__everything__echo');
  assert.equal(names[1], 'nika__done');
  for (const n of names) assert.match(n, /^[a-zA-Z0-9_-]{1,64}$/);
  assert.equal(new Set(names).size, ids.length);
  ids.forEach((id, i) => assert.equal(m.id(names[i]!), id));
  assert.equal(m.add('mcp:everything/echo'), 'mcp__everything__echo');
});
