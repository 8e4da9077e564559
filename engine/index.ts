// The engine's public surface: start a run of a normalized workflow and follow its events.
// No `vscode` import anywhere below: the extension and the CLI both render the same stream.
import type { Workflow } from '../core/ir.js';
import { McpPool } from './mcp/pool.js';
import { Run } from './run/scheduler.js';
import type { RunHandle, RunOptions } from './run/types.js';

export type { RunHandle, RunOptions, RunResult } from './run/types.js';
export type { NikaEvent, TaskSummary, RunState, ErrorInfo } from './events.js';
export { resolveInputs, parseVarFlags } from './run/inputs.js';
export { NikaError } from './contracts.js';

export function startRun(workflow: Workflow, opts: RunOptions): RunHandle {
  // One copy per run: a run sees one environment throughout, and reading a plain object is
  // cheaper than process.env (a getenv per name) for every exec task's env floor.
  const env = opts.env ?? { ...process.env };
  const run = new Run(workflow, { ...opts, env }, (servers) => new McpPool(servers, { baseEnv: env }));
  // Start on the next tick so a caller can subscribe with onEvent before workflow_started.
  const done = new Promise<void>((r) => setImmediate(r)).then(() => run.execute());
  return {
    runId: run.runId,
    events: { [Symbol.asyncIterator]: () => run.channel.iterate() },
    onEvent: (listener) => run.channel.on(listener),
    cancel: (reason) => run.cancel(reason),
    done,
  };
}
