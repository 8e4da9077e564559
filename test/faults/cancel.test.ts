// Stopping a run stops everything it started: SIGINT and SIGTERM to the CLI, and the engine's
// cancel() as the editor calls it. Every process the run started records its pid (exec tasks
// write $$ and their grandchild's $!, the MCP server appends its own), and each must be gone.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { analyze } from '../../core/analyze.js';
import { startRun } from '../../engine/index.js';
import { McpPool } from '../../engine/mcp/pool.js';
import type { NikaEvent } from '../../engine/events.js';
import { badMcpConfig, BAD_MCP, buildOnce, pidsFrom, reap, startCli, survivors, tempDir, within, writeWorkflow } from '../support/processes.js';

/** The brief: a cancelled run is fully stopped within 3 s. */
const STOP_MS = Number(process.env.FAULT_STOP_MS ?? 3000);

const WF = `nika: stoppable
model: mock/echo
permits:
  exec: true
  tools: ["mcp:bad/*"]
tasks:
  shell:
    exec: { shell: "echo $$ > shell.pid; sleep 60 & echo $! > grandchild.pid; wait" }
  argv:
    exec: { command: [sh, -c, "echo $$ > argv.pid; exec sleep 60"] }
  mcp_call:
    invoke: { tool: "mcp:bad/hang" }
  quick:
    infer: { prompt: "hello" }
  downstream:
    with: { x: "\${{ tasks.shell.output }}" }
    exec: { command: [echo, never] }
`;

before(buildOnce);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} to nika-run: exit 130, workflow_cancelled, no child, grandchild or MCP server left`, { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const file = writeWorkflow(WF, {}, dir);
    const cfg = badMcpConfig(dir, { bad: { pidFile: join(dir, 'mcp.pid') } });
    const run = startCli(['run', file, '--json', '--mcp-config', cfg], { cwd: dir });
    const pidFiles = ['shell.pid', 'grandchild.pid', 'argv.pid', 'mcp.pid'].map((f) => join(dir, f));
    let pids: number[] = [];
    try {
      pids = await pidsFrom(pidFiles);
      // The MCP call must be in flight, not just the server started.
      await within(10_000, 'mcp_call started', (async () => { while (!run.events().some((e) => e.type === 'task_started' && e.task_id === 'mcp_call')) await new Promise((r) => setTimeout(r, 20)); })());
      run.child.kill(signal);
      const code = await within(STOP_MS, `exit after ${signal}`, run.exit);
      assert.equal(code, 130, run.err());
      const events = run.events();
      const last = events.at(-1)!;
      assert.equal(last.type, 'workflow_cancelled', JSON.stringify(last));
      assert.equal(last.state, 'cancelled');
      assert.equal(last.tasks.downstream.status, 'cancelled');
      assert.equal(last.tasks.quick.status, 'success', 'work that finished before the signal keeps its result');
      // Everything was stopped before the CLI exited: no grace period needed for the check.
      assert.deepEqual(await survivors(pids, 0), [], `still running: ${pids.filter(Boolean).join(' ')}`);
    } finally {
      reap(pids);
      run.child.kill('SIGKILL');
    }
  });
}

test('a second SIGINT while stopping does not leave children behind either', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const file = writeWorkflow(WF, {}, dir);
  const cfg = badMcpConfig(dir, { bad: { pidFile: join(dir, 'mcp.pid') } });
  const run = startCli(['run', file, '--mcp-config', cfg], { cwd: dir });
  let pids: number[] = [];
  try {
    pids = await pidsFrom(['shell.pid', 'grandchild.pid', 'argv.pid', 'mcp.pid'].map((f) => join(dir, f)));
    run.child.kill('SIGINT');
    run.child.kill('SIGINT');
    const code = await within(STOP_MS, 'exit after two SIGINTs', run.exit);
    assert.equal(code, 130);
    assert.match(run.out() + run.err(), /cancel/i);
    assert.deepEqual(await survivors(pids, 500), []);
  } finally {
    reap(pids);
    run.child.kill('SIGKILL');
  }
});

test("the engine's cancel() (the editor's Cancel) stops children and the MCP server the same way", { timeout: 60_000 }, async () => {
  const dir = tempDir();
  writeWorkflow(WF, {}, dir);
  const { workflow } = analyze(WF, { skipChecks: true });
  const pool = new McpPool({ bad: { command: process.execPath, args: [BAD_MCP], env: { BAD_MCP_PIDFILE: join(dir, 'mcp.pid') } } });
  const handle = startRun(workflow, { cwd: dir, file: join(dir, 'wf.nika.yaml'), env: { ...process.env }, mcpPool: pool });
  const events: NikaEvent[] = [];
  handle.onEvent((e) => events.push(e));
  let pids: number[] = [];
  try {
    pids = await pidsFrom(['shell.pid', 'grandchild.pid', 'argv.pid', 'mcp.pid'].map((f) => join(dir, f)));
    handle.cancel('user pressed Cancel');
    const result = await within(STOP_MS, 'run settles after cancel()', handle.done);
    void result;
    assert.equal(events.at(-1)!.type, 'workflow_cancelled');
    // The editor owns its pool (it outlives runs); closing it must stop the server too.
    await within(STOP_MS, 'pool.close()', pool.close());
    assert.deepEqual(await survivors(pids, 500), []);
  } finally {
    reap(pids);
    await pool.close();
  }
});
