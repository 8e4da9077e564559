// The loopback LLM server as other suites (the extension's e2e) use it: standalone from the
// command line, scripted over HTTP, non-streaming answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { LlmServer } from '../support/llm-server.js';

test('CLI: --script steps are served in order, then echo; /_script and /_requests work over HTTP', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nika-llm-'));
  const script = join(dir, 'steps.json');
  writeFileSync(script, JSON.stringify({ steps: [{ text: 'first scripted' }] }));
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'support', 'llm-server.ts'), '--script', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /http:\/\/\S+/.exec(out);
        if (m) resolve(m[0]);
      });
      child.once('exit', (c) => reject(new Error(`exited ${c}`)));
    });
    const client = new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 });
    const ask = async (content: string) => (await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content }] })).choices[0]!.message.content;
    assert.equal(await ask('a'), 'first scripted');
    assert.equal(await ask('b'), 'loopback(echo) · b');
    await fetch(`${url}/_script`, { method: 'POST', body: JSON.stringify([{ text: 'pushed over http' }]) });
    assert.equal(await ask('c'), 'pushed over http');
    const recorded = (await (await fetch(`${url}/_requests`)).json()) as Array<{ protocol: string; body: any }>;
    assert.deepEqual(recorded.filter((r) => r.protocol === 'openai').map((r) => r.body.messages[0].content), ['a', 'b', 'c']);
  } finally {
    child.kill('SIGTERM');
  }
});

test('non-streaming answers carry tool calls in both formats', async () => {
  const s = await LlmServer.start({ script: [{ toolCalls: [{ id: 't1', name: 'x', args: { a: 1 } }] }, { toolCalls: [{ id: 't2', name: 'y', args: { b: 2 } }] }] });
  try {
    const o = await new OpenAI({ apiKey: 'k', baseURL: s.openaiBaseUrl, maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    const call = o.choices[0]!.message.tool_calls![0]!;
    assert.equal(call.type === 'function' && call.function.name, 'x');
    const a = await new Anthropic({ apiKey: 'k', baseURL: s.anthropicBaseUrl, maxRetries: 0 }).messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] });
    assert.deepEqual(a.content[0], { type: 'tool_use', id: 't2', name: 'y', input: { b: 2 } });
    assert.equal(a.stop_reason, 'tool_use');
  } finally {
    await s.close();
  }
});
