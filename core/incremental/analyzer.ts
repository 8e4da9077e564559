// Re-analysis of one document as it is edited: parse only the slices whose text changed, reuse
// the IR tasks and expression sites of the others, and hand the checks the same inputs a full
// analysis would build. A task with a YAML error is read in place with its neighbour (parse.ts:
// parseTaskInPlace). Whatever the slicing cannot promise to get right (documents that do not
// split cleanly, YAML errors reaching past their task or outside the tasks, repeated task ids)
// goes through `analyze()`.
//
// One analyzer per open document. Reused slices are moved in place, so an Analysis returned
// earlier must not be read after a later call on the same analyzer.
import { Document, Pair, YAMLMap } from 'yaml';
import { analyze, type Analysis, type AnalyzeOptions } from '../analyze.js';
import { EMPTY_CATALOG } from '../catalog/mcp.js';
import { allChecks, runChecks, type Check } from '../checks/index.js';
import { isTaskLocal } from '../checks/locality.js';
import type { CheckContext } from '../checks/context.js';
import type { NikaDiagnostic } from '../diagnostic.js';
import { detectDialect } from '../dialect.js';
import { MAX_DOCUMENT_BYTES, utf8Length, yamlErrorDiagnostic, type NikaDocument } from '../document.js';
import type { Task, Workflow } from '../ir.js';
import { normalize } from '../normalize.js';
import { scanExpressions, seedScanCache, type ExprSite } from '../scan.js';
import { LineIndex } from '../text.js';
import type { TaskMemo, TaskMemoTable } from '../checks/memo.js';
import { Offsets, SITE_SKIP } from './offsets.js';
import { addSliceOffsets, nextOf, PARSE_OPTIONS, parseSlice, parseTaskInPlace, sameExtent, stitch, type ParsedSlice } from './parse.js';
import { recut, type SliceLayout } from './resplit.js';
import { lineStarts, splitDocument, type Slice } from './split.js';

interface Entry {
  parsed: ParsedSlice;
  /** Where the offsets of everything below live; rebuilt after any of it changes. */
  offsets?: Offsets;
  /** Facts memoized by whole-document checks (memo.ts). */
  memo?: TaskMemoTable;
  /** Task slices: the task read from it and the sites inside it, at `parsed.base`. */
  task?: Task;
  sites?: ExprSite[];
  /** Whether the sites point at `task` (then nothing about them changes while the slice is reused). */
  sitesBound?: boolean;
  /** Findings of the task-local checks inside this slice, by check name (checks with none are absent). */
  diags?: Map<string, NikaDiagnostic[]>;
}


/** One version parsed, read and scanned, ready for the checks. */
interface Prepared {
  text: string;
  doc: NikaDocument;
  dialectInfo: ReturnType<typeof detectDialect>;
  workflow: Workflow;
  top: Entry[];
  tasksAt: number;
  tasks: Entry[];
  sites: ExprSite[];
  envelope: ExprSite[];
  /** How `text` is cut: read by features (Analysis.layout) and by the next version's recut. */
  layout: SliceLayout;
  checked?: { catalog: unknown; diagnostics: NikaDiagnostic[] };
}

export interface IncrementalStats {
  /** Whether the last call went the incremental way, and how many slices it parsed. */
  incremental: boolean;
  parsed: number;
  reused: number;
  /** Task slices with YAML errors read in place (parseTaskInPlace). */
  inPlace?: number;
  reason?: string;
}

export class IncrementalAnalyzer {
  private pool = new Map<string, Entry[]>();
  /** Task id → its entry, for the current version (repeated ids are left to the full analysis). */
  private ids = new Map<string, Entry>();
  /** A task slice's value node and the task read from it → the slice's entry (kept across versions: no per-keystroke maps). */
  private byNode = new WeakMap<object, Entry>();
  private byTask = new WeakMap<Task, Entry>();
  /** What the cached findings were computed against; any change re-runs every check. */
  private checkedWith?: { catalog: unknown; envelope: string };
  private prepared?: Prepared;
  stats: IncrementalStats = { incremental: false, parsed: 0, reused: 0 };

  analyze(text: string, opts: AnalyzeOptions = {}): Analysis {
    const out = this.tryIncremental(text, opts);
    if (typeof out !== 'string') return out;
    // The slice cache stays (see cutAll), with the findings and facts of its entries: the next
    // clean version takes what it can from it and re-checks only what changed meanwhile.
    this.ids.clear();
    this.prepared = undefined;
    this.stats = { incremental: false, parsed: 0, reused: 0, reason: out };
    return analyze(text, opts);
  }

  private tryIncremental(text: string, opts: AnalyzeOptions): Analysis | string {
    // The server asks for an unchecked analysis (completion) and then a checked one of the same text.
    if (this.prepared?.text === text) {
      this.stats = { incremental: true, parsed: 0, reused: this.prepared.tasks.length + this.prepared.top.length };
      return this.finish(this.prepared, opts);
    }
    const last = this.prepared;
    this.prepared = undefined;
    // Over the size limit a full analysis reports NIKA-YAML-010 and nothing else.
    if (text.length > MAX_DOCUMENT_BYTES / 4 && utf8Length(text) > MAX_DOCUMENT_BYTES) return 'document over the size limit';
    const counts = { parsed: 0, reused: 0 };
    const slices = (last && this.recut(last, text, counts)) || this.cutAll(text, counts);
    if (typeof slices === 'string') return slices;
    const { top, tasks, tasksAt, starts, indent } = slices;
    const { parsed, reused } = counts;

    const { yaml, root } = stitch({ tasksAt }, top.map((e) => e.parsed), tasks.map((e) => e.parsed), text.length);
    const lines = new LineIndex(text, starts);
    const parseDiagnostics: NikaDiagnostic[] = [];
    let inPlace = 0;
    for (const e of tasks) {
      if (!e.parsed.errors) continue;
      inPlace++;
      for (const x of e.parsed.errors) parseDiagnostics.push(yamlErrorDiagnostic(x.message, e.parsed.base + x.from, e.parsed.base + x.to, text, lines));
    }
    const doc: NikaDocument = { text, lines, yaml, root, parseDiagnostics, tooLarge: false };
    const dialectInfo = detectDialect(root);
    if (dialectInfo.dialect !== 'v1') {
      // Other dialects normalize with whole-document passes (flows, list tasks): parse is still incremental.
      this.stats = { incremental: true, parsed, reused, inPlace, reason: `dialect ${dialectInfo.dialect}` };
      const workflow = normalize(doc, dialectInfo);
      const diagnostics = [...parseDiagnostics, ...(opts.skipChecks ? [] : runChecks({ doc, dialect: dialectInfo, workflow, catalog: opts.catalog ?? EMPTY_CATALOG }))];
      return { doc, dialect: dialectInfo.dialect, dialectInfo, workflow, diagnostics };
    }

    // The IR: tasks of unchanged slices are reused.
    const workflow = normalize(doc, dialectInfo, (_id, node, read) => {
      const e = node && typeof node === 'object' ? this.byNode.get(node) : undefined;
      if (!e) return read();
      if (!e.task) {
        e.task = read();
        this.byTask.set(e.task, e);
      }
      return e.task;
    });

    // Expression sites: scan the new task slices (and the small envelope) only.
    const fresh = tasks.filter((e) => !e.sites);
    const tasksPair = tasksAt >= 0 ? top[tasksAt].parsed.pair : undefined;
    if (fresh.length && tasksPair) {
      const m = new YAMLMap<unknown, unknown>();
      m.items = fresh.map((e) => e.parsed.pair);
      const sites = scanExpressions(miniDoc(doc, [new Pair(tasksPair.key, m)]), { ...workflow, tasks: fresh.map((e) => e.task!).filter(Boolean) });
      let k = 0;
      for (const e of fresh) {
        const [a, b] = [e.parsed.base, e.parsed.base + e.parsed.text.length];
        e.sites = [];
        e.offsets = undefined;
        while (k < sites.length && sites[k].scalarSpan.start >= a && sites[k].scalarSpan.start < b) e.sites.push(sites[k++]);
      }
    }
    const envelope = scanExpressions(miniDoc(doc, top.filter((_, i) => i !== tasksAt).map((e) => e.parsed.pair)), { ...workflow, tasks: [] });
    const tasksStart = tasks.length ? tasks[0].parsed.base : Infinity;
    const sites: ExprSite[] = envelope.filter((s) => s.scalarSpan.start < tasksStart);
    for (const e of tasks) {
      // A reused slice keeps its Task object (moved in place), so its sites stay bound to it.
      if (!e.sitesBound) {
        // Its own task (ids are unique here), as normalize took it from the entry.
        const task = e.task;
        for (const s of e.sites ?? []) {
          s.task = task;
          s.taskId = task?.id;
          s.unwindOf = task ? Object.entries(task.after).filter(([, p]) => p === 'unwind').map(([id]) => id) : [];
        }
        e.sitesBound = task !== undefined && task === e.task;
      }
      for (const s of e.sites ?? []) sites.push(s);
    }
    for (const s of envelope) if (s.scalarSpan.start >= tasksStart) sites.push(s);
    seedScanCache(doc, workflow, sites);
    this.prepared = { text, doc, dialectInfo, workflow, top, tasksAt, tasks, sites, envelope, layout: layoutOf(text, starts, indent, top, tasksAt, tasks) };
    this.stats = { incremental: true, parsed, reused, inPlace };
    return this.finish(this.prepared, opts);
  }

  private parsed(slice: Slice, counts: { parsed: number }): Entry | undefined {
    const e = parseEntry(slice, counts);
    const node = e?.parsed.pair.value;
    if (e && node && typeof node === 'object') this.byNode.set(node, e);
    return e;
  }

  /** Cuts the whole text and takes each slice from the pool when its text is cached. */
  private cutAll(text: string, counts: { parsed: number; reused: number }): Cut | string {
    const starts = lineStarts(text);
    const split = splitDocument(text, starts);
    if (!split) return 'no clean split';
    const previous = this.pool;
    const next = new Map<string, Entry[]>();
    const take = (slice: Slice): Entry | undefined => {
      const entry = reuse(previous.get(slice.text)?.pop(), slice.start, counts) ?? this.parsed(slice, counts);
      if (entry) addTo(next, entry);
      return entry;
    };
    // Refused half way (a slice with a YAML error, say): the cache keeps every entry, moved or
    // not (each knows where its nodes are), so mending the slice re-parses that slice only.
    const refuse = (why: string): string => {
      for (const [k, l] of previous) {
        if (!l.length) continue;
        const n = next.get(k);
        if (n) n.push(...l); else next.set(k, l);
      }
      this.pool = next;
      return why;
    };
    const top: Entry[] = [];
    for (const s of split.top) {
      const e = take(s);
      if (!e) return refuse('a slice does not parse on its own');
      top.push(e);
    }
    const cut: (Entry | Slice)[] = [];
    for (const s of split.tasks) cut.push(take(s) ?? s);
    const tasks = this.settle(cut, top[split.tasksAt + 1], counts, (e) => addTo(next, e));
    if (typeof tasks === 'string') return refuse(tasks);
    const ids = new Map<string, Entry>();
    for (const e of tasks) {
      const id = idOf(e);
      if (ids.has(id)) return refuse('repeated task id');
      ids.set(id, e);
    }
    // Lists pop from the end: keep entries in order for the next round.
    for (const l of next.values()) l.reverse();
    this.pool = next;
    this.ids = ids;
    return { top, tasksAt: split.tasksAt, tasks, starts, indent: split.indent };
  }

  /**
   * The slices of `text` from those of the version before it, cut again only around the change
   * (resplit.ts): the tasks in the changed window are taken by text or parsed, the others are
   * kept (moved by the change's length when below it). Undefined when the cut must be redone whole.
   */
  private recut(last: Prepared, text: string, counts: { parsed: number; reused: number }): Cut | string | undefined {
    if (last.tasksAt < 0) return undefined;
    const lastTasks = last.tasks;
    const r = recut(last.layout, text);
    if (!r) return undefined;
    const gone = lastTasks.slice(r.first, r.first + r.count);
    for (const e of gone) {
      const id = idOf(e);
      if (this.ids.get(id) === e) this.ids.delete(id);
      removeFrom(this.pool, e);
    }
    const window: (Entry | Slice)[] = [];
    for (const s of r.slices) {
      const at = gone.findIndex((e) => e.parsed.text === s.text);
      const e = at >= 0 ? reuse(gone.splice(at, 1)[0], s.start, counts) : this.parsed(s, counts);
      if (e) addTo(this.pool, e);
      window.push(e ?? s);
    }
    const after = lastTasks.slice(r.first + r.count);
    for (const e of after) reuse(e, e.parsed.base + r.delta, counts);
    const top = last.top;
    for (let i = last.tasksAt + 1; i < top.length; i++) reuse(top[i], top[i].parsed.base + r.delta, counts);
    counts.reused += r.first + last.tasksAt + 1;
    const tasks = this.settle((lastTasks.slice(0, r.first) as (Entry | Slice)[]).concat(window, after), top[last.tasksAt + 1], counts, (e) => addTo(this.pool, e));
    if (typeof tasks === 'string') return tasks;
    for (let i = r.first; i < r.first + window.length; i++) {
      const e = tasks[i];
      const id = idOf(e);
      if (this.ids.has(id)) return 'repeated task id';
      this.ids.set(id, e);
    }
    return { top, tasksAt: last.tasksAt, tasks, starts: r.starts, indent: last.layout.indent };
  }

  /**
   * The task slices of a version once those with YAML errors are read in place (parseTaskInPlace):
   * the slices that did not parse alone, and the cached entries read that way before (what follows
   * them may have changed). A string when one cannot be read in place: the error reaches past its
   * slice, or the next slice has an error too.
   */
  private settle(cut: (Entry | Slice)[], nextTop: Entry | undefined, counts: { parsed: number }, add: (e: Entry) => void): Entry[] | string {
    for (let i = 0; i < cut.length; i++) {
      const t = cut[i];
      const old = 'parsed' in t ? t : undefined;
      if (old && !old.parsed.errors) continue;
      const slice: Slice = old ? { start: old.parsed.base, end: old.parsed.base + old.parsed.text.length, text: old.parsed.text } : (t as Slice);
      const n = i + 1 < cut.length ? cut[i + 1] : nextTop;
      if (n && !('parsed' in n && !n.parsed.errors)) return 'two tasks in a row with YAML errors';
      const next = n && nextOf(n.parsed.pair, { isTask: i + 1 < cut.length, text: n.parsed.text, start: n.parsed.base });
      if (n && !next) return 'the slice after a task with a YAML error has no key';
      const p = parseTaskInPlace(old ? slice : { ...slice, text: detached(slice.text) }, next);
      if (!p) return 'a YAML error reaches past its task';
      if (old) {
        if (!sameReading(old.parsed, p)) return 'a task with a YAML error reads differently';
        continue;
      }
      counts.parsed++;
      const e: Entry = { parsed: p, memo: new Map() };
      const node = p.pair.value;
      if (node && typeof node === 'object') this.byNode.set(node, e);
      add(e);
      cut[i] = e;
    }
    return cut as Entry[];
  }

  /** The checks on a prepared version (reused as is when the same text comes back for its checks). */
  private finish(p: Prepared, opts: AnalyzeOptions): Analysis {
    const { doc, dialectInfo, workflow, top, tasks, sites, envelope } = p;
    const catalog = opts.catalog ?? EMPTY_CATALOG;
    if (!opts.skipChecks && p.checked?.catalog === catalog) {
      return { doc, dialect: dialectInfo.dialect, dialectInfo, workflow, diagnostics: p.checked.diagnostics, layout: p.layout };
    }
    const byTask = this.byTask;
    const memo: TaskMemo = {
      table: (task) => byTask.get(task)?.memo,
      stored: (task) => { const e = byTask.get(task); if (e) e.offsets = undefined; },
    };
    const ctx: CheckContext = { doc, dialect: dialectInfo, workflow, catalog, memo };
    const envelopeText = top.map((e) => e.parsed.text).join('\u0000');
    const fresh2 = tasks.filter((e) => !e.diags);
    let diagnostics: NikaDiagnostic[] = doc.parseDiagnostics;
    if (!opts.skipChecks) {
      const primed = this.checkedWith && this.checkedWith.catalog === catalog && this.checkedWith.envelope === envelopeText;
      const found = primed
        ? this.checkChanged(ctx, top, p.tasksAt, tasks, fresh2, sites, envelope)
        : this.checkAll(ctx, tasks);
      diagnostics = doc.parseDiagnostics.length ? [...doc.parseDiagnostics, ...found] : found;
      this.checkedWith = { catalog, envelope: envelopeText };
      p.checked = { catalog, diagnostics };
    }
    return { doc, dialect: dialectInfo.dialect, dialectInfo, workflow, diagnostics, layout: p.layout };
  }

  /** Every check on the whole document; task-local findings are remembered per task slice. */
  private checkAll(ctx: CheckContext, tasks: Entry[]): NikaDiagnostic[] {
    const out: NikaDiagnostic[] = [];
    for (const e of tasks) {
      e.diags = new Map();
      e.memo = new Map();
      e.offsets = undefined;
    }
    for (const check of allChecks()) {
      const found = runOne(check, ctx);
      out.push(...found);
      if (!isTaskLocal(check)) continue;
      for (const d of found) {
        const diags = entryAt(tasks, d.span.start)?.diags;
        if (!diags) continue;
        const list = diags.get(check.name);
        if (list) list.push(d); else diags.set(check.name, [d]);
      }
    }
    return out;
  }

  /**
   * Task-local checks run on a view of the document holding the envelope and the changed tasks;
   * the other tasks keep their findings. Whole-document checks run as usual.
   */
  private checkChanged(ctx: CheckContext, top: Entry[], tasksAt: number, tasks: Entry[], fresh: Entry[], allSites: ExprSite[], envelopeSites: ExprSite[]): NikaDiagnostic[] {
    // With no changed task, one stands in so the view still has a non-empty task map.
    const shown = fresh.length ? fresh : tasks.slice(0, 1);
    const pairs = top.map((e) => e.parsed.pair);
    if (tasksAt >= 0) {
      const m = new YAMLMap<unknown, unknown>();
      m.items = shown.map((e) => e.parsed.pair);
      pairs[tasksAt] = new Pair(top[tasksAt].parsed.pair.key, m);
    }
    const mini = miniDoc(ctx.doc, pairs);
    const shownTasks = new Set(shown.map((e) => e.task).filter((t): t is Task => !!t));
    const miniWf: Workflow = { ...ctx.workflow, tasks: ctx.workflow.tasks.filter((t) => shownTasks.has(t)) };
    const shownSites = new Set(shown.flatMap((e) => e.sites ?? []));
    seedScanCache(mini, miniWf, allSites.filter((s) => shownSites.has(s) || envelopeSites.includes(s)));
    const miniCtx: CheckContext = { ...ctx, doc: mini, workflow: miniWf };
    for (const e of fresh) {
      e.diags = new Map();
      e.offsets = undefined;
    }

    // Only slices holding findings are visited per check (findings are rare, tasks are many).
    const freshSet = new Set(fresh);
    const holders = tasks.filter((e) => freshSet.has(e) || e.diags!.size > 0);
    const out: NikaDiagnostic[] = [];
    const first = tasks.length ? tasks[0].parsed.base : Infinity;
    for (const check of allChecks()) {
      if (!isTaskLocal(check)) {
        out.push(...runOne(check, ctx));
        continue;
      }
      const found = runOne(check, miniCtx);
      const before: NikaDiagnostic[] = [];
      const after: NikaDiagnostic[] = [];
      for (const d of found) {
        const e = entryAt(tasks, d.span.start);
        if (!e) (d.span.start < first ? before : after).push(d);
        else if (freshSet.has(e)) {
          const list = e.diags!.get(check.name);
          if (list) list.push(d); else e.diags!.set(check.name, [d]);
        }
      }
      out.push(...before);
      for (const e of holders) {
        const list = e.diags!.get(check.name);
        if (list) out.push(...list);
      }
      out.push(...after);
    }
    return out;
  }
}

/** One version's slices, parsed or taken from the previous version. */
interface Cut {
  top: Entry[];
  tasksAt: number;
  tasks: Entry[];
  starts: number[];
  indent: number;
}

function layoutOf(text: string, starts: number[], indent: number, top: Entry[], tasksAt: number, tasks: Entry[]): SliceLayout {
  const after = tasksAt >= 0 ? top[tasksAt + 1] : undefined;
  return {
    text, starts, indent, tasksAt, taskCount: tasks.length,
    top: top.map((e) => ({ start: e.parsed.base, end: e.parsed.base + e.parsed.text.length, text: e.parsed.text })),
    taskStart: (i) => tasks[i].parsed.base,
    taskText: (i) => tasks[i].parsed.text,
    taskId: (i) => idOf(tasks[i]),
    tasksEnd: after ? after.parsed.base : text.length,
  };
}

/** Whether a slice read in place again reads as its cached entry did (same errors, same extent). */
function sameReading(a: ParsedSlice, b: ParsedSlice): boolean {
  const ea = a.errors ?? [];
  const eb = b.errors ?? [];
  if (ea.length !== eb.length || ea.some((x, i) => x.message !== eb[i].message || x.from !== eb[i].from || x.to !== eb[i].to)) return false;
  return sameExtent(a.pair.key, b.pair.key) && sameExtent(a.pair.value, b.pair.value);
}

function idOf(e: Entry): string {
  return String((e.parsed.pair.key as { value: unknown }).value);
}

/** A cached entry moved to `start` (in place), or undefined when there is none. */
function reuse(entry: Entry | undefined, start: number, counts: { reused: number }): Entry | undefined {
  if (!entry) return undefined;
  const delta = start - entry.parsed.base;
  if (delta !== 0) {
    // The task's own spans move first, in place; the offsets leave them out.
    if (entry.task) shiftTask(entry.task, delta);
    (entry.offsets ??= offsetsOf(entry)).shift(delta);
    entry.parsed.base = start;
  }
  counts.reused++;
  return entry;
}

function parseEntry(slice: Slice, counts: { parsed: number }): Entry | undefined {
  // Parsed from a copy: a slice of the whole text would keep that version of the text alive
  // (through the cache key and every scalar read from it) for as long as the slice is cached.
  const p = parseSlice({ start: slice.start, end: slice.end, text: detached(slice.text) });
  if (!p) return undefined;
  counts.parsed++;
  return { parsed: p, memo: new Map() };
}

function addTo(pool: Map<string, Entry[]>, e: Entry): void {
  const l = pool.get(e.parsed.text);
  if (l) l.push(e); else pool.set(e.parsed.text, [e]);
}

function removeFrom(pool: Map<string, Entry[]>, e: Entry): void {
  const l = pool.get(e.parsed.text);
  if (!l) return;
  const i = l.indexOf(e);
  if (i >= 0) l.splice(i, 1);
  if (!l.length) pool.delete(e.parsed.text);
}

/** A copy of `s` that does not share the memory of the string it was sliced from. */
function detached(s: string): string {
  // Concatenation then slicing makes V8 flatten into a new string of this length only.
  return ('\u0000' + s).slice(1);
}

/**
 * The task of a slice that moved, in place (new span objects would outlive the young generation
 * through the old task, for every task below every keystroke). Findings and facts may share these
 * span objects: offsetsOf leaves them out, so they move once, here.
 */
function shiftTask(t: Task, delta: number): void {
  t.span.start += delta;
  t.span.end += delta;
  if (t.idSpan === t.span) return;
  t.idSpan.start += delta;
  t.idSpan.end += delta;
}

function offsetsOf(e: Entry): Offsets {
  const o = new Offsets();
  addSliceOffsets(e.parsed, o);
  if (e.task) {
    // The task and its own spans move with shiftTask.
    o.exclude(e.task);
    o.exclude(e.task.span);
    o.exclude(e.task.idSpan);
  }
  for (const site of e.sites ?? []) o.addSpans(site, SITE_SKIP);
  for (const list of e.diags?.values() ?? []) o.addSpans(list);
  for (const { value } of e.memo?.values() ?? []) o.addSpans(value);
  return o.seal();
}

function runOne(check: Check, ctx: CheckContext): NikaDiagnostic[] {
  try {
    return check(ctx);
  } catch (e) {
    // Same fence as runChecks: one faulty check costs one finding, not the analysis.
    return [{ code: 'NIKA-IMPL-001', severity: 'warning', message: `internal error in a check: ${(e as Error).message}`, span: { start: 0, end: 0 } }];
  }
}

/** The task slice holding `offset` (slices are in document order). */
function entryAt(tasks: Entry[], offset: number): Entry | undefined {
  let lo = 0;
  let hi = tasks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = tasks[mid];
    if (offset < e.parsed.base) hi = mid - 1;
    else if (offset >= e.parsed.base + e.parsed.text.length) lo = mid + 1;
    else return e;
  }
  return undefined;
}

/** The same document seen through a root holding only `pairs` (fresh containers, shared nodes). */
function miniDoc(doc: NikaDocument, pairs: Pair<unknown, unknown>[]): NikaDocument {
  const root = new YAMLMap<unknown, unknown>();
  root.items = pairs;
  const yaml = new Document(undefined, PARSE_OPTIONS) as unknown as Document.Parsed;
  yaml.contents = root as never;
  return { ...doc, yaml, root };
}
