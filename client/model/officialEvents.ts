// Reading the official `nika run --json` NDJSON into our event type, so runs through the binary
// render in the same views. Two wire shapes exist (official-extension.md §3.2, §8.6):
//   current: {kind: "task_started", timestamp: <ns>, run, fields: [{key, value}, …]}
//   legacy v0.7: {kind: {type: "task_started", task_id, …}, timestamp_ms}
// Unknown kinds are dropped, never fatal.
import type { ErrorInfo, NikaEvent, TaskSummary } from '../../engine/events.js';

type Fields = Record<string, unknown>;

export function parseOfficialLine(line: string, runId: string): NikaEvent[] {
  const s = line.trim();
  if (!s.startsWith('{')) return [];
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(s) as Record<string, unknown>;
  } catch {
    return [];
  }
  let kind: string;
  let f: Fields;
  let ts: number;
  if (typeof raw.kind === 'string') {
    kind = raw.kind;
    f = {};
    if (Array.isArray(raw.fields)) {
      for (const e of raw.fields as Array<{ key?: string; value?: unknown }>) if (e && typeof e.key === 'string') f[e.key] = e.value;
    } else {
      Object.assign(f, raw);
    }
    ts = typeof raw.timestamp === 'number' ? Math.round(raw.timestamp / 1e6) : typeof raw.ts === 'number' ? raw.ts : Date.now();
  } else if (raw.kind && typeof raw.kind === 'object' && typeof (raw.kind as Fields).type === 'string') {
    f = raw.kind as Fields;
    kind = String(f.type);
    ts = typeof raw.timestamp_ms === 'number' ? raw.timestamp_ms : typeof raw.ts === 'number' ? raw.ts : Date.now();
  } else if (typeof raw.type === 'string') {
    // Our own CLI's `run --json` (same shape as the in-process events).
    return [raw as unknown as NikaEvent];
  } else {
    return [];
  }
  const run_id = typeof raw.run === 'string' ? raw.run : runId;
  const task_id = str(f.task_id ?? f.task);
  const base = { ts, run_id };
  const tb = task_id ? { ...base, task_id } : undefined;
  const n = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && !isNaN(Number(v)) ? Number(v) : undefined);
  switch (kind) {
    case 'workflow_started':
      return [{ ...base, type: 'workflow_started', workflow: str(f.workflow) ?? 'workflow', task_count: n(f.task_count) ?? 0, dialect: str(f.dialect) ?? 'v1' }];
    case 'task_scheduled':
      return tb ? [{ ...tb, type: 'task_scheduled', dependencies: Array.isArray(f.dependencies) ? f.dependencies.map(String) : [] }] : [];
    case 'task_started':
      return tb ? [{ ...tb, type: 'task_started', verb: str(f.verb) ?? '', attempt: n(f.attempt) ?? 1, model: str(f.model) }] : [];
    case 'task_retrying':
      return tb ? [{ ...tb, type: 'task_retrying', attempt: n(f.attempt) ?? 2, delay_ms: n(f.delay_ms) ?? 0, error: errorOf(f.error ?? f.detail ?? f.code) }] : [];
    case 'infer_chunk':
      return tb && typeof (f.text ?? f.chunk ?? f.delta) === 'string' ? [{ ...tb, type: 'infer_chunk', text: String(f.text ?? f.chunk ?? f.delta) }] : [];
    case 'agent_turn': {
      if (!tb) return [];
      const meta = (f.metadata ?? {}) as Fields;
      return [{ ...tb, type: 'agent_turn', turn: (n(f.turn ?? f.turn_index) ?? 0) + (f.turn_index !== undefined && f.turn === undefined ? 1 : 0), text: str(f.text ?? meta.text) ?? '', tokens_used: n(f.total_tokens ?? meta.tokens), stop_reason: str(f.stop_reason ?? meta.stop_reason) }];
    }
    case 'mcp_invoke':
      return tb ? [{ ...tb, type: 'agent_tool_call', turn: 0, call_id: String(f.call_id ?? ''), tool: `mcp:${str(f.mcp_server) ?? '?'}/${str(f.tool) ?? str(f.resource) ?? '?'}`, args: f.params }] : [];
    case 'mcp_response':
      return tb ? [{ ...tb, type: 'agent_tool_result', turn: 0, call_id: String(f.call_id ?? ''), tool: 'mcp', result: f.response ?? `${n(f.output_len) ?? 0} bytes`, is_error: f.is_error === true }] : [];
    case 'task_completed':
    case 'task_cache_hit':
      return tb ? [{ ...tb, type: 'task_completed', output: f.output ?? null, duration_ms: n(f.duration_ms) ?? 0, attempts: n(f.attempts) ?? 1 }] : [];
    case 'task_failed':
      return tb ? [{ ...tb, type: 'task_failed', error: errorOf(f.error ?? f.detail ?? f.code), duration_ms: n(f.duration_ms) ?? 0, attempts: n(f.attempts) ?? 1 }] : [];
    case 'task_skipped':
      return tb ? [{ ...tb, type: 'task_skipped', reason: str(f.reason ?? f.when ?? f.note) ?? 'skipped' }] : [];
    case 'task_cancelled':
      return tb ? [{ ...tb, type: 'task_cancelled', reason: str(f.reason ?? (f.blocked_by ? `blocked by ${String(f.blocked_by)}` : undefined)) ?? 'cancelled' }] : [];
    case 'task_recovered':
      return tb ? [{ ...tb, type: 'task_recovered', output: f.output ?? null, error: errorOf(f.error ?? f.code) }] : [];
    case 'workflow_completed':
    case 'workflow_failed':
    case 'workflow_cancelled':
    case 'workflow_aborted': {
      const type = kind === 'workflow_aborted' ? 'workflow_cancelled' : kind;
      const state = type === 'workflow_completed' ? 'success' : type === 'workflow_failed' ? 'failure' : 'cancelled';
      const tasks = (f.tasks && typeof f.tasks === 'object' ? f.tasks : {}) as Record<string, TaskSummary>;
      const error = type === 'workflow_failed' && (f.error ?? f.failed_task) ? errorOf(f.error ?? `task ${String(f.failed_task)} failed`) : undefined;
      return [{ ...base, type, state, tasks, duration_ms: n(f.duration_ms ?? f.total_duration_ms) ?? 0, error }];
    }
    default:
      return [];
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Errors arrive as strings with an embedded code, or as `{code, message}`. */
export function errorOf(v: unknown): ErrorInfo {
  if (v && typeof v === 'object') {
    const o = v as Fields;
    const message = str(o.message) ?? str(o.detail) ?? JSON.stringify(o);
    return { code: str(o.code) ?? /NIKA-[A-Z]+(?:-[A-Z]+)*-\d+/.exec(message)?.[0] ?? 'NIKA-RUN', message };
  }
  const message = v === undefined || v === null ? 'failed' : String(v);
  return { code: /NIKA-[A-Z]+(?:-[A-Z]+)*-\d+/.exec(message)?.[0] ?? 'NIKA-RUN', message };
}
