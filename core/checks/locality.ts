// Which checks are task-local: every finding they make, run on the envelope (the top-level keys
// other than `tasks:`) plus any subset of the tasks, is exactly their finding on the whole document
// for those tasks and the envelope. The incremental analyzer re-runs them on changed tasks only and
// keeps the other tasks' findings. A check left out is merely slower, never wrong.
import type { Check } from './index.js';

const TASK_LOCAL = new Set<string>();

/** Declares `check` task-local (see above); returns it unchanged. */
export function taskLocal<C extends Check>(check: C): C {
  TASK_LOCAL.add(check.name);
  return check;
}

export function isTaskLocal(check: Check): boolean {
  return TASK_LOCAL.has(check.name);
}
