import type { NikaEvent } from '../events.js';
import type { Boundary } from '../permits.js';

/** An event before the scheduler stamps it (`ts`, `run_id`) and redacts it. */
export type EventInput = NikaEvent extends infer E ? (E extends NikaEvent ? Omit<E, 'ts' | 'run_id'> : never) : never;

export interface PromptRequest { message: string; mode: 'confirm' | 'input' | 'choice'; default?: unknown; choices?: string[]; taskId: string }

export interface BuiltinContext {
  runId: string;
  taskId: string;
  index?: number;
  /** Workflow directory: relative paths resolve against it. */
  cwd: string;
  boundary: Boundary;
  signal: AbortSignal;
  emit(event: EventInput): void;
  /** True when the call comes from an agent's tool loop (`nika:done` is legal there). */
  inAgent: boolean;
  /** Asks the operator; absent when the run is headless. */
  prompt?: (req: PromptRequest) => Promise<unknown>;
  /** Facts about the run for `nika:inspect`. */
  inspect?: (view: string) => unknown;
}

export type Builtin = (args: Record<string, unknown>, ctx: BuiltinContext) => Promise<unknown>;
