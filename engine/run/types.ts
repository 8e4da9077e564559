import type { McpServerConfig, Workflow } from '../../core/ir.js';
import type { McpClientPool } from '../contracts.js';
import type { ErrorInfo, NikaEvent, RunState, TaskSummary } from '../events.js';
import type { PromptRequest } from '../builtins/index.js';

export interface RunOptions {
  /** The workflow's directory: relative paths (exec cwd, file tools, file secrets) start here. */
  cwd: string;
  /** Path of the workflow file, for events and messages. */
  file?: string;
  /** Caller values (`--var`): undeclared keys and missing required inputs are refused; strings are coerced to the declared type. */
  inputs?: Record<string, unknown>;
  /** Replaces every model in the file (`mock/echo` = offline rehearsal). */
  modelOverride?: string;
  /**
   * Run one task and what it needs. Upstream tasks run first; with `withUpstream: false`, upstream
   * tasks whose records are in `reuse` (e.g. the previous run in the editor) are not run again and
   * their recorded outputs are used. `withUpstream: true` always re-runs the whole upstream.
   * Unwind cleanups of the tasks that run are included; downstream tasks are not.
   */
  only?: { task: string; withUpstream: boolean };
  /** Settled records of an earlier run, used by `only` without upstream. */
  reuse?: Record<string, TaskSummary>;
  /** How many tasks run at once (default: no limit). for_each iterations have their own `max_parallel`. */
  maxParallel?: number;
  /** Environment for provider keys, secrets (`source: env`) and the child env floor. Default: process.env. */
  env?: Record<string, string | undefined>;
  /** MCP servers merged from every source; defaults to the workflow's own `mcp:` block. */
  mcpServers?: Record<string, McpServerConfig>;
  /** A pool to reuse (the editor's); otherwise the run starts one on demand and stops it at the end. */
  mcpPool?: McpClientPool;
  signal?: AbortSignal;
  /** Answers `nika:prompt`; absent = headless (the prompt's `default`, or NIKA-BUILTIN-PROMPT-001). */
  prompt?: (req: PromptRequest) => Promise<unknown>;
  /** Grace period between SIGTERM and SIGKILL for child process groups (ms, default 2000). */
  killGraceMs?: number;
}

export interface RunResult {
  run_id: string;
  state: RunState;
  tasks: Record<string, TaskSummary>;
  outputs: Record<string, unknown>;
  duration_ms: number;
  error?: ErrorInfo;
}

export interface RunHandle {
  runId: string;
  events: AsyncIterable<NikaEvent>;
  /** Listener for every event; returns an unsubscribe function. */
  onEvent(listener: (e: NikaEvent) => void): () => void;
  /** First call: stop gracefully (children get SIGTERM, unwind cleanups still run). Second call: stop the cleanups too. */
  cancel(reason?: string): void;
  done: Promise<RunResult>;
}

export type { Workflow };
