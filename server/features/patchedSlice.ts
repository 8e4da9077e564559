// The patched document of cursorContext without parsing it whole. The patched text is cut into
// slices (core/incremental/split), and only the slice holding the cursor line is parsed, plus the
// small top-level ones; the other tasks come from the analysis of the unpatched text, which
// differs from the patched one only inside the cursor's slice. That reuse is taken only when the
// analysis demonstrably has the same shape outside that slice (same top-level keys and task keys
// at the same places, nothing spilling over a cut); anything else returns a reason and the caller
// parses the patched text whole.
import { Document, isMap, Pair, YAMLMap } from 'yaml';
import type { Node } from 'yaml';
import type { Analysis } from '../../core/analyze.js';
import { detectDialect, type DialectInfo } from '../../core/dialect.js';
import { keyName, MAX_DOCUMENT_BYTES, utf8Length, type NikaDocument } from '../../core/document.js';
import { nextOf, PARSE_OPTIONS, parseSlice, parseTaskInPlace, rangeOf, startOf, type NextPair, type ParsedSlice } from '../../core/incremental/parse.js';
import { splitDocument, taskLines, type Slice } from '../../core/incremental/split.js';
import { floorIndex, type SliceLayout } from '../../core/incremental/resplit.js';
import { shiftedTask } from '../../core/incremental/shift.js';
import type { Task, Workflow } from '../../core/ir.js';
import { normalize } from '../../core/normalize.js';
import { LineIndex } from '../../core/text.js';

export interface PatchedView {
  /**
   * The patched document seen through a root holding every top-level pair, where `tasks:` holds
   * only the cursor's task: locate() finds the same path, parent and chain there as in the whole
   * parse, because no other task's range can contain an offset of the cursor's slice.
   */
  doc: NikaDocument;
  dialect: DialectInfo;
  workflow: Workflow;
  /** The map standing in for `tasks:` in `doc` (its keys are not all the task ids). */
  tasksMap?: YAMLMap<unknown, unknown>;
  /** Every task id of the patched text, in order (what the whole `tasks:` map's keys are). */
  taskIds: string[];
}

/** How many views were built straight from the analyzer's cut, and how many of those read the cursor's task in place (tests check these ways are taken). */
export const patchedViewStats = { byLayout: 0, inPlace: 0 };

/** Where a node ends (value end), without allocating a span. */
function endOf(node: unknown): number | undefined {
  return rangeOf(node)?.[1];
}

/** Whether `text` holds the plain key `name` at `at`, ended by the key's `:` or spaces. */
function keyTextAt(text: string, at: number, name: string | undefined): boolean {
  if (name === undefined || !text.startsWith(name, at)) return false;
  const next = text.charCodeAt(at + name.length);
  return next === 58 /* : */ || next === 32;
}

// Parsed top-level slices by offset and text: they rarely change between two completions (the
// nodes are only read, never changed, so a view may share them with an earlier one). Small ones
// only, and a few: a slice that moves with every keystroke would fill it with copies.
const topCache = new Map<string, ParsedSlice>();
function parseTop(slice: Slice): ParsedSlice | undefined {
  const cacheable = slice.text.length <= 16_384;
  const key = cacheable ? `${slice.start}\u0000${slice.text}` : '';
  const hit = cacheable ? topCache.get(key) : undefined;
  if (hit) return hit;
  const p = parseSlice(slice);
  if (!p || !cacheable) return p;
  if (topCache.size >= 32) topCache.clear();
  topCache.set(key, p);
  return p;
}

/** The patched text's line starts from the unpatched one's (the patched line has no break). */
function patchedLineStarts(starts: readonly number[], lineStart: number, delta: number): number[] | undefined {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= lineStart) lo = mid; else hi = mid - 1;
  }
  if (starts[lo] !== lineStart) return undefined;
  const out = new Array<number>(starts.length);
  for (let i = 0; i <= lo; i++) out[i] = starts[i];
  for (let i = lo + 1; i < starts.length; i++) out[i] = starts[i] + delta;
  return out;
}

/**
 * `patched` is `analysis.doc.text` with one line changed, the line starting at `lineStart`
 * (`lineStarts`, when given, are the unpatched text's). Returns the view, or why it could not be
 * built.
 */
export function patchedView(patched: string, lineStart: number, analysis: Analysis, lineStarts?: readonly number[], patchedLine?: string): PatchedView | string {
  const original = analysis.doc;
  if (original.tooLarge || !original.root || !original.yaml) return 'no analyzed root';
  if (analysis.dialectInfo.dialect !== 'v1') return `dialect ${analysis.dialectInfo.dialect}`;
  if (patched.length > MAX_DOCUMENT_BYTES / 4 && utf8Length(patched) > MAX_DOCUMENT_BYTES) return 'too large';
  if (patchedLine !== undefined && analysis.layout) {
    const fast = taskView(patched, lineStart, patchedLine, analysis, analysis.layout);
    if (fast) {
      if (typeof fast !== 'string') patchedViewStats.byLayout++;
      return fast;
    }
  }
  const delta = patched.length - original.text.length;
  const split = splitDocument(patched, lineStarts && patchedLineStarts(lineStarts, lineStart, delta));
  if (!split) return 'no clean split';

  // The slice holding the patched line: a top-level one or a task.
  let cTop = split.top.findIndex((s) => s.start <= lineStart && lineStart < s.end);
  let cTask = -1;
  if (cTop < 0) {
    let lo = 0;
    let hi = split.tasks.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = split.tasks[mid];
      if (lineStart < s.start) hi = mid - 1;
      else if (lineStart >= s.end) lo = mid + 1;
      else { cTask = mid; break; }
    }
    if (cTask < 0) return 'cursor outside every slice';
  } else if (cTop === split.tasksAt) {
    return 'cursor in the tasks: header';
  }
  const c: Slice = cTop >= 0 ? split.top[cTop] : split.tasks[cTask];
  // Offsets outside the cursor's slice: the same before it, moved by `delta` after it.
  const cEndT = c.end - delta;
  if (cEndT < c.start || patched.slice(0, c.start) !== original.text.slice(0, c.start) || patched.slice(c.end) !== original.text.slice(cEndT)) {
    return 'patch outside the slice';
  }
  const inC = (t: number) => t >= c.start && t < cEndT;
  const toT = (p: number) => (p >= c.end ? p - delta : p);
  // A value may end as late as the next slice's key (error recovery ends it there), not later.
  const nextKey = (end: number) => {
    let k = end;
    while (patched.charCodeAt(k) === 32) k++;
    return toT(k);
  };
  // YAML errors of the unpatched text are only allowed where the patch may mend them.
  for (const d of original.parseDiagnostics) if (!inC(d.span.start)) return 'YAML errors outside the cursor slice';

  // The small top-level slices are parsed; the cursor's one last (it may be large).
  const top: Array<ParsedSlice | undefined> = [];
  for (let i = 0; i < split.top.length; i++) {
    if (i === cTop) { top.push(undefined); continue; }
    const p = parseTop(split.top[i]);
    if (!p) return 'a top-level slice does not parse on its own';
    top.push(p);
  }

  // The analysis has the same top-level keys at the same places, nothing spilling over a cut.
  const lastTaskEnd = split.tasks.length ? split.tasks[split.tasks.length - 1].end : 0;
  let k = 0;
  let tasksNode: unknown;
  for (const item of original.root.items) {
    const ks = startOf(item.key);
    if (ks === undefined) return 'analysis has a key without a range';
    const ve = endOf(item.value) ?? ks;
    if (inC(ks)) {
      if (ve > nextKey(c.end)) return 'analysis spills over the cursor slice';
      continue;
    }
    if (k === cTop) k++;
    const p = top[k];
    if (!p) return 'analysis has more top-level keys';
    if (ks !== toT(startOf(p.pair.key)!) || keyName(item) !== keyName(p.pair)) return 'analysis differs at top level';
    if (ve > nextKey(k === split.tasksAt && split.tasks.length ? lastTaskEnd : split.top[k].end)) return 'analysis spills over a cut';
    if (k === split.tasksAt) tasksNode = item.value;
    k++;
  }
  if (k === cTop) k++;
  if (k !== split.top.length) return 'analysis has fewer top-level keys';

  // … and the same task keys at the same places.
  const expected: Array<{ id: string; at: number }> = [];
  if (split.tasks.length) {
    if (!isMap(tasksNode)) return 'analysis has no tasks map';
    let j = 0;
    for (const item of tasksNode.items) {
      const ks = startOf(item.key);
      if (ks === undefined) return 'analysis has a task key without a range';
      const ve = endOf(item.value) ?? ks;
      if (inC(ks)) {
        if (ve > nextKey(c.end)) return 'analysis spills over the cursor slice';
        continue;
      }
      if (j === cTask) j++;
      const s = split.tasks[j];
      if (!s) return 'analysis has more tasks';
      // A task slice begins with its key line: the key at the first non-space.
      let p = s.start;
      while (patched.charCodeAt(p) === 32) p++;
      const id = keyName(item);
      if (ks !== toT(p) || !keyTextAt(patched, p, id)) return 'analysis differs in tasks';
      if (ve > nextKey(s.end)) return 'analysis spills over a task cut';
      expected.push({ id: id!, at: ks });
      j++;
    }
    if (j === cTask) j++;
    if (j !== split.tasks.length) return 'analysis has fewer tasks';
  }
  // The analyzed IR tasks outside the cursor's slice are exactly those (first definition wins).
  const reused = analysis.workflow.tasks.filter((t) => !inC(t.idSpan.start));
  if (reused.length !== expected.length) return 'analysis has other tasks';
  for (let i = 0; i < reused.length; i++) {
    if (reused[i].id !== expected[i].id || reused[i].idSpan.start !== expected[i].at || reused[i].path[1] !== expected[i].id) return 'analysis has other tasks';
  }

  const cParsed = parseSlice(c);
  if (!cParsed) return 'the cursor slice does not parse on its own';
  if (cTop >= 0) top[cTop] = cParsed;
  const names = new Set<string>();
  for (const p of top) {
    const n = keyName(p!.pair);
    if (n === undefined || names.has(n)) return 'repeated or empty top-level key';
    names.add(n);
  }
  const taskIds = expected.map((e) => e.id);
  const cId = cTask >= 0 ? keyName(cParsed.pair) : undefined;
  if (cTask >= 0) {
    if (cId === undefined || taskIds.includes(cId)) return 'repeated or empty task id';
    taskIds.splice(cTask, 0, cId);
  }

  const firstRange = (top[0]!.doc.contents as Node).range!;
  return assemble(patched, {
    pairs: top.map((p) => p!.pair), rootStart: firstRange[0], tasksAt: split.tasks.length ? split.tasksAt : -1,
    firstTaskStart: split.tasks.length ? split.tasks[0].start : 0, lastTaskEnd, taskCount: split.tasks.length,
    cParsed, cTask, reused, cEndT, delta, taskIds,
  });
}

interface Parts {
  /** The top-level pairs in order (the `tasks:` one's value is replaced by the view's map). */
  pairs: Pair<unknown, unknown>[];
  rootStart: number;
  /** Index of `tasks:` in `pairs` when it holds tasks, else -1. */
  tasksAt: number;
  firstTaskStart: number;
  lastTaskEnd: number;
  taskCount: number;
  cParsed: ParsedSlice;
  /** Index of the cursor's task among the tasks (-1: the cursor is in a top-level slice). */
  cTask: number;
  /** The analyzed tasks outside the cursor's slice, in order, and where that slice ended in the analysis. */
  reused: Task[];
  cEndT: number;
  delta: number;
  taskIds: string[];
}

/** The view: every top-level pair; `tasks:` holding the cursor's task only. */
function assemble(patched: string, p: Parts): PatchedView | string {
  const { cParsed, cTask, reused, delta } = p;
  const root = new YAMLMap<unknown, unknown>();
  let tasksMap: YAMLMap<unknown, unknown> | undefined;
  for (let i = 0; i < p.pairs.length; i++) {
    const pair = p.pairs[i];
    if (i === p.tasksAt) {
      tasksMap = new YAMLMap<unknown, unknown>();
      if (cTask >= 0) {
        tasksMap.items = [cParsed.pair];
        const own = (cParsed.doc.contents as Node).range!;
        const first = cTask === 0 ? own[0] : p.firstTaskStart;
        tasksMap.range = cTask === p.taskCount - 1 ? [first, own[1], own[2]] : [first, p.lastTaskEnd, p.lastTaskEnd];
      }
      root.items.push(new Pair(pair.key, tasksMap));
    } else {
      root.items.push(pair);
    }
  }
  root.range = [p.rootStart, patched.length, patched.length];
  const yaml = new Document(undefined, PARSE_OPTIONS) as unknown as Document.Parsed;
  yaml.contents = root as never;
  let lines: LineIndex | undefined;
  const doc: NikaDocument = {
    text: patched,
    get lines() { return (lines ??= new LineIndex(patched)); },
    yaml, root, parseDiagnostics: [], tooLarge: false,
  };

  const dialect = detectDialect(root);
  if (dialect.dialect !== 'v1') return `patched dialect ${dialect.dialect}`;
  // The envelope and the cursor's task from the view, the other tasks from the analysis.
  const workflow = normalize(doc, dialect);
  const own = workflow.tasks;
  if (own.length !== (cTask >= 0 ? 1 : 0)) return 'cursor task not read';
  const tasks: Task[] = [];
  for (let i = 0; i < reused.length; i++) {
    if (i === cTask) tasks.push(own[0]);
    const t = reused[i];
    tasks.push(t.idSpan.start >= p.cEndT ? shiftedTask(t, delta) : t);
  }
  if (cTask === reused.length) tasks.push(own[0]);
  workflow.tasks = tasks;
  return { doc, dialect, workflow, tasksMap, taskIds: p.taskIds };
}

/**
 * What follows task `cTask` in the patched text, for parseTaskInPlace: the next task or the next
 * top-level pair of the analysis, at its patched offsets; undefined when nothing follows, null
 * when the analysis does not hold it.
 */
function nextPair(analysis: Analysis, layout: SliceLayout, cTask: number, delta: number): NextPair | undefined | null {
  const root = analysis.doc.root!;
  if (cTask + 1 < layout.taskCount) {
    const tasks = root.items[layout.tasksAt]?.value;
    const pair = isMap(tasks) ? (tasks.items[cTask + 1] as Pair<unknown, unknown> | undefined) : undefined;
    return (pair && nextOf(pair, { isTask: true, text: layout.taskText(cTask + 1), start: layout.taskStart(cTask + 1) + delta }, delta)) ?? null;
  }
  if (layout.tasksAt + 1 < layout.top.length) {
    const pair = root.items[layout.tasksAt + 1];
    const { text, start } = layout.top[layout.tasksAt + 1];
    return (pair && nextOf(pair, { isTask: false, text, start: start + delta }, delta)) ?? null;
  }
  return undefined;
}

/**
 * The view straight from the analyzer's cut (Analysis.layout) when the patched line is inside a
 * task and leaves every cut where it was: no cutting of the patched text, no comparing with the
 * analysis, and the patched text is never read whole. Undefined when another way must decide.
 */
function taskView(patched: string, lineStart: number, patchedLine: string, analysis: Analysis, layout: SliceLayout): PatchedView | string | undefined {
  const original = analysis.doc.text;
  const n = layout.taskCount;
  if (layout.text !== original || layout.tasksAt < 0 || n === 0) return undefined;
  // The line replaced in the analyzed text: what follows it is the same in both.
  const lineEnd = original.length - (patched.length - lineStart - patchedLine.length);
  if (lineEnd < lineStart || original.slice(lineStart, lineEnd).includes('\n')) return undefined;
  if (lineStart < layout.taskStart(0) || lineStart >= layout.tasksEnd) return undefined;
  const cTask = floorIndex(n, layout.taskStart, lineStart);
  const cStart = layout.taskStart(cTask);
  const cEnd = cTask + 1 < n ? layout.taskStart(cTask + 1) : layout.tasksEnd;
  // The patched line keeps every cut: still the task's key line, or still inside the task.
  if (/[\r\u2028\u2029\ufeff]/.test(patchedLine)) return undefined;
  const cut = taskLines(patchedLine, [0], 0, 1, layout.indent);
  if (!cut || cut.lines.length !== (lineStart === cStart ? 1 : 0)) return undefined;

  const delta = patched.length - original.length;
  const cText = layout.taskText(cTask);
  const cSlice = { start: cStart, end: cEnd + delta, text: cText.slice(0, lineStart - cStart) + patchedLine + cText.slice(lineEnd - cStart) };
  let cParsed = parseSlice(cSlice);
  if (!cParsed) {
    // Typing in a task with a YAML error: read it in place, as the analyzer does.
    const next = nextPair(analysis, layout, cTask, delta);
    if (next !== null) cParsed = parseTaskInPlace(cSlice, next);
    if (cParsed) patchedViewStats.inPlace++;
  }
  if (!cParsed) return 'the cursor slice does not parse on its own';
  const cId = keyName(cParsed.pair);
  // The analyzed tasks outside the cursor's slice are those of the other slices, in order.
  const inC = (t: number) => t >= cStart && t < cEnd;
  const reused = analysis.workflow.tasks.filter((t) => !inC(t.idSpan.start));
  if (reused.length !== n - 1) return undefined;
  const taskIds: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (i === cTask) continue;
    const t = reused[i < cTask ? i : i - 1];
    if (t.id !== layout.taskId(i)) return undefined;
    taskIds[i] = t.id;
  }
  if (cId === undefined || taskIds.includes(cId)) return 'repeated or empty task id';
  taskIds[cTask] = cId;

  // Top-level pairs: the analysis's above the tasks (same offsets), parsed again below them.
  const pairs: Pair<unknown, unknown>[] = [];
  for (let i = 0; i < layout.top.length; i++) {
    if (i <= layout.tasksAt) {
      const pair = analysis.doc.root!.items[i];
      if (!pair) return undefined;
      pairs.push(pair);
      continue;
    }
    const s = layout.top[i];
    const p = parseTop({ start: s.start + delta, end: s.end + delta, text: s.text });
    if (!p) return undefined;
    pairs.push(p.pair);
  }
  const rootStart = (analysis.doc.root as { range?: number[] }).range?.[0] ?? 0;
  return assemble(patched, {
    pairs, rootStart, tasksAt: layout.tasksAt, firstTaskStart: layout.taskStart(0), lastTaskEnd: layout.tasksEnd + delta,
    taskCount: n, cParsed, cTask, reused, cEndT: cEnd, delta, taskIds,
  });
}
