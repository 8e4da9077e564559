// Seams inside the engine: the scheduler/verbs side (engine/run, engine/exec, engine/builtins)
// and the AI/MCP side (engine/ai, engine/mcp) meet only through these types.
import type { McpServerConfig } from '../core/ir.js';
import type { NikaEvent } from './events.js';

export interface Usage { input_tokens: number; output_tokens: number }

/** A tool as a model sees it: builtins with their argument schema, MCP tools with `inputSchema`. */
export interface ToolSchema {
  /** Full tool id: `nika:read`, `mcp:everything/echo`. */
  id: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A typed failure carrying a Nika code; everything the engine throws at a task is one of these. */
export class NikaError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly opts: { transient?: boolean; category?: string; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'NikaError';
  }
  get transient(): boolean { return this.opts.transient ?? false; }
  get category(): string { return this.opts.category ?? categoryOf(this.code); }
}

export function categoryOf(code: string): string {
  if (code.startsWith('NIKA-SEC') || code.startsWith('NIKA-AUTH')) return 'security_error';
  if (code.startsWith('NIKA-TIMEOUT')) return 'timeout_error';
  if (code.startsWith('NIKA-CANCEL')) return 'cancelled';
  if (code.startsWith('NIKA-EXEC')) return 'process_error';
  if (code.startsWith('NIKA-INFER') || code.startsWith('NIKA-PROVIDER')) return 'provider_error';
  if (code.startsWith('NIKA-AGENT-001') || code.startsWith('NIKA-AGENT-002')) return 'budget_error';
  if (code.startsWith('NIKA-MCP') || code.startsWith('NIKA-BUILTIN') || code.startsWith('NIKA-INVOKE')) return 'tool_error';
  if (code.startsWith('NIKA-VAR') || code.startsWith('NIKA-VALUES')) return 'variable_error';
  if (code.startsWith('NIKA-PARSE')) return 'parse_error';
  return 'validation_error';
}

/** What a verb implementation gets from the scheduler for one attempt of one task (or iteration). */
export interface VerbContext {
  runId: string;
  taskId: string;
  /** for_each iteration index. */
  index?: number;
  /** Aborted on cancel and on the task's timeout. */
  signal: AbortSignal;
  /** Emits an event; the scheduler stamps `ts` and `run_id` and redacts secrets. */
  emit(event: Omit<NikaEvent, 'ts' | 'run_id'> & { type: string }): void;
  /** Workflow default model (after `--model` override), used when the body has none. */
  defaultModel?: string;
  /** When set, replaces every model (offline rehearsal with `mock/echo`). */
  modelOverride?: string;
  /** Environment for provider keys and base URLs (process env plus editor-supplied keys). */
  env: Record<string, string | undefined>;
  /** Calls `nika:*` builtins and `mcp:<server>/<tool>` tools, enforcing permits. */
  callTool(toolId: string, args: Record<string, unknown>): Promise<unknown>;
  /** Schemas of every tool the patterns admit (globs, `!` negation), for agent tool lists. */
  listToolSchemas(patterns: string[]): Promise<ToolSchema[]>;
  cwd: string;
}

export interface McpToolInfo { name: string; description?: string; inputSchema: Record<string, unknown> }

/** What the engine needs from the MCP side; implemented by engine/mcp/pool.ts. */
export interface McpClientPool {
  listTools(server: string, signal?: AbortSignal): Promise<McpToolInfo[]>;
  callTool(server: string, tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs?: number }): Promise<unknown>;
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<unknown>;
  /** Servers known to the pool (configured, whether or not started). */
  servers(): Record<string, McpServerConfig>;
  /** Stops every started server and its process tree. Safe to call twice. */
  close(): Promise<void>;
}
