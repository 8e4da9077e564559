// The typed event stream (design.md, "Events"). The CLI prints it (human or NDJSON) and the
// extension renders it; names match the official engine's where they overlap.

export type TaskStatus = 'pending' | 'running' | 'success' | 'failure' | 'skipped' | 'cancelled';
export type RunState = 'success' | 'failure' | 'cancelled';

export interface ErrorInfo { code: string; message: string; category?: string; transient?: boolean }

export interface TaskSummary {
  status: TaskStatus;
  output: unknown;
  error: ErrorInfo | null;
  attempts: number;
  duration_ms: number;
}

interface Base { ts: number; run_id: string }
interface TaskBase extends Base { task_id: string; index?: number }

export type NikaEvent =
  | (Base & { type: 'workflow_started'; workflow: string; file?: string; task_count: number; dialect: string })
  | (TaskBase & { type: 'task_scheduled'; dependencies: string[] })
  | (TaskBase & { type: 'task_started'; verb: string; attempt: number; model?: string; tool?: string })
  | (TaskBase & { type: 'infer_chunk'; text: string })
  | (TaskBase & { type: 'agent_turn'; turn: number; text: string; usage?: { input_tokens: number; output_tokens: number }; tokens_used?: number; max_turns?: number; max_tokens_total?: number; stop_reason?: string })
  | (TaskBase & { type: 'agent_tool_call'; turn: number; call_id: string; tool: string; args: unknown })
  | (TaskBase & { type: 'agent_tool_result'; turn: number; call_id: string; tool: string; result: unknown; is_error: boolean })
  | (TaskBase & { type: 'task_log'; level: string; message: string; data?: unknown })
  | (TaskBase & { type: 'task_retrying'; attempt: number; delay_ms: number; error: ErrorInfo })
  | (TaskBase & { type: 'task_completed'; output: unknown; duration_ms: number; attempts: number; usage?: { input_tokens: number; output_tokens: number } })
  | (TaskBase & { type: 'task_failed'; error: ErrorInfo; duration_ms: number; attempts: number })
  | (TaskBase & { type: 'task_skipped'; reason: string; error?: ErrorInfo | null })
  | (TaskBase & { type: 'task_cancelled'; reason: string })
  | (TaskBase & { type: 'task_recovered'; output: unknown; error: ErrorInfo })
  | (Base & { type: 'workflow_completed' | 'workflow_failed' | 'workflow_cancelled'; state: RunState; tasks: Record<string, TaskSummary>; outputs?: Record<string, unknown>; duration_ms: number; error?: ErrorInfo });

export type NikaEventType = NikaEvent['type'];
