// The split of a new version cut only around what changed. A keystroke changes one or two task
// slices of a document cut into hundreds: the new version's line starts and task slices are
// derived from the previous ones, and only the lines between the task keys around the change are
// read again. Whatever could move a cut elsewhere (a change outside the task slices, on the first
// task's key line, a new top-level key, a tab, a lone CR) gets undefined, and the caller cuts the
// whole text (split.ts), which gives the same slices.
import { taskLines, type Slice } from './split.js';

/** The previous version as cut: its text, line starts and task slices (contiguous, in order). */
export interface CutVersion {
  text: string;
  starts: readonly number[];
  taskCount: number;
  /** Start offset of task slice `i`; the slice ends where the next begins, the last at `tasksEnd`. */
  taskStart(i: number): number;
  tasksEnd: number;
  /** Column of the task keys. */
  indent: number;
}

/** How the incremental analyzer cut an analyzed version (Analysis.layout). */
export interface SliceLayout extends CutVersion {
  /** Top-level slices in order; the `tasks:` one (at `tasksAt`) holds its header only. */
  top: readonly Slice[];
  tasksAt: number;
  taskText(i: number): string;
  taskId(i: number): string;
}

export interface Recut {
  /** Line starts of the new text. */
  starts: number[];
  /** How far everything after the change moved. */
  delta: number;
  /** The old task slices [first, first + count) are replaced by `slices`; the others keep their text. */
  first: number;
  count: number;
  slices: Slice[];
}

/** Length of the common prefix of `a` and `b` (binary search over flat string compares). */
export function commonPrefix(a: string, b: string): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/** Length of the common suffix of `a` and `b`, at most `max`. */
export function commonSuffix(a: string, b: string, max: number): number {
  let lo = 0;
  let hi = Math.min(max, a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/** The last index i < n with at(i) ≤ x, for ascending at(0…n-1) (-1 when none). */
export function floorIndex(n: number, at: (i: number) => number, x: number): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid) <= x) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

export function recut(prev: CutVersion, text: string): Recut | undefined {
  const n = prev.taskCount;
  if (n === 0 || prev.indent <= 0) return undefined;
  const old = prev.text;
  const p = commonPrefix(old, text);
  const suffix = commonSuffix(old, text, Math.min(old.length, text.length) - p);
  const oldEnd = old.length - suffix;
  const newEnd = text.length - suffix;
  const delta = newEnd - oldEnd;
  // Characters that break lines for YAML or for the cut's regexes, or a lone CR made at the seams.
  const changed = text.slice(p, newEnd);
  if (changed.includes('\u2028') || changed.includes('\u2029') || changed.includes('\ufeff')) return undefined;
  if (/\r(?!\n)/.test(text.slice(Math.max(0, p - 1), Math.min(text.length, newEnd + 1)))) return undefined;

  // The task slices holding the first and the last changed character (or the insertion point).
  const startOf = (i: number) => prev.taskStart(i);
  const endOf = (i: number) => (i + 1 < n ? prev.taskStart(i + 1) : prev.tasksEnd);
  const atEnd = prev.tasksEnd === old.length;
  const slot = (x: number): number | undefined => {
    if (x < startOf(0)) return undefined;
    if (x < prev.tasksEnd) return floorIndex(n, startOf, x);
    return x === prev.tasksEnd && atEnd ? n - 1 : undefined;
  };
  let a = slot(p);
  let b = slot(oldEnd);
  // A change ending right where the next top-level key begins must leave that key at a line start.
  if (b === undefined && oldEnd === prev.tasksEnd && (newEnd === 0 || text.charCodeAt(newEnd - 1) === 10)) b = n - 1;
  if (a === undefined || b === undefined) return undefined;
  // Unless the change is past the end of its slice's key line, that key may have stopped being
  // one, and what follows it joins the slice above.
  const keyLineEnd = old.indexOf('\n', startOf(a));
  if (keyLineEnd < 0 || p <= keyLineEnd) a--;
  if (a < 0) return undefined; // the first task's key line sets the indentation of all of them

  // Line starts: unchanged up to the change, read again inside it, moved after it.
  const ps = prev.starts;
  const keep = floorIndex(ps.length, (i) => ps[i], p);
  const starts = ps.slice(0, keep + 1);
  for (let i = text.indexOf('\n', p); i >= 0 && i < newEnd; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  for (let i = floorIndex(ps.length, (k) => ps[k], oldEnd) + 1; i < ps.length; i++) starts.push(ps[i] + delta);

  const from = startOf(a);
  const to = endOf(b) + delta;
  const fromLine = floorIndex(starts.length, (i) => starts[i], from);
  const toLine = to >= text.length ? starts.length : floorIndex(starts.length, (i) => starts[i], to);
  if (starts[fromLine] !== from || (toLine < starts.length && starts[toLine] !== to)) return undefined;
  const cut = taskLines(text, starts, fromLine, toLine, prev.indent);
  if (!cut || cut.lines[0] !== fromLine) return undefined;
  const slices: Slice[] = [];
  for (let j = 0; j < cut.lines.length; j++) {
    const s = starts[cut.lines[j]];
    const e = j + 1 < cut.lines.length ? starts[cut.lines[j + 1]] : to;
    slices.push({ start: s, end: e, text: text.slice(s, e) });
  }
  return { starts, delta, first: a, count: b - a + 1, slices };
}
