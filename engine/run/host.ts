import type { Workflow } from '../../core/ir.js';
import type { EvalScope } from '../../core/expr/index.js';
import type { EventInput } from '../builtins/types.js';
import type { Boundary } from '../permits.js';
import type { ToolCallContext } from '../tools.js';

/** What executing one task needs from its run. */
export interface TaskHost {
  runId: string;
  wf: Workflow;
  cwd: string;
  env: Record<string, string | undefined>;
  boundary: Boundary;
  defaultModel?: string;
  modelOverride?: string;
  killGraceMs?: number;
  emit(e: EventInput): void;
  /** inputs, const, secrets, settled task records and groups (plus vars/env in draft files). */
  baseScope(): EvalScope;
  toolContext(o: { taskId: string; index?: number; signal: AbortSignal; inAgent: boolean; timeoutMs?: number }): ToolCallContext;
}
