// The views' fold against the real engine: a mock/echo agent calling a real MCP server through
// the explorer's per-server pools (MultiPool), rendered as the editor would render it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import { startRun } from '../../engine/index.js';
import type { NikaEvent } from '../../engine/events.js';
import { McpPool } from '../../engine/mcp/pool.js';
import { MultiPool } from '../../client/mcp/multiPool.js';
import { applyEvent, createRun } from '../../client/model/runState.js';
import { RunLogFormatter } from '../../client/model/runLog.js';
import { taskBadge } from '../../client/model/decorations.js';
import { renderInline } from '../../client/model/transcript.js';
import { toCatalog } from '../../client/model/mcpTree.js';
import { everythingConfig } from '../support/mcp-servers.js';

const AGENT = `nika: agent-demo
model: mock/echo
permits:
  exec: [node]
  tools: ["mcp:everything/echo", "nika:done"]
tasks:
  prep:
    exec: { command: [node, -e, "console.log('ready')"] }
  helper:
    with: { p: "\${{ tasks.prep.output }}" }
    agent:
      prompt: "Echo \${{ with.p }}"
      tools: ["mcp:everything/echo", "nika:done"]
      max_turns: 3
`;

test('an agent run through the editor pool folds into badges, an inline transcript and a readable log', { timeout: 60_000 }, async () => {
  const a = analyze(AGENT);
  assert.deepEqual(a.diagnostics.filter((d) => d.severity === 'error'), []);
  const everything = new McpPool({ everything: everythingConfig() });
  try {
    const pool = new MultiPool(() => [everything]);
    const run = createRun({ key: 'k', workflow: 'agent-demo', mode: 'workflow', taskIds: a.workflow.tasks.map((t) => t.id), startedAt: Date.now() });
    const fmt = new RunLogFormatter();
    let log = '';
    const h = startRun(a.workflow, { cwd: process.cwd(), mcpPool: pool, env: { ...process.env } });
    h.onEvent((ev: NikaEvent) => {
      applyEvent(run, ev);
      log += fmt.format(ev);
    });
    const result = await h.done;
    assert.equal(result.state, 'success', log);
    assert.equal(run.status, 'success');
    const helper = run.tasks.get('helper')!;
    assert.equal(helper.status, 'success');
    assert.ok(helper.transcript.some((e) => e.kind === 'tool_call' && e.tool === 'mcp:everything/echo'), JSON.stringify(helper.transcript));
    assert.ok(helper.transcript.some((e) => e.kind === 'tool_result' && !e.isError));
    assert.match(taskBadge(run, run.tasks.get('prep')!, Date.now())!.text, /^✓ \S+ · “ready”$/);
    const md = renderInline(run, helper);
    assert.match(md, /🔧 \*\*mcp:everything\/echo\*\*/);
    assert.match(log, /helper → mcp:everything\/echo/);
    assert.match(log, /✓ Workflow succeeded/);
    // The editor pool outlives the run: the server is still connected for the next one.
    const views = everything.status().map((s) => ({ name: s.name, state: s.status, tools: s.tools }));
    assert.equal(toCatalog(views).servers[0].status, 'connected');
  } finally {
    await everything.close();
  }
});
