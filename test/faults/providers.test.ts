// Provider faults through the CLI, against the scripted loopback LLM server (real `openai` and
// `@anthropic-ai/sdk` clients inside dist/cli.js): transient errors are retried when the task has
// `retry:`, everything else fails with a typed Nika error, and nothing hangs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LlmServer, type ScriptStep } from '../support/llm-server.js';
import { buildOnce, runCli, writeWorkflow } from '../support/processes.js';

let server: LlmServer;
before(async () => {
  buildOnce();
  server = await LlmServer.start();
});
after(() => server.close());

const PROTOCOLS = [
  { name: 'openai', model: 'openai/gpt-fault', env: () => ({ NIKA_OPENAI_BASE_URL: server.openaiBaseUrl, NIKA_OPENAI_API_KEY: 'sk-fault' }) },
  { name: 'anthropic', model: 'anthropic/claude-fault', env: () => ({ NIKA_ANTHROPIC_BASE_URL: server.anthropicBaseUrl, NIKA_ANTHROPIC_API_KEY: 'sk-ant-fault' }) },
];

const RETRY = 'retry: { max_attempts: 3, backoff_ms: 10, backoff_strategy: fixed, jitter: false }';

async function run(p: (typeof PROTOCOLS)[number], steps: ScriptStep[], taskExtra = '') {
  server.enqueue(...steps);
  const before = server.modelRequests().length;
  const file = writeWorkflow(`nika: provider-faults
model: ${p.model}
tasks:
  ask:
${taskExtra ? `    ${taskExtra}\n` : ''}    infer: { prompt: "say something" }
`);
  const r = await runCli(['run', file, '--json'], { env: p.env(), withinMs: 30_000 });
  // Whatever the script left (a step the run never consumed) must not leak into the next test.
  server.clearQueue();
  const last = r.events.at(-1)!;
  return { ...r, last, task: last.tasks?.ask, requests: server.modelRequests().length - before, retrying: r.events.filter((e) => e.type === 'task_retrying') };
}

for (const p of PROTOCOLS) {
  describe(`${p.name} wire format`, () => {
    test('429 then 500 are retried under retry: and the task succeeds on the third attempt', async () => {
      const r = await run(p, [{ status: 429, errorMessage: 'slow down', headers: { 'retry-after': '0' } }, { status: 500 }, { text: 'third time lucky' }], RETRY);
      assert.equal(r.code, 0, r.out + r.err);
      assert.equal(r.task.status, 'success');
      assert.equal(r.task.output, 'third time lucky');
      assert.equal(r.task.attempts, 3);
      assert.equal(r.retrying.length, 2);
      assert.equal(r.requests, 3, 'the SDK does not retry behind the engine\'s back');
    });

    test('without retry: a 429 fails at once with a transient NIKA-INFER-002', async () => {
      const r = await run(p, [{ status: 429, errorMessage: 'slow down' }]);
      assert.equal(r.code, 1);
      assert.equal(r.task.error.code, 'NIKA-INFER-002');
      assert.equal(r.requests, 1);
    });

    test('401 is not transient: retry: does not repeat it', async () => {
      const r = await run(p, [{ status: 401, errorMessage: 'bad key' }, { text: 'never asked' }], RETRY);
      assert.equal(r.code, 1);
      assert.equal(r.task.error.code, 'NIKA-INFER-001');
      assert.equal(r.requests, 1);
    });

    test('a stream cut mid-way (connection reset) is transient: retried, then succeeds', async () => {
      const r = await run(p, [{ text: 'one two three four five', reset: true }, { text: 'whole answer' }], RETRY);
      assert.equal(r.code, 0, r.out + r.err);
      assert.equal(r.task.output, 'whole answer', 'the half-streamed text of the cut attempt is not kept');
      assert.equal(r.task.attempts, 2);
    });

    test('a stream that ends without its terminal event, and a malformed body, fail with NIKA-INFER-003', async () => {
      const cut = await run(p, [{ text: 'one two three', truncate: true }]);
      assert.equal(cut.code, 1);
      assert.equal(cut.task.error.code, 'NIKA-INFER-003');
      const bad = await run(p, [{ malformed: true }]);
      assert.equal(bad.code, 1);
      assert.equal(bad.task.error.code, 'NIKA-INFER-003');
    });

    test('a provider that never answers is bounded by the task timeout (NIKA-TIMEOUT-001), not a hang', async () => {
      const r = await run(p, [{ hang: true }], 'timeout: "1500ms"');
      assert.equal(r.code, 1);
      assert.equal(r.task.error.code, 'NIKA-TIMEOUT-001');
    });
  });
}
