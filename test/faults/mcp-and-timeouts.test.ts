// Faults in what a run depends on: a task timeout (the whole process tree goes), MCP servers that
// cannot start, die mid-call or never answer (NIKA-MCP-* on the tasks that use them while
// independent tasks finish), and nothing hangs.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { analyze } from '../../core/analyze.js';
import { startRun } from '../../engine/index.js';
import { McpPool } from '../../engine/mcp/pool.js';
import { badMcpConfig, BAD_MCP, buildOnce, pidsFrom, reap, runCli, survivors, tempDir, within, writeWorkflow } from '../support/processes.js';

before(buildOnce);

test('a task timeout kills the whole process tree (child and grandchildren) and fails only that task', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const file = writeWorkflow(`nika: slow
model: mock/echo
permits: { exec: true }
tasks:
  slow:
    timeout: "1s"
    exec:
      shell: "echo $$ > sh.pid; sh -c 'sleep 60 & echo $! > gc.pid; sleep 60' & echo $! > child.pid; wait"
  independent:
    infer: { prompt: "still here" }
`, {}, dir);
  const r = await runCli(['run', file, '--json'], { cwd: dir, withinMs: 30_000 });
  const pids = await pidsFrom(['sh.pid', 'child.pid', 'gc.pid'].map((f) => join(dir, f)), 1000);
  try {
    assert.equal(r.code, 1, r.err);
    const last = r.events.at(-1)!;
    assert.equal(last.type, 'workflow_failed');
    assert.equal(last.tasks.slow.error.code, 'NIKA-TIMEOUT-001');
    assert.equal(last.tasks.independent.status, 'success');
    assert.deepEqual(await survivors(pids, 3000), [], 'shell, its child and the grandchild are gone');
  } finally {
    reap(pids);
  }
});

test('an MCP server that cannot start: NIKA-MCP-001 with its stderr, independent tasks finish', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const file = writeWorkflow(`nika: dead-server
model: mock/echo
permits: { exec: [echo], tools: ["mcp:dead/*", "mcp:missing/*"] }
tasks:
  call_dead:
    invoke: { tool: "mcp:dead/ok", args: { text: hi } }
  call_missing:
    invoke: { tool: "mcp:missing/ok" }
  independent:
    exec: { command: [echo, fine] }
  after_dead:
    with: { x: "\${{ tasks.call_dead.output }}" }
    exec: { command: [echo, never] }
`, {}, dir);
  const cfg = badMcpConfig(dir, { dead: { mode: 'die-at-start' } });
  const r = await runCli(['run', file, '--json', '--mcp-config', cfg], { cwd: dir, withinMs: 40_000 });
  assert.equal(r.code, 1, r.err);
  const tasks = r.events.at(-1)!.tasks;
  assert.equal(tasks.call_dead.error.code, 'NIKA-MCP-001');
  assert.match(tasks.call_dead.error.message, /refusing to start/, 'the server stderr explains why');
  assert.equal(tasks.call_missing.error.code, 'NIKA-MCP-001');
  assert.match(tasks.call_missing.error.message, /not configured/);
  assert.equal(tasks.independent.status, 'success');
  assert.equal(tasks.independent.output, 'fine');
  assert.notEqual(tasks.after_dead.status, 'success');
});

test('an MCP server that exits mid-call: NIKA-MCP-001 for that call; the next call gets a fresh server', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const file = writeWorkflow(`nika: dies
model: mock/echo
permits: { exec: [echo], tools: ["mcp:bad/*"] }
tasks:
  dies:
    invoke: { tool: "mcp:bad/exit" }
  later_ok:
    after: { dies: terminal }
    invoke: { tool: "mcp:bad/ok", args: { text: "after restart" } }
  independent:
    exec: { command: [echo, fine] }
`, {}, dir);
  const cfg = badMcpConfig(dir, { bad: { pidFile: join(dir, 'mcp.pid') } });
  const r = await runCli(['run', file, '--json', '--mcp-config', cfg], { cwd: dir, withinMs: 40_000 });
  const pids = await pidsFrom([join(dir, 'mcp.pid')], 1000);
  try {
    assert.equal(r.code, 1, r.err);
    const tasks = r.events.at(-1)!.tasks;
    assert.equal(tasks.dies.error.code, 'NIKA-MCP-001');
    assert.match(tasks.dies.error.message, /went away|exited|closed/i);
    assert.equal(tasks.later_ok.status, 'success', 'the next call starts the server again');
    assert.equal(tasks.later_ok.output, 'ok: after restart');
    assert.equal(tasks.independent.status, 'success');
    assert.ok(pids.length >= 2, `restarted: ${pids.join(' ')}`);
    assert.deepEqual(await survivors(pids, 3000), [], 'no server outlives the run');
  } finally {
    reap(pids);
  }
});

test('MCP servers that hang (at the handshake or in a call) give NIKA-MCP-* errors within their time caps; others finish', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const yaml = `nika: hangs
model: mock/echo
permits: { exec: [echo], tools: ["mcp:mute/*", "mcp:bad/*"] }
tasks:
  handshake:
    invoke: { tool: "mcp:mute/ok" }
  call:
    invoke: { tool: "mcp:bad/hang" }
  fine:
    invoke: { tool: "mcp:bad/ok", args: { text: "x" } }
  independent:
    exec: { command: [echo, fine] }
`;
  writeWorkflow(yaml, {}, dir);
  const pidFile = join(dir, 'mcp.pid');
  // The CLI's caps are 30 s / 60 s; the editor and tests pass shorter ones to the same pool.
  const pool = new McpPool({
    mute: { command: process.execPath, args: [BAD_MCP, 'hang-at-start'], env: { BAD_MCP_PIDFILE: pidFile } },
    bad: { command: process.execPath, args: [BAD_MCP], env: { BAD_MCP_PIDFILE: pidFile } },
  }, { connectTimeoutMs: 5000, callTimeoutMs: 1500 });
  const handle = startRun(analyze(yaml, { skipChecks: true }).workflow, { cwd: dir, env: { ...process.env }, mcpPool: pool });
  let pids: number[] = [];
  try {
    const result = await within(20_000, 'run with hanging MCP servers', handle.done);
    pids = await pidsFrom([pidFile], 1000);
    assert.equal(result.tasks.handshake!.error?.code, 'NIKA-MCP-001');
    assert.match(result.tasks.handshake!.error!.message, /did not answer/);
    assert.equal(result.tasks.call!.error?.code, 'NIKA-MCP-002', result.tasks.call!.error?.message);
    assert.match(result.tasks.call!.error!.message, /timed out/);
    assert.equal(result.tasks.fine!.status, 'success');
    assert.equal(result.tasks.independent!.status, 'success');
  } finally {
    await within(5000, 'pool.close()', pool.close());
    assert.deepEqual(await survivors(pids, 3000), [], 'closing the pool stops hung servers too');
    reap(pids);
  }
});
