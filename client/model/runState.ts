// What the editor knows about one run, folded incrementally from the engine's event stream
// (or from the official binary's NDJSON, mapped to the same events). Every view — output
// channel, decorations, runs tree, transcripts — reads this one structure.
import type { ErrorInfo, NikaEvent, TaskSummary } from '../../engine/events.js';

export type TaskState = 'pending' | 'scheduled' | 'running' | 'retrying' | 'success' | 'failure' | 'skipped' | 'cancelled';
export type RunStatus = 'running' | 'success' | 'failure' | 'cancelled' | 'refused';
export type RunMode = 'workflow' | 'task' | 'upstream' | 'mock';

export type TranscriptEntry =
  | { kind: 'text'; turn: number; text: string }
  | { kind: 'tool_call'; turn: number; callId: string; tool: string; args: unknown }
  | { kind: 'tool_result'; turn: number; callId: string; tool: string; result: unknown; isError: boolean }
  | { kind: 'log'; level: string; message: string }
  | { kind: 'retry'; attempt: number; error: ErrorInfo };

export interface TaskRun {
  id: string;
  status: TaskState;
  verb?: string;
  model?: string;
  tool?: string;
  attempt: number;
  startedAt?: number;
  endedAt?: number;
  durationMs?: number;
  output?: unknown;
  hasOutput: boolean;
  error?: ErrorInfo;
  /** Why a task was skipped or cancelled. */
  reason?: string;
  /** The output came from `on_error: recover`. */
  recovered?: boolean;
  /** Streamed text not yet folded into a turn (infer: the whole answer so far). */
  streamed: string;
  transcript: TranscriptEntry[];
  turn: number;
  maxTurns?: number;
  tokensUsed?: number;
  maxTokensTotal?: number;
  usage?: { input_tokens: number; output_tokens: number };
  stopReason?: string;
  /** for_each progress, counted from events that carry an `index`. */
  iterations?: { started: number; done: number; failed: number };
  /** Bumped on every change, so throttled views can skip untouched tasks. */
  revision: number;
}

export interface RunView {
  /** Client-side id, unique for every attempt (also refused ones, which get no engine run id). */
  key: string;
  runId?: string;
  file?: string;
  workflow: string;
  mode: RunMode;
  /** The task a `task`/`upstream` run targets. */
  target?: string;
  backend: 'embedded' | 'official';
  status: RunStatus;
  startedAt: number;
  endedAt?: number;
  durationMs?: number;
  dialect?: string;
  tasks: Map<string, TaskRun>;
  /** Task ids in declaration order (tasks that never ran stay `pending`). */
  order: string[];
  error?: ErrorInfo;
  outputs?: Record<string, unknown>;
  revision: number;
}

export function createRun(init: {
  key: string; workflow: string; mode: RunMode; target?: string; file?: string;
  backend?: RunView['backend']; taskIds?: string[]; startedAt: number;
}): RunView {
  const run: RunView = {
    key: init.key, workflow: init.workflow, mode: init.mode, target: init.target, file: init.file,
    backend: init.backend ?? 'embedded', status: 'running', startedAt: init.startedAt,
    tasks: new Map(), order: [], revision: 0,
  };
  for (const id of init.taskIds ?? []) taskOf(run, id);
  return run;
}

/** A run the checks refused before anything started: it still shows in the runs view with its reason. */
export function refuseRun(run: RunView, error: ErrorInfo, at: number): void {
  run.status = 'refused';
  run.error = error;
  run.endedAt = at;
  run.durationMs = 0;
  run.revision++;
}

export function taskOf(run: RunView, id: string): TaskRun {
  let t = run.tasks.get(id);
  if (!t) {
    t = { id, status: 'pending', attempt: 0, hasOutput: false, streamed: '', transcript: [], turn: 0, revision: 0 };
    run.tasks.set(id, t);
    run.order.push(id);
  }
  return t;
}

export const TERMINAL: ReadonlySet<TaskState> = new Set(['success', 'failure', 'skipped', 'cancelled']);

/** Folds one event into the run; returns the id of the task it touched, if any. */
export function applyEvent(run: RunView, ev: NikaEvent): string | undefined {
  run.revision++;
  if (!run.runId && ev.run_id) run.runId = ev.run_id;
  switch (ev.type) {
    case 'workflow_started':
      run.dialect = ev.dialect;
      if (ev.workflow) run.workflow = ev.workflow;
      return undefined;
    case 'workflow_completed':
    case 'workflow_failed':
    case 'workflow_cancelled':
      finish(run, ev);
      return undefined;
  }
  const t = taskOf(run, ev.task_id);
  t.revision++;
  // for_each iterations report with an index; the task's own verdict comes without one.
  if (ev.index !== undefined) {
    foldIteration(t, ev);
    return t.id;
  }
  switch (ev.type) {
    case 'task_scheduled':
      if (t.status === 'pending') t.status = 'scheduled';
      break;
    case 'task_started':
      t.status = 'running';
      t.verb = ev.verb;
      t.model = ev.model ?? t.model;
      t.tool = ev.tool ?? t.tool;
      t.attempt = ev.attempt;
      t.startedAt ??= ev.ts;
      if (ev.attempt > 1) t.streamed = '';
      break;
    case 'infer_chunk':
      t.streamed += ev.text;
      if (t.status !== 'running' && !TERMINAL.has(t.status)) t.status = 'running';
      break;
    case 'agent_turn': {
      const text = ev.text || t.streamed;
      // The turn's words may already be in the transcript (flushed when its tool calls began).
      const already = t.transcript.some((e) => e.kind === 'text' && e.turn === ev.turn && e.text.trim() === text.trim());
      if (text && !already) t.transcript.push({ kind: 'text', turn: ev.turn, text });
      t.streamed = '';
      t.turn = Math.max(t.turn, ev.turn);
      if (ev.max_turns !== undefined) t.maxTurns = ev.max_turns;
      if (ev.max_tokens_total !== undefined) t.maxTokensTotal = ev.max_tokens_total;
      if (ev.usage) t.usage = ev.usage;
      if (ev.tokens_used !== undefined) t.tokensUsed = ev.tokens_used;
      else if (ev.usage) t.tokensUsed = (t.tokensUsed ?? 0) + ev.usage.input_tokens + ev.usage.output_tokens;
      if (ev.stop_reason) t.stopReason = ev.stop_reason;
      break;
    }
    case 'agent_tool_call':
      flushStream(t, ev.turn);
      t.transcript.push({ kind: 'tool_call', turn: ev.turn, callId: ev.call_id, tool: ev.tool, args: ev.args });
      break;
    case 'agent_tool_result':
      t.transcript.push({ kind: 'tool_result', turn: ev.turn, callId: ev.call_id, tool: ev.tool, result: ev.result, isError: ev.is_error });
      break;
    case 'task_log':
      t.transcript.push({ kind: 'log', level: ev.level, message: ev.message });
      break;
    case 'task_retrying':
      t.status = 'retrying';
      t.error = ev.error;
      t.streamed = '';
      t.transcript.push({ kind: 'retry', attempt: ev.attempt, error: ev.error });
      break;
    case 'task_completed':
      flushStream(t, t.turn);
      t.status = 'success';
      t.output = ev.output;
      t.hasOutput = true;
      t.error = undefined;
      t.durationMs = ev.duration_ms;
      t.attempt = ev.attempts;
      t.endedAt = ev.ts;
      if (ev.usage) t.usage = ev.usage;
      break;
    case 'task_failed':
      flushStream(t, t.turn);
      t.status = 'failure';
      t.error = ev.error;
      t.durationMs = ev.duration_ms;
      t.attempt = ev.attempts;
      t.endedAt = ev.ts;
      break;
    case 'task_skipped':
      t.status = 'skipped';
      t.reason = ev.reason;
      if (ev.error) t.error = ev.error;
      t.endedAt = ev.ts;
      break;
    case 'task_cancelled':
      t.status = 'cancelled';
      t.reason = ev.reason;
      t.endedAt = ev.ts;
      break;
    case 'task_recovered':
      t.status = 'success';
      t.recovered = true;
      t.output = ev.output;
      t.hasOutput = true;
      t.error = ev.error;
      t.endedAt = ev.ts;
      break;
  }
  if (t.endedAt !== undefined && t.durationMs === undefined && t.startedAt !== undefined) t.durationMs = t.endedAt - t.startedAt;
  return t.id;
}

function flushStream(t: TaskRun, turn: number): void {
  // Agents that stream emit chunks, then a tool call without a separate turn text: keep the words.
  if (t.verb === 'agent' && t.streamed) {
    t.transcript.push({ kind: 'text', turn, text: t.streamed });
    t.streamed = '';
  }
}

function foldIteration(t: TaskRun, ev: Extract<NikaEvent, { task_id: string }>): void {
  const it = (t.iterations ??= { started: 0, done: 0, failed: 0 });
  switch (ev.type) {
    case 'task_started':
      if (ev.attempt <= 1) it.started++;
      if (!TERMINAL.has(t.status)) t.status = 'running';
      t.verb ??= ev.verb;
      t.model ??= ev.model;
      t.tool ??= ev.tool;
      t.startedAt ??= ev.ts;
      break;
    case 'task_completed':
    case 'task_recovered':
    case 'task_skipped':
    case 'task_cancelled':
      it.done++;
      break;
    case 'task_failed':
      it.done++;
      it.failed++;
      break;
    case 'infer_chunk':
      t.streamed += ev.text;
      break;
    case 'agent_tool_call':
      t.transcript.push({ kind: 'tool_call', turn: ev.turn, callId: `${ev.index}:${ev.call_id}`, tool: ev.tool, args: ev.args });
      break;
    case 'agent_tool_result':
      t.transcript.push({ kind: 'tool_result', turn: ev.turn, callId: `${ev.index}:${ev.call_id}`, tool: ev.tool, result: ev.result, isError: ev.is_error });
      break;
    case 'agent_turn':
      if (ev.text || t.streamed) t.transcript.push({ kind: 'text', turn: ev.turn, text: `[${ev.index}] ${ev.text || t.streamed}` });
      t.streamed = '';
      break;
  }
}

function finish(run: RunView, ev: Extract<NikaEvent, { state: unknown }>): void {
  run.status = ev.state;
  run.endedAt = ev.ts;
  run.durationMs = ev.duration_ms;
  run.error = ev.error ?? run.error;
  run.outputs = ev.outputs;
  for (const [id, s] of Object.entries(ev.tasks ?? {})) mergeSummary(run, taskOf(run, id), s, ev.ts);
  // Anything the engine never settled (it stopped before them) is not "running" any more.
  for (const t of run.tasks.values()) {
    if (!TERMINAL.has(t.status) && t.status !== 'pending' && t.status !== 'scheduled') {
      t.status = 'cancelled';
      t.reason ??= ev.state === 'cancelled' ? 'run cancelled' : 'run ended';
      t.revision++;
    }
  }
}

function mergeSummary(run: RunView, t: TaskRun, s: TaskSummary, at: number): void {
  if (!s || typeof s !== 'object') return;
  t.revision++;
  if (s.status && s.status !== 'pending' && s.status !== 'running') t.status = s.status;
  if (s.output !== undefined && s.output !== null && !t.hasOutput) {
    t.output = s.output;
    t.hasOutput = true;
  }
  if (s.error) t.error = s.error;
  if (typeof s.duration_ms === 'number' && t.durationMs === undefined) t.durationMs = s.duration_ms;
  if (typeof s.attempts === 'number' && s.attempts > 0) t.attempt = s.attempts;
  if (TERMINAL.has(t.status)) t.endedAt ??= at;
  void run;
}

export function runningTaskCount(run: RunView): number {
  if (run.status !== 'running') return 0;
  let n = 0;
  for (const t of run.tasks.values()) if (t.status === 'running' || t.status === 'retrying') n++;
  return n;
}

/** Counts per terminal state, for summaries ("3 succeeded, 1 failed"). */
export function tally(run: RunView): Record<TaskState, number> {
  const c = { pending: 0, scheduled: 0, running: 0, retrying: 0, success: 0, failure: 0, skipped: 0, cancelled: 0 } as Record<TaskState, number>;
  for (const t of run.tasks.values()) c[t.status]++;
  return c;
}

export function firstError(run: RunView): { task?: string; error: ErrorInfo } | undefined {
  for (const id of run.order) {
    const t = run.tasks.get(id)!;
    if (t.status === 'failure' && t.error) return { task: id, error: t.error };
  }
  return run.error ? { error: run.error } : undefined;
}
