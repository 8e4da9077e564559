// Per-task memoization for whole-document checks. A check that looks at every task splits into a
// per-task part (facts about one task, read from that task and the envelope alone) and a cheap
// pass over those facts. Under the incremental analyzer the per-task part is computed again only
// for tasks whose text changed; a full analysis simply computes it.
//
// Rules for `compute`: read only `task`, its YAML and its expression sites, and the envelope (the
// top-level keys other than `tasks:`). Anything read from other tasks must be folded into `key`.
// The value may hold spans inside the task (they move with it) but no objects of other tasks.
import type { Task } from '../ir.js';
import type { CheckContext } from './context.js';

/** One task's memo table (check name → the key it was computed for, and the value). */
export type TaskMemoTable = Map<string, { key: string; value: unknown }>;

export interface TaskMemo {
  table(task: Task): TaskMemoTable | undefined;
  /** Called after a value is stored: the task's cached offsets must include it. */
  stored(task: Task): void;
}

export function perTask<V>(ctx: CheckContext, task: Task, name: string, compute: () => V, key = ''): V {
  const memo = ctx.memo;
  const table = memo?.table(task);
  if (!table) return compute();
  const hit = table.get(name);
  if (hit && hit.key === key) return hit.value as V;
  const value = compute();
  table.set(name, { key, value });
  memo!.stored(task);
  return value;
}
