// The real `openai` and `@anthropic-ai/sdk` clients against the loopback server: what reaches the
// wire, what comes back, and how failures are typed. Both protocols run the same cases.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getProvider } from '../../engine/ai/providers/index.js';
import { runInfer } from '../../engine/ai/infer.js';
import { NikaError } from '../../engine/contracts.js';
import type { ChatRequest } from '../../engine/ai/types.js';
import { LlmServer } from '../support/llm-server.js';
import { eventsOf, fakeContext } from '../support/fake-context.js';

const KEY = 'sk-loopback-secret-123456';

const protocols = [
  { name: 'openai', model: 'openai/gpt-loop', env: (s: LlmServer) => ({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: s.openaiBaseUrl }) },
  { name: 'anthropic', model: 'anthropic/claude-loop', env: (s: LlmServer) => ({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: s.anthropicBaseUrl }) },
] as const;

const signal = () => new AbortController().signal;
const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'loop', messages: [{ role: 'user', text }], ...extra });

for (const p of protocols) {
  describe(`${p.name} SDK over loopback`, () => {
    let server: LlmServer;
    let env: Record<string, string>;
    before(async () => {
      server = await LlmServer.start();
      env = p.env(server);
    });
    after(() => server.close());

    test('streamed text arrives as several chunks, usage is counted, the key reaches the server', async () => {
      server.enqueue({ chunks: ['Hel', 'lo ', 'wor', 'ld'], usage: { input_tokens: 11, output_tokens: 7 } });
      const ctx = fakeContext({ env });
      const r = await runInfer({ verb: 'infer', prompt: 'greet', system: 'be brief', model: p.model }, ctx);
      assert.equal(r.output, 'Hello world');
      assert.deepEqual(eventsOf(ctx, 'infer_chunk').map((e) => e.text), ['Hel', 'lo ', 'wor', 'ld']);
      assert.deepEqual(r.usage, { input_tokens: 11, output_tokens: 7 });
      const req = server.modelRequests().at(-1)!;
      assert.equal(req.body.stream, true);
      assert.equal(req.body.model, p.name === 'openai' ? 'gpt-loop' : 'claude-loop');
      const auth = `${req.headers['authorization'] ?? ''} ${req.headers['x-api-key'] ?? ''}`;
      assert.ok(auth.includes(KEY), 'the key is sent');
      if (p.name === 'openai') {
        assert.deepEqual(req.body.stream_options, { include_usage: true });
        assert.deepEqual(req.body.messages[0], { role: 'system', content: 'be brief' });
      } else {
        assert.equal(req.body.system, 'be brief');
      }
    });

    test('a tool call round-trip: tools offered, call parsed, result sent back', async () => {
      const provider = getProvider(p.model, env);
      const tools = [{ name: 'mcp__everything__echo', description: 'Echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } }];
      server.enqueue({ text: 'Let me check.', toolCalls: [{ id: 'c1', name: 'mcp__everything__echo', args: { message: 'hi there' } }] }, { text: 'It said hi.' });
      const first = await provider.chat(ask('use the tool', { tools }), { signal: signal() });
      assert.equal(first.text, 'Let me check.');
      assert.deepEqual(first.toolCalls, [{ id: 'c1', name: 'mcp__everything__echo', args: { message: 'hi there' } }]);
      assert.equal(first.stopReason, 'tool_use');
      const second = await provider.chat(
        ask('use the tool', {
          tools,
          messages: [
            { role: 'user', text: 'use the tool' },
            { role: 'assistant', text: first.text, toolCalls: first.toolCalls },
            { role: 'tool', callId: 'c1', name: 'mcp__everything__echo', text: 'Echo: hi there', isError: false },
          ],
        }),
        { signal: signal() },
      );
      assert.equal(second.text, 'It said hi.');
      assert.equal(second.stopReason, 'end_turn');
      const [r1, r2] = server.modelRequests().slice(-2);
      if (p.name === 'openai') {
        assert.equal(r1!.body.tools[0].function.name, 'mcp__everything__echo');
        const msgs = r2!.body.messages;
        assert.equal(msgs[1].tool_calls[0].id, 'c1');
        assert.deepEqual(JSON.parse(msgs[1].tool_calls[0].function.arguments), { message: 'hi there' });
        assert.deepEqual(msgs[2], { role: 'tool', tool_call_id: 'c1', content: 'Echo: hi there' });
      } else {
        assert.equal(r1!.body.tools[0].name, 'mcp__everything__echo');
        const msgs = r2!.body.messages;
        assert.deepEqual(msgs[1].content[1], { type: 'tool_use', id: 'c1', name: 'mcp__everything__echo', input: { message: 'hi there' } });
        assert.deepEqual(msgs[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'Echo: hi there' }] });
      }
    });

    test('429 is a transient NIKA-INFER-002 and the SDK does not retry on its own', async () => {
      const before = server.modelRequests().length;
      server.enqueue({ status: 429, errorMessage: 'slow down' });
      await assert.rejects(getProvider(p.model, env).chat(ask('x'), { signal: signal() }), (e: NikaError) => {
        assert.equal(e.code, 'NIKA-INFER-002');
        assert.equal(e.transient, true);
        assert.ok(!e.message.includes(KEY));
        return true;
      });
      assert.equal(server.modelRequests().length, before + 1);
    });

    test('500 is transient, 401 is not, and neither leaks the key', async () => {
      server.enqueue({ status: 500 }, { status: 401, errorMessage: `bad key ${KEY}` });
      await assert.rejects(getProvider(p.model, env).chat(ask('x'), { signal: signal() }), (e: NikaError) => e.code === 'NIKA-INFER-002' && e.transient);
      await assert.rejects(getProvider(p.model, env).chat(ask('x'), { signal: signal() }), (e: NikaError) => {
        assert.equal(e.code, 'NIKA-INFER-001');
        assert.equal(e.transient, false);
        assert.ok(!e.message.includes(KEY), e.message);
        return true;
      });
    });

    test('a connection reset mid-stream is a transient typed error, not a hang', async () => {
      server.enqueue({ text: 'one two three four five six', reset: true });
      await assert.rejects(getProvider(p.model, env).chat(ask('x'), { signal: signal() }), (e: NikaError) => e.code === 'NIKA-INFER-002' && e.transient);
    });

    test('a body that is not the promised protocol is NIKA-INFER-003', async () => {
      server.enqueue({ malformed: true });
      await assert.rejects(getProvider(p.model, env).chat(ask('x'), { signal: signal() }), (e: NikaError) => e.code === 'NIKA-INFER-003');
    });

    test('a stream that ends before its terminal event is NIKA-INFER-003', async () => {
      server.enqueue({ text: 'one two three four five six', truncate: true });
      await assert.rejects(getProvider(p.model, env).chat(ask('x'), { signal: signal() }), (e: NikaError) => e.code === 'NIKA-INFER-003' && e.transient);
    });

    test('broken tool arguments are a malformed response', async () => {
      server.enqueue({ toolCalls: [{ name: 't', args: '{"a": ' }] });
      const tools = [{ name: 't', description: '', inputSchema: { type: 'object' } }];
      await assert.rejects(getProvider(p.model, env).chat(ask('x', { tools }), { signal: signal() }), (e: NikaError) => e.code === 'NIKA-INFER-003' && !e.transient);
    });

    test('cancelling a hanging request rejects promptly with the abort reason', async () => {
      server.enqueue({ hang: true });
      const ac = new AbortController();
      const pending = getProvider(p.model, env).chat(ask('x'), { signal: ac.signal });
      setImmediate(() => ac.abort(new NikaError('NIKA-TIMEOUT-001', 'timed out')));
      await assert.rejects(pending, (e: NikaError) => e.code === 'NIKA-TIMEOUT-001');
    });

    test('schema: the answer is parsed and checked', async () => {
      const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
      if (p.name === 'openai') server.enqueue({ text: '{"city":"Paris"}' }, { text: '{"town":"Lyon"}' });
      else server.enqueue({ toolCalls: [{ name: 'structured_output', args: { city: 'Paris' } }] }, { toolCalls: [{ name: 'structured_output', args: { town: 'Lyon' } }] });
      const r = await runInfer({ verb: 'infer', prompt: 'capital of France?', model: p.model, schema }, fakeContext({ env }));
      assert.deepEqual(r.output, { city: 'Paris' });
      const req = server.modelRequests().at(-1)!;
      if (p.name === 'openai') {
        assert.equal(req.body.response_format.type, 'json_schema');
        assert.deepEqual(req.body.response_format.json_schema.schema, schema);
      } else {
        assert.deepEqual(req.body.tool_choice, { type: 'tool', name: 'structured_output' });
      }
      await assert.rejects(runInfer({ verb: 'infer', prompt: 'again', model: p.model, schema }, fakeContext({ env })), (e: NikaError) => e.code === 'NIKA-INFER-004');
    });
  });
}

describe('OpenAI-compatible providers', () => {
  let server: LlmServer;
  before(async () => {
    server = await LlmServer.start();
  });
  after(() => server.close());

  test('NIKA_<ID>_BASE_URL reaches a local server without a key; cloud ones take NIKA_<ID>_API_KEY', async () => {
    server.enqueue({ text: 'from ollama' }, { text: 'from groq' });
    const a = await runInfer({ verb: 'infer', prompt: 'p', model: 'ollama/qwen3.5:4b' }, fakeContext({ env: { NIKA_OLLAMA_BASE_URL: server.openaiBaseUrl } }));
    assert.equal(a.output, 'from ollama');
    assert.equal(server.modelRequests().at(-1)!.body.model, 'qwen3.5:4b');
    const b = await runInfer({ verb: 'infer', prompt: 'p', model: 'groq/llama-3' }, fakeContext({ env: { GROQ_BASE_URL: server.openaiBaseUrl, NIKA_GROQ_API_KEY: 'gsk-nika' } }));
    assert.equal(b.output, 'from groq');
    assert.equal(server.modelRequests().at(-1)!.headers['authorization'], 'Bearer gsk-nika');
  });
});
