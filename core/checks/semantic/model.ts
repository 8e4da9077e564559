// What several semantic checks share, computed once per analysis: the expression sites, the task
// table, groups, unwind links and the precedence graph G_p = with-edges ∪ after-edges (§2.1).
import type { CheckContext } from '../context.js';
import { findIslands, parseExpression, collectReferences } from '../../expr/index.js';
import type { Reference } from '../../expr/index.js';
import { isMap, isSeq } from 'yaml';
import { keyName } from '../../document.js';
import type { Task } from '../../ir.js';
import { scanExpressionsCached, type ExprSite } from '../../scan.js';

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
}

const cache = new WeakMap<CheckContext['doc'], { wf: CheckContext['workflow']; model: SemanticModel }>();

export function semanticModel(ctx: CheckContext): SemanticModel {
  const hit = cache.get(ctx.doc);
  if (hit && hit.wf === ctx.workflow) return hit.model;
  const model = build(ctx);
  cache.set(ctx.doc, { wf: ctx.workflow, model });
  return model;
}

/** References of every `${{ }}` in a plain value (IR `with:` values, which are normalized for every dialect). */
export function referencesIn(value: unknown, out: Reference[] = [], budget = { n: 5000 }): Reference[] {
  if (--budget.n < 0) return out;
  if (typeof value === 'string') {
    for (const island of findIslands(value)) {
      try {
        const { ast } = parseExpression(island.source);
        if (ast) out.push(...collectReferences(ast));
      } catch {
        // Reported on the island itself by the syntax check; the graph just lacks the edge.
      }
    }
  } else if (Array.isArray(value)) {
    for (const v of value) referencesIn(v, out, budget);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) referencesIn(v, out, budget);
  }
  return out;
}

const NONE: readonly ExprSite[] = Object.freeze([]);

function push<K>(m: Map<K, ExprSite[]>, k: K, s: ExprSite): void {
  const list = m.get(k);
  if (list) list.push(s);
  else m.set(k, [s]);
}

function build(ctx: CheckContext): SemanticModel {
  const wf = ctx.workflow;
  const tasks = new Map(wf.tasks.map((t) => [t.id, t]));
  const groups = new Map<string, string[]>();
  for (const t of wf.tasks) if (t.group) groups.set(t.group, [...(groups.get(t.group) ?? []), t.id]);

  const deps = new Map<string, Set<string>>();
  for (const t of wf.tasks) {
    const d = new Set<string>();
    for (const ref of referencesIn(t.with)) {
      const first = ref.segments[0]?.name;
      if (ref.root === 'tasks' && first && tasks.has(first)) d.add(first);
      if (ref.root === 'group' && first) for (const m of groups.get(first) ?? []) d.add(m);
    }
    // `unwind` is a finally edge, outside the precedence graph (§2.1).
    for (const [id, p] of Object.entries(t.after)) if (p !== 'unwind' && tasks.has(id)) d.add(id);
    deps.set(t.id, d);
  }

  const consumers = new Map<string, string[]>();
  for (const [c, ps] of deps) for (const p of ps) consumers.set(p, [...(consumers.get(p) ?? []), c]);
  const reachMemo = new Map<string, Set<string>>();
  const reachable = (from: string): Set<string> => {
    let r = reachMemo.get(from);
    if (r) return r;
    r = new Set();
    const stack = [...(consumers.get(from) ?? [])];
    while (stack.length) {
      const n = stack.pop()!;
      if (r.has(n)) continue;
      r.add(n);
      stack.push(...(consumers.get(n) ?? []));
    }
    reachMemo.set(from, r);
    return r;
  };

  const nodes = new Map<string | number, unknown>();
  const tasksNode = ctx.doc.root?.get('tasks', true);
  if (isMap(tasksNode)) for (const p of tasksNode.items) { const k = keyName(p); if (k !== undefined && !nodes.has(k)) nodes.set(k, p.value); }
  else if (isSeq(tasksNode)) tasksNode.items.forEach((item, i) => nodes.set(i, item));

  const sites = scanExpressionsCached(ctx.doc, wf);
  // Built on first use, in one pass: per-task scans of the whole site list were quadratic.
  let byTask: Map<Task, ExprSite[]> | undefined;
  let byScalar: Map<unknown, ExprSite[]> | undefined;
  const index = () => {
    byTask = new Map();
    byScalar = new Map();
    for (const s of sites) {
      if (s.task) push(byTask, s.task, s);
      push(byScalar, s.scalar, s);
    }
  };
  return {
    sites,
    sitesOfTask: (task) => { if (!byTask) index(); return byTask!.get(task) ?? NONE; },
    sitesOfScalar: (scalar) => { if (!byScalar) index(); return byScalar!.get(scalar) ?? NONE; },
    tasks, groups, deps,
    taskNode: (task) => (task.path.length === 2 && task.path[0] === 'tasks' ? nodes.get(task.path[1]) : undefined),
    reaches: (from, to) => reachable(from).has(to),
  };
}
