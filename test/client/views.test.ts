import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NikaEvent } from '../../engine/events.js';
import { applyEvent, createRun, refuseRun } from '../../client/model/runState.js';
import { taskBadge } from '../../client/model/decorations.js';
import { runRow, taskRow } from '../../client/model/runsTree.js';
import { renderInline, renderTaskDocument } from '../../client/model/transcript.js';
import { statusView } from '../../client/model/status.js';

let clock = 10_000;
const ev = (type: string, rest: Record<string, unknown>): NikaEvent => ({ type, ts: (clock += 100), run_id: 'r', ...rest }) as unknown as NikaEvent;

function sample() {
  clock = 10_000;
  const run = createRun({ key: 'k', workflow: 'demo', mode: 'workflow', taskIds: ['ok', 'bad', 'agent', 'later'], startedAt: 10_000 });
  applyEvent(run, ev('task_started', { task_id: 'ok', verb: 'infer', attempt: 1 }));
  applyEvent(run, ev('task_completed', { task_id: 'ok', output: 'Bonjour le monde, ceci est une phrase plutôt longue qui ne tient pas sur une ligne', duration_ms: 1234, attempts: 1 }));
  applyEvent(run, ev('task_started', { task_id: 'bad', verb: 'exec', attempt: 1 }));
  applyEvent(run, ev('task_failed', { task_id: 'bad', error: { code: 'NIKA-EXEC-001', message: 'exit code 1' }, duration_ms: 400, attempts: 1 }));
  applyEvent(run, ev('task_started', { task_id: 'agent', verb: 'agent', attempt: 1, model: 'mock/echo' }));
  applyEvent(run, ev('agent_tool_call', { task_id: 'agent', turn: 1, call_id: 'c1', tool: 'mcp:everything/echo', args: { message: 'hi' } }));
  applyEvent(run, ev('agent_tool_result', { task_id: 'agent', turn: 1, call_id: 'c1', tool: 'mcp:everything/echo', result: { content: [{ type: 'text', text: 'Echo: hi' }] }, is_error: false }));
  applyEvent(run, ev('agent_turn', { task_id: 'agent', turn: 1, text: 'Calling echo', tokens_used: 1500, max_turns: 4, max_tokens_total: 20000 }));
  applyEvent(run, ev('infer_chunk', { task_id: 'agent', text: 'The echo said hi' }));
  return run;
}

test('badges: duration and quoted short output for a success, code for a failure, live budget for a running agent', () => {
  const run = sample();
  const ok = taskBadge(run, run.tasks.get('ok')!, clock, 30)!;
  assert.equal(ok.tone, 'success');
  assert.equal(ok.text, '✓ 1.2s · “Bonjour le monde, ceci est un…”');
  assert.match(ok.hover, /ne tient pas sur une ligne/);
  const bad = taskBadge(run, run.tasks.get('bad')!, clock)!;
  assert.equal(bad.tone, 'failure');
  assert.equal(bad.text, '✗ 400ms · NIKA-EXEC-001 exit code 1');
  const agent = taskBadge(run, run.tasks.get('agent')!, clock)!;
  assert.equal(agent.tone, 'running');
  assert.match(agent.text, /^⟳ running \d+ms · turn 1\/4 · 1,500\/20,000 tokens · “The echo said hi”$/);
  assert.equal(taskBadge(run, run.tasks.get('later')!, clock)!.text, '◌ waiting');
});

test('badges disappear for tasks a finished run never reached', () => {
  const run = sample();
  applyEvent(run, ev('workflow_failed', { state: 'failure', duration_ms: 900, tasks: {} }));
  assert.equal(taskBadge(run, run.tasks.get('later')!, clock), undefined);
  // The agent was running when the run ended: it is shown as cancelled, not spinning forever.
  assert.equal(taskBadge(run, run.tasks.get('agent')!, clock)!.tone, 'cancelled');
});

test('runs tree: a run row carries progress while running and the first error code after', () => {
  const run = sample();
  const live = runRow(run, clock);
  assert.equal(live.icon.id, 'sync~spin');
  assert.equal(live.contextValue, 'nikaRun.running');
  assert.match(live.description, /^2\/4 · /);
  applyEvent(run, ev('workflow_failed', { state: 'failure', duration_ms: 2100, tasks: {} }));
  const done = runRow(run, clock);
  assert.equal(done.icon.id, 'error');
  assert.equal(done.contextValue, 'nikaRun.done');
  assert.match(done.description, /^2\.1s · NIKA-EXEC-001 · \d\d:\d\d:\d\d$/);
  assert.match(done.tooltip, /1 succeeded · 1 failed/);
});

test('runs tree: task rows show status icon, duration and error code', () => {
  const run = sample();
  const bad = taskRow(run, run.tasks.get('bad')!, clock);
  assert.deepEqual(bad.icon, { id: 'error', color: 'testing.iconFailed' });
  assert.equal(bad.description, '400ms · NIKA-EXEC-001');
  const ok = taskRow(run, run.tasks.get('ok')!, clock);
  assert.equal(ok.icon.id, 'pass');
  assert.match(ok.description, /^1\.2s · Bonjour/);
  assert.equal(taskRow(run, run.tasks.get('later')!, clock).description, 'waiting');
});

test('a refused run says why in its row', () => {
  const run = createRun({ key: 'k2', workflow: 'broken', mode: 'workflow', startedAt: 0 });
  refuseRun(run, { code: 'NIKA-PARSE-005', message: '1 error: NIKA-PARSE-005' }, 0);
  const row = runRow(run, 0);
  assert.equal(row.icon.id, 'warning');
  assert.match(row.description, /^refused · NIKA-PARSE-005/);
});

test('inline transcript: budget line, tool call with its arguments, result text and the live tail', () => {
  const run = sample();
  const md = renderInline(run, run.tasks.get('agent')!);
  assert.match(md, /^\*\*agent\*\* `agent` · running · turn 1\/4 · 1,500\/20,000 tokens · `mock\/echo`/);
  assert.match(md, /🔧 \*\*mcp:everything\/echo\*\*\n```json\n\{\n  "message": "hi"\n\}\n```/);
  assert.match(md, /↩ \*\*result of\*\* mcp:everything\/echo\n```json\n"Echo: hi"\n```/);
  assert.match(md, /\*\*Turn 1\*\*\n\nCalling echo/);
  assert.match(md, /The echo said hi ▍$/);
});

test('inline transcript keeps the final answer after completion and folds older entries', () => {
  const run = sample();
  applyEvent(run, ev('agent_turn', { task_id: 'agent', turn: 2, text: '', tokens_used: 1800 }));
  applyEvent(run, ev('task_completed', { task_id: 'agent', output: { verdict: 'hi' }, duration_ms: 900, attempts: 1 }));
  const md = renderInline(run, run.tasks.get('agent')!, { maxEntries: 2 });
  assert.match(md, /… 2 earlier entries/);
  assert.match(md, /✅ \*\*Answer\*\*\n\n```json\n\{\n  "verdict": "hi"\n\}\n```/);
  assert.doesNotMatch(md, /▍/);
});

test('the task document has the full output, error and transcript; fences survive backticks in output', () => {
  const run = sample();
  applyEvent(run, ev('task_completed', { task_id: 'agent', output: 'use ```code``` here', duration_ms: 900, attempts: 1 }));
  const doc = renderTaskDocument(run, run.tasks.get('agent')!);
  assert.match(doc, /^# agent\n/);
  assert.match(doc, /## Output\n\n````\nuse ```code``` here\n````/);
  assert.match(doc, /## Transcript/);
  const bad = renderTaskDocument(run, run.tasks.get('bad')!);
  assert.match(bad, /## Error\n\n\*\*NIKA-EXEC-001\*\*: exit code 1/);
});

test('status bar: running work offers cancel, a dead server offers restart, restricted mode says so', () => {
  const busy = statusView({ trusted: true, server: 'running', runningRuns: 1, runningTasks: 2 });
  assert.equal(busy.command, 'cancel');
  assert.equal(busy.text, '$(sync~spin) Nika: 2 tasks');
  assert.equal(statusView({ trusted: true, server: 'failed', runningRuns: 0, runningTasks: 0 }).command, 'restart');
  const restricted = statusView({ trusted: false, server: 'running', runningRuns: 0, runningTasks: 0 });
  assert.match(restricted.tooltip, /Restricted mode/);
  assert.equal(restricted.text, '$(shield) Nika');
});

test('an infer task streams its text live, then shows it once as the answer', () => {
  const run = createRun({ key: 'i', workflow: 'w', mode: 'workflow', startedAt: 0 });
  applyEvent(run, ev('task_started', { task_id: 's', verb: 'infer', attempt: 1, model: 'mock/echo' }));
  applyEvent(run, ev('infer_chunk', { task_id: 's', text: 'Hello ' }));
  applyEvent(run, ev('infer_chunk', { task_id: 's', text: 'there' }));
  assert.match(renderInline(run, run.tasks.get('s')!), /\n\nHello there ▍$/);
  applyEvent(run, ev('task_completed', { task_id: 's', output: 'Hello there', duration_ms: 10, attempts: 1 }));
  const md = renderInline(run, run.tasks.get('s')!);
  assert.equal(md.split('Hello there').length - 1, 1);
  assert.match(md, /✅ \*\*Answer\*\*\n\nHello there$/);
});
