// A task read from a slice that moved, as a copy: for views that must not disturb the cached task.
import type { Task } from '../ir.js';

/** A copy of a task read from a slice that moved (the values inside are shared, not copied). */
export function shiftedTask(t: Task, delta: number): Task {
  if (delta === 0) return t;
  return { ...t, span: { start: t.span.start + delta, end: t.span.end + delta }, idSpan: { start: t.idSpan.start + delta, end: t.idSpan.end + delta } };
}
