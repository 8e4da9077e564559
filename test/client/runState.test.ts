import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NikaEvent } from '../../engine/events.js';
import { applyEvent, createRun, firstError, runningTaskCount } from '../../client/model/runState.js';
import { RunLogFormatter } from '../../client/model/runLog.js';

const R = 'run-1';
let clock = 1000;
// Events as the engine writes them; `ts` advances so durations are observable.
function ev<T extends NikaEvent['type']>(type: T, rest: Record<string, unknown> = {}): NikaEvent {
  clock += 100;
  return { type, ts: clock, run_id: R, ...rest } as unknown as NikaEvent;
}

function agentRun(): NikaEvent[] {
  return [
    ev('workflow_started', { workflow: 'research', task_count: 2, dialect: 'v1' }),
    ev('task_started', { task_id: 'fetch', verb: 'exec', attempt: 1 }),
    ev('task_completed', { task_id: 'fetch', output: 'page text', duration_ms: 120, attempts: 1 }),
    ev('task_started', { task_id: 'agent', verb: 'agent', attempt: 1, model: 'mock/echo' }),
    ev('infer_chunk', { task_id: 'agent', text: 'Let me ' }),
    ev('infer_chunk', { task_id: 'agent', text: 'look.' }),
    ev('agent_tool_call', { task_id: 'agent', turn: 1, call_id: 'c1', tool: 'mcp:everything/echo', args: { message: 'hi' } }),
    ev('agent_tool_result', { task_id: 'agent', turn: 1, call_id: 'c1', tool: 'mcp:everything/echo', result: { content: [{ type: 'text', text: 'Echo: hi' }] }, is_error: false }),
    ev('agent_turn', { task_id: 'agent', turn: 1, text: '', tokens_used: 300, max_turns: 5, max_tokens_total: 10000 }),
    ev('agent_turn', { task_id: 'agent', turn: 2, text: 'The answer is 42.', tokens_used: 520, max_turns: 5 }),
    ev('task_completed', { task_id: 'agent', output: 'The answer is 42.', duration_ms: 900, attempts: 1 }),
  ];
}

test('a run folds task states, outputs and the agent transcript in order', () => {
  const run = createRun({ key: 'k1', workflow: 'research', mode: 'workflow', taskIds: ['fetch', 'agent', 'unused'], startedAt: 1000 });
  for (const e of agentRun()) applyEvent(run, e);
  assert.equal(run.runId, R);
  assert.equal(run.tasks.get('fetch')!.status, 'success');
  assert.equal(run.tasks.get('fetch')!.output, 'page text');
  const agent = run.tasks.get('agent')!;
  assert.equal(agent.status, 'success');
  assert.equal(agent.turn, 2);
  assert.equal(agent.tokensUsed, 520);
  assert.equal(agent.maxTurns, 5);
  // The streamed words before the tool call survive as the first turn's text.
  assert.deepEqual(agent.transcript.map((e) => e.kind), ['text', 'tool_call', 'tool_result', 'text']);
  assert.equal((agent.transcript[0] as { text: string }).text, 'Let me look.');
  assert.equal(agent.streamed, '');
  assert.equal(run.tasks.get('unused')!.status, 'pending');
  assert.equal(runningTaskCount(run), 2 - 2);
});

test('the final summary settles tasks the stream never finished and marks the run', () => {
  const run = createRun({ key: 'k', workflow: 'w', mode: 'workflow', taskIds: ['a', 'b'], startedAt: 0 });
  applyEvent(run, ev('task_started', { task_id: 'a', verb: 'exec', attempt: 1 }));
  assert.equal(runningTaskCount(run), 1);
  applyEvent(run, ev('workflow_failed', {
    state: 'failure', duration_ms: 50,
    tasks: {
      a: { status: 'failure', output: null, error: { code: 'NIKA-EXEC-001', message: 'exit 2' }, attempts: 1, duration_ms: 40 },
      b: { status: 'cancelled', output: null, error: null, attempts: 0, duration_ms: 0 },
    },
  }));
  assert.equal(run.status, 'failure');
  assert.equal(run.tasks.get('a')!.status, 'failure');
  assert.equal(run.tasks.get('b')!.status, 'cancelled');
  assert.equal(firstError(run)!.error.code, 'NIKA-EXEC-001');
  assert.equal(runningTaskCount(run), 0);
});

test('for_each iterations count progress without settling the task early', () => {
  const run = createRun({ key: 'k', workflow: 'w', mode: 'workflow', startedAt: 0 });
  applyEvent(run, ev('task_started', { task_id: 'each', index: 0, verb: 'infer', attempt: 1 }));
  applyEvent(run, ev('task_started', { task_id: 'each', index: 1, verb: 'infer', attempt: 1 }));
  applyEvent(run, ev('task_completed', { task_id: 'each', index: 0, output: 'x', duration_ms: 1, attempts: 1 }));
  const t = run.tasks.get('each')!;
  assert.equal(t.status, 'running');
  assert.deepEqual(t.iterations, { started: 2, done: 1, failed: 0 });
  applyEvent(run, ev('task_completed', { task_id: 'each', output: ['x', 'y'], duration_ms: 10, attempts: 1 }));
  assert.equal(t.status, 'success');
  assert.deepEqual(t.output, ['x', 'y']);
});

test('a retry clears the half-streamed text of the failed attempt', () => {
  const run = createRun({ key: 'k', workflow: 'w', mode: 'workflow', startedAt: 0 });
  applyEvent(run, ev('task_started', { task_id: 'a', verb: 'infer', attempt: 1 }));
  applyEvent(run, ev('infer_chunk', { task_id: 'a', text: 'partial' }));
  applyEvent(run, ev('task_retrying', { task_id: 'a', attempt: 2, delay_ms: 1000, error: { code: 'NIKA-PROVIDER-003', message: 'rate limited' } }));
  const t = run.tasks.get('a')!;
  assert.equal(t.status, 'retrying');
  assert.equal(t.streamed, '');
  applyEvent(run, ev('task_started', { task_id: 'a', verb: 'infer', attempt: 2 }));
  applyEvent(run, ev('infer_chunk', { task_id: 'a', text: 'whole answer' }));
  assert.equal(t.streamed, 'whole answer');
});

test('the output channel text streams chunks under a task header and keeps interleaved tasks apart', () => {
  const f = new RunLogFormatter();
  let out = '';
  out += f.format(ev('task_started', { task_id: 'a', verb: 'infer', attempt: 1, model: 'mock/echo' }));
  out += f.format(ev('infer_chunk', { task_id: 'a', text: 'Hello ' }));
  out += f.format(ev('infer_chunk', { task_id: 'a', text: 'wor' }));
  out += f.format(ev('infer_chunk', { task_id: 'b', text: 'Bonjour' }));
  out += f.format(ev('infer_chunk', { task_id: 'a', text: 'ld\nsecond line' }));
  out += f.format(ev('task_completed', { task_id: 'a', output: 'Hello world\nsecond line', duration_ms: 1500, attempts: 1 }));
  assert.equal(out, [
    '● a started (infer · mock/echo)',
    '  a ›',
    '  │ Hello wor',
    '  b ›',
    '  │ Bonjour',
    '  a ›',
    '  │ ld',
    '  │ second line',
    '✓ a 1.5s · Hello world second line',
    '',
  ].join('\n'));
});

test('the output channel shows tool calls, failures and a closing summary with the error code', () => {
  const f = new RunLogFormatter();
  const text = [
    f.format(ev('agent_tool_call', { task_id: 'ag', turn: 1, call_id: 'c', tool: 'nika:read', args: { path: 'a.txt' } })),
    f.format(ev('agent_tool_result', { task_id: 'ag', turn: 1, call_id: 'c', tool: 'nika:read', result: 'denied', is_error: true })),
    f.format(ev('agent_turn', { task_id: 'ag', turn: 1, text: 'I could not read it.', tokens_used: 42, max_turns: 3 })),
    f.format(ev('task_failed', { task_id: 'ag', error: { code: 'NIKA-AGENT-001', message: 'max_turns reached' }, duration_ms: 20, attempts: 1 })),
    f.format(ev('workflow_failed', { state: 'failure', duration_ms: 30, tasks: { ag: { status: 'failure', output: null, error: null, attempts: 1, duration_ms: 20 } } })),
  ].join('');
  assert.match(text, /ag → nika:read \{"path":"a.txt"\}/);
  assert.match(text, /ag ← nika:read ✗ error: denied/);
  assert.match(text, /│ I could not read it\./);
  assert.match(text, /turn 1\/3 · 42 tokens/);
  assert.match(text, /✗ ag 20ms · NIKA-AGENT-001: max_turns reached/);
  assert.match(text, /✗ Workflow failed in 30ms · 1 failed/);
});
