// Secret values never leave the engine: a secret from the environment is echoed by a task, put in
// a failing task's stderr, returned by an MCP tool, echoed by a model (streamed, and split across
// stream chunks), and quoted in a provider error. No CLI line (human or --json), event, error
// message or output — nor the editor's output-channel text rendered from those events — holds it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RunLogFormatter } from '../../client/model/runLog.js';
import type { NikaEvent } from '../../engine/events.js';
import { LlmServer } from '../support/llm-server.js';
import { badMcpConfig, buildOnce, runCli, tempDir, writeWorkflow } from '../support/processes.js';

const SECRET = 'hunter2-s3cr3t-value';
let llm: LlmServer;

before(async () => {
  buildOnce();
  llm = await LlmServer.start();
});
after(() => llm.close());

const WF = `nika: leaky
model: mock/echo
secrets:
  k: { source: env, key: LEAKY_SECRET, egress: [{ to: exec }, { to: infer }, { to: "mcp:bad/env" }, { to: "mcp:bad/fail" }] }
permits:
  exec: true
  env: [LEAKY_SECRET]
  tools: ["mcp:bad/*"]
tasks:
  echo_it:
    exec: { command: [echo, "key=\${{ secrets.k }}"] }
  fail_with_it:
    exec: { command: [sh, -c, 'echo "cannot log in with $1" >&2; exit 3', sh, "\${{ secrets.k }}"] }
  env_child:
    exec: { shell: "echo from-env=$LEAKY_SECRET", env: { LEAKY_SECRET: "\${{ secrets.k }}" } }
  mcp_returns_it:
    invoke: { tool: "mcp:bad/env", args: { name: MCP_LEAK } }
  mcp_error_with_it:
    invoke: { tool: "mcp:bad/fail", args: { text: "\${{ secrets.k }}" } }
  model_echoes_it:
    infer: { prompt: "repeat \${{ secrets.k }}" }
  model_splits_it:
    infer: { prompt: "split", model: "openai/gpt-leak" }
  provider_error_quotes_it:
    after: { model_splits_it: terminal }
    infer: { prompt: "again", model: "openai/gpt-leak" }
`;

function runLeaky(mode: string[]) {
  const dir = tempDir('nika-secret-');
  const file = writeWorkflow(WF, {}, dir);
  const cfg = badMcpConfig(dir, { bad: { env: { MCP_LEAK: SECRET } } });
  // The secret split across two stream chunks, then a provider error quoting it.
  llm.clearQueue().enqueue(
    { chunks: ['the key is hunt', 'er2-s3cr', '3t-value, done'] },
    { status: 401, errorMessage: `invalid key ${SECRET}` },
  );
  return runCli(['run', file, '--mcp-config', cfg, ...mode], {
    cwd: dir,
    env: { LEAKY_SECRET: SECRET, NIKA_OPENAI_BASE_URL: llm.openaiBaseUrl, NIKA_OPENAI_API_KEY: 'sk-x' },
  });
}

test('--json: no event holds the secret, and the tasks that used it really ran', { timeout: 60_000 }, async () => {
  const r = await runLeaky(['--json']);
  assert.ok(!r.out.includes(SECRET), `stdout leaks: ${r.out.split('\n').filter((l) => l.includes(SECRET)).join('\n').slice(0, 800)}`);
  assert.ok(!r.err.includes(SECRET), `stderr leaks: ${r.err.slice(0, 800)}`);
  const tasks = r.events.at(-1)!.tasks;
  assert.equal(tasks.echo_it.output, 'key=***');
  assert.equal(tasks.env_child.output, 'from-env=***');
  assert.equal(tasks.fail_with_it.error.code, 'NIKA-EXEC-001');
  assert.match(tasks.fail_with_it.error.message, /cannot log in with \*\*\*/);
  assert.equal(tasks.mcp_returns_it.output, 'value=***');
  assert.equal(tasks.mcp_error_with_it.error.code, 'NIKA-MCP-002');
  assert.match(tasks.model_echoes_it.output, /\*\*\*/);
  assert.equal(tasks.model_splits_it.output, 'the key is ***, done');
  assert.equal(tasks.provider_error_quotes_it.error.code, 'NIKA-INFER-001');
  // A secret cut across stream chunks must not reappear when the chunks are joined (as every view does).
  const streamed = r.events.filter((e) => e.type === 'infer_chunk' && e.task_id === 'model_splits_it').map((e) => e.text).join('');
  assert.ok(!streamed.includes(SECRET), `joined chunks leak: ${streamed}`);
  // The editor's output channel renders these same events.
  const log = new RunLogFormatter();
  const text = r.events.map((e) => log.format(e as NikaEvent)).join('');
  assert.ok(!text.includes(SECRET), 'output channel text');
  assert.match(text, /\*\*\*/);
});

test('human output: no line holds the secret', { timeout: 60_000 }, async () => {
  const r = await runLeaky([]);
  assert.equal(r.code, 1, 'some tasks fail on purpose');
  const leaks = (r.out + r.err).split('\n').filter((l) => l.includes(SECRET));
  assert.deepEqual(leaks, []);
  assert.match(r.out, /key=\*\*\*/);
});

test('a secret that is unavailable is named by its variable, never by a value', { timeout: 60_000 }, async () => {
  const dir = tempDir('nika-secret-');
  const file = writeWorkflow(WF.replace('LEAKY_SECRET, egress', 'NOT_SET_ANYWHERE, egress'), {}, dir);
  const r = await runCli(['run', file, '--json', '--mcp-config', badMcpConfig(dir, { bad: {} })], { cwd: dir, env: { LEAKY_SECRET: SECRET } });
  assert.ok(!(r.out + r.err).includes(SECRET));
  assert.match(r.out, /NOT_SET_ANYWHERE/);
  void join;
});
