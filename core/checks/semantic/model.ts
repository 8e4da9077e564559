// What several semantic checks share, computed once per analysis: the expression sites, the task
// table, groups, unwind links and the precedence graph G_p = with-edges ∪ after-edges (§2.1).
// Under the incremental analyzer a keystroke must not cost a walk over every site: what is known
// about one task (its sites, node, with: reads…) lives in its per-task memo (facts.ts), and the
// rest is built on first use.
import type { CheckContext } from '../context.js';
import { isMap, isSeq } from 'yaml';
import type { Pair } from 'yaml';
import { keyName } from '../../document.js';
import type { Task } from '../../ir.js';
import { scanExpressionsCached, type ExprSite } from '../../scan.js';
import { perTask } from '../memo.js';
import { computeFacts, type TaskFacts } from './facts.js';

export { referencesIn } from './resolve.js';

export interface SemanticModel {
  sites: ExprSite[];
  /** The sites owned by a task, in document order (an index: checks run per task over 1,000s of them). */
  sitesOfTask(task: Task): readonly ExprSite[];
  /** The sites inside one string scalar, in document order. */
  sitesOfScalar(scalar: unknown): readonly ExprSite[];
  tasks: Map<string, Task>;
  /** group name → member ids in declaration order. */
  groups: Map<string, string[]>;
  /** consumer id → producer ids it must wait for (with reads, group folds, non-unwind after). */
  deps: Map<string, Set<string>>;
  /** The YAML node of a task (one pass over `tasks:`, instead of a lookup per task). */
  taskNode(task: Task): unknown;
  /** Does `from` reach `to` along producer → consumer edges? */
  reaches(from: string, to: string): boolean;
  /** What the semantic checks read from one task alone (memoized per task). */
  factsOf(task: Task): TaskFacts;
  /** The same for every task, in `ctx.workflow.tasks` order. */
  facts(): readonly TaskFacts[];
  /**
   * The sites in document order with each task's run of sites folded into the task's index in
   * `ctx.workflow.tasks`: a check that works per task walks 1,000 tasks instead of every site.
   */
  layout(): readonly (ExprSite | number)[];
  /** The first site (in `sites` order) with inexact offsets whose scalar holds `offset`. */
  inexactSiteAt(offset: number): ExprSite | undefined;
  /** Every precedence edge points to a task declared earlier: the graph is acyclic as it stands. */
  forwardOnly(): boolean;
  /** Every task id, in a string that changes whenever the ids (or their order) do: a memo key part. */
  idSignature(): string;
  /** Every group name, likewise. */
  groupSignature(): string;
}

const cache = new WeakMap<CheckContext['doc'], { wf: CheckContext['workflow']; model: SemanticModel }>();

export function semanticModel(ctx: CheckContext): SemanticModel {
  const hit = cache.get(ctx.doc);
  if (hit && hit.wf === ctx.workflow) return hit.model;
  const model = build(ctx);
  cache.set(ctx.doc, { wf: ctx.workflow, model });
  return model;
}

const NONE: readonly ExprSite[] = Object.freeze([]);

function push<K>(m: Map<K, ExprSite[]>, k: K, s: ExprSite): void {
  const list = m.get(k);
  if (list) list.push(s);
  else m.set(k, [s]);
}

function build(ctx: CheckContext): SemanticModel {
  const wf = ctx.workflow;
  const sites = scanExpressionsCached(ctx.doc, wf);
  // Only the incremental analyzer memoizes, and its documents have what the shortcuts below rely
  // on: sites in document order, each task's sites in one run, unique task ids.
  const incremental = ctx.memo !== undefined;

  const tasks = new Map<string, Task>();
  const groups = new Map<string, string[]>();
  for (const t of wf.tasks) {
    tasks.set(t.id, t);
    if (t.group) { const g = groups.get(t.group); if (g) g.push(t.id); else groups.set(t.group, [t.id]); }
  }

  // The exact index, in one pass over every site: for full analyses, and as a fallback.
  let byTask: Map<Task, ExprSite[]> | undefined;
  let folded: (Task | ExprSite)[] | undefined;
  const index = (): void => {
    byTask = new Map();
    folded = [];
    let current: Task | undefined;
    let list: ExprSite[] = [];
    for (const s of sites) {
      const t = s.task;
      if (!t) { folded.push(s); current = undefined; continue; }
      if (t !== current) {
        current = t;
        const l = byTask.get(t);
        if (l) list = l;
        else { list = []; byTask.set(t, list); folded.push(t); }
      }
      list.push(s);
    }
  };
  /** A task's sites found by position: the first site at or after the task's node starts its run. */
  const ownSites = (task: Task): readonly ExprSite[] => {
    if (!incremental) { if (!byTask) index(); return byTask!.get(task) ?? NONE; }
    let lo = 0;
    let hi = sites.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sites[mid].scalarSpan.start < task.span.start) lo = mid + 1; else hi = mid;
    }
    let end = lo;
    while (end < sites.length && sites[end].task === task) end++;
    return end > lo ? sites.slice(lo, end) : NONE;
  };

  let nodes: Map<string | number, unknown> | undefined;
  const tasksNode = ctx.doc.root?.get('tasks', true);
  const nodeMap = (): Map<string | number, unknown> => {
    if (nodes) return nodes;
    const m = new Map<string | number, unknown>();
    if (isMap(tasksNode)) for (const p of tasksNode.items) { const k = keyName(p); if (k !== undefined && !m.has(k)) m.set(k, p.value); }
    else if (isSeq(tasksNode)) tasksNode.items.forEach((item, i) => m.set(i, item));
    return (nodes = m);
  };
  const nodeOf = (task: Task): unknown => {
    if (!(task.path.length === 2 && task.path[0] === 'tasks')) return undefined;
    if (incremental && isMap(tasksNode)) {
      // The pair whose key is the task's id, by position (pairs are in document order).
      const items = tasksNode.items as Pair<unknown, unknown>[];
      let lo = 0;
      let hi = items.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const at = (items[mid].key as { range?: number[] } | null)?.range?.[0];
        if (at === undefined) break;
        if (at < task.idSpan.start) lo = mid + 1;
        else if (at > task.idSpan.start) hi = mid - 1;
        else { if (keyName(items[mid]) === task.path[1]) return items[mid].value; break; }
      }
    }
    return nodeMap().get(task.path[1]);
  };

  const factsOf = (task: Task): TaskFacts =>
    perTask(ctx, task, 'semantic.facts', () => computeFacts(ctx, task, nodeOf(task), ownSites(task)));
  let all: TaskFacts[] | undefined;
  const facts = (): TaskFacts[] => (all ??= wf.tasks.map(factsOf));

  /** Visits each task the facts' task depends on (tasks that exist, members of named groups) while `visit` says go on. */
  const eachDep = (f: TaskFacts, visit: (id: string) => boolean): boolean => {
    const { withNames, withKinds, afterIds } = f;
    for (let j = 0; j < withNames.length; j++) {
      const name = withNames[j];
      if (withKinds[j] === 't') { if (tasks.has(name) && !visit(name)) return false; }
      else for (const m of groups.get(name) ?? []) if (!visit(m)) return false;
    }
    for (const id of afterIds) if (tasks.has(id) && !visit(id)) return false;
    return true;
  };

  let deps: Map<string, Set<string>> | undefined;
  const depsMap = (): Map<string, Set<string>> => {
    if (deps) return deps;
    deps = new Map();
    const f = facts();
    for (let i = 0; i < wf.tasks.length; i++) {
      const d = new Set<string>();
      eachDep(f[i], (p) => { d.add(p); return true; });
      deps.set(wf.tasks[i].id, d);
    }
    return deps;
  };

  // Whether every dependency is declared above its consumer, without building the dependency
  // sets (the cycle check asks on every keystroke; the sets are built only when read).
  let forward: boolean | undefined;
  const forwardOnly = (): boolean => {
    if (forward !== undefined) return forward;
    if (tasks.size !== wf.tasks.length) return (forward = false);
    const declared = new Set<string>();
    const isDeclared = (p: string) => declared.has(p);
    const f = facts();
    for (let i = 0; i < wf.tasks.length; i++) {
      if (!eachDep(f[i], isDeclared)) return (forward = false);
      declared.add(wf.tasks[i].id);
    }
    return (forward = true);
  };

  let consumers: Map<string, string[]> | undefined;
  const reachMemo = new Map<string, Set<string>>();
  const reachable = (from: string): Set<string> => {
    let r = reachMemo.get(from);
    if (r) return r;
    if (!consumers) {
      consumers = new Map();
      for (const [c, ps] of depsMap()) for (const p of ps) { const l = consumers.get(p); if (l) l.push(c); else consumers.set(p, [c]); }
    }
    r = new Set();
    const stack = [...(consumers.get(from) ?? [])];
    while (stack.length) {
      const n = stack.pop()!;
      if (r.has(n)) continue;
      r.add(n);
      for (const c of consumers.get(n) ?? []) stack.push(c);
    }
    reachMemo.set(from, r);
    return r;
  };

  let layout: (ExprSite | number)[] | undefined;
  const layoutOf = (): (ExprSite | number)[] => {
    if (layout) return layout;
    if (incremental) {
      // Envelope sites come before and after the tasks; every other site belongs to a task.
      let head = 0;
      while (head < sites.length && !sites[head].task) head++;
      let tail = sites.length;
      while (tail > head && !sites[tail - 1].task) tail--;
      const out: (ExprSite | number)[] = sites.slice(0, head);
      const f = facts();
      let owned = 0;
      for (let i = 0; i < f.length; i++) {
        const n = f[i].sites.length;
        if (n) { out.push(i); owned += n; }
      }
      if (owned === tail - head) {
        for (let i = tail; i < sites.length; i++) out.push(sites[i]);
        return (layout = out);
      }
    }
    if (!folded) index();
    const at = new Map<Task, number>();
    wf.tasks.forEach((t, i) => at.set(t, i));
    return (layout = folded!.map((x) => (isSite(x) ? x : at.get(x)!)));
  };

  let loose: Array<{ site: ExprSite; at: number }> | undefined;
  const looseSites = (): Array<{ site: ExprSite; at: number }> => {
    if (loose) return loose;
    const l: Array<{ site: ExprSite; at: number }> = [];
    const f = facts();
    let at = 0;
    for (const item of layoutOf()) {
      if (typeof item !== 'number') { if (!item.exact) l.push({ site: item, at }); at++; continue; }
      const own = f[item];
      if (!own.inexact) { at += own.sites.length; continue; }
      for (const s of own.sites) { if (!s.exact) l.push({ site: s, at }); at++; }
    }
    // By scalar start, for a binary search; scalars never overlap, so their ends are in order too.
    l.sort((a, b) => a.site.scalarSpan.start - b.site.scalarSpan.start || a.at - b.at);
    return (loose = l);
  };

  let byScalar: Map<unknown, ExprSite[]> | undefined;
  let idSig: string | undefined;
  let groupSig: string | undefined;
  return {
    sites,
    sitesOfTask: (task) => (incremental ? factsOf(task).sites : ownSites(task)),
    sitesOfScalar: (scalar) => {
      if (!byScalar) { byScalar = new Map(); for (const s of sites) push(byScalar, s.scalar, s); }
      return byScalar.get(scalar) ?? NONE;
    },
    tasks, groups,
    get deps() { return depsMap(); },
    taskNode: (task) => (incremental ? factsOf(task).node : nodeOf(task)),
    reaches: (from, to) => reachable(from).has(to),
    factsOf,
    facts,
    layout: layoutOf,
    inexactSiteAt: (offset) => {
      const l = looseSites();
      if (l.length === 0) return undefined;
      // The last entry starting at or before `offset`, then back over those that still hold it.
      let lo = 0;
      let hi = l.length - 1;
      let k = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (l[mid].site.scalarSpan.start <= offset) { k = mid; lo = mid + 1; } else hi = mid - 1;
      }
      let best: { site: ExprSite; at: number } | undefined;
      for (; k >= 0 && l[k].site.scalarSpan.end >= offset; k--) if (!best || l[k].at < best.at) best = l[k];
      return best?.site;
    },
    forwardOnly,
    idSignature: () => (idSig ??= wf.tasks.map((t) => t.id).join('\u0000')),
    groupSignature: () => (groupSig ??= [...groups.keys()].join('\u0000')),
  };
}

function isSite(x: Task | ExprSite): x is ExprSite {
  return (x as ExprSite).scalar !== undefined;
}
