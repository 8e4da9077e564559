// The precedence graph (reference §2.1). Each incoming edge admits its consumer only for some
// producer outcomes; edges from the same producer intersect. `unwind` edges are not precedence:
// they schedule a cleanup after the producer settles, whatever happened to it.
import type { Task, Workflow } from '../../core/ir.js';
import { collectReferences, findIslands, parseExpression, type Reference } from '../../core/expr/index.js';
import type { TaskStatus } from '../events.js';

export type Settled = Exclude<TaskStatus, 'pending' | 'running'>;
const ALL: Settled[] = ['success', 'failure', 'skipped', 'cancelled'];
const VALUE: Settled[] = ['success', 'skipped'];
const FAILURE_OBS: Settled[] = ['failure', 'skipped'];
const TERMINAL_PROJ = new Set(['status', 'duration_ms', 'started_at', 'ended_at']);

export interface TaskPlan {
  task: Task;
  /** producer id → outcomes that admit this task. */
  gates: Map<string, Set<Settled>>;
  /** Producers this task cleans up after (`after: {x: unwind}`). */
  unwindOf: string[];
  /** For `task_scheduled`: every producer, precedence and unwind alike. */
  dependencies: string[];
}

/** Every reference inside the `${{ }}` islands of a YAML-shaped value. */
export function referencesIn(value: unknown, out: Reference[] = []): Reference[] {
  if (typeof value === 'string') {
    for (const island of findIslands(value)) {
      const { ast } = parseExpression(island.source);
      if (ast) out.push(...collectReferences(ast));
    }
  } else if (Array.isArray(value)) {
    for (const v of value) referencesIn(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) referencesIn(v, out);
  }
  return out;
}

export function rootsIn(value: unknown): Set<string> {
  return new Set(referencesIn(value).map((r) => r.root));
}

export function planWorkflow(wf: Workflow): Map<string, TaskPlan> {
  const ids = new Set(wf.tasks.map((t) => t.id));
  const members = new Map<string, string[]>();
  for (const t of wf.tasks) if (t.group) members.set(t.group, [...(members.get(t.group) ?? []), t.id]);

  const plans = new Map<string, TaskPlan>();
  for (const t of wf.tasks) {
    const gates = new Map<string, Set<Settled>>();
    const admit = (producer: string, states: Settled[]) => {
      if (!ids.has(producer) || producer === t.id) return;
      const prev = gates.get(producer);
      gates.set(producer, prev ? new Set(states.filter((s) => prev.has(s))) : new Set(states));
    };
    const edgesFrom = (refs: Reference[]) => {
      for (const r of refs) {
        if (r.root === 'tasks' && r.segments[0]) {
          const proj = r.segments[1]?.name;
          admit(r.segments[0].name, proj === 'error' ? FAILURE_OBS : proj && TERMINAL_PROJ.has(proj) ? ALL : VALUE);
        } else if (r.root === 'group' && r.segments[0]) {
          for (const m of members.get(r.segments[0].name) ?? []) admit(m, ALL);
        }
      }
    };
    edgesFrom(referencesIn(t.with));
    // References outside `with:` are refused by the checker (NIKA-VAR-021); a file run without
    // the check still gets the ordering it obviously means.
    edgesFrom(referencesIn([t.body, t.when, t.forEach?.items]));

    const unwindOf: string[] = [];
    for (const [producer, pred] of Object.entries(t.after)) {
      if (pred === 'unwind') { if (ids.has(producer)) unwindOf.push(producer); continue; }
      admit(producer, pred === 'terminal' ? ALL : [pred]);
    }
    // A cleanup reads its producer's record whatever the outcome, so that read gates nothing.
    for (const p of unwindOf) gates.delete(p);
    plans.set(t.id, { task: t, gates, unwindOf, dependencies: [...new Set([...gates.keys(), ...unwindOf])] });
  }
  return plans;
}

/**
 * The tasks a run executes. Without `only`, all of them. With `only`, the target, everything it
 * needs upstream (minus tasks whose settled records the caller hands in as `reused`, unless
 * `withUpstream` asks for a fresh upstream), and the unwind cleanups of whatever runs.
 */
export function selectTasks(
  wf: Workflow,
  plans: Map<string, TaskPlan>,
  only?: { task: string; withUpstream: boolean },
  reused: ReadonlySet<string> = new Set(),
): { run: Set<string>; seeded: Set<string> } {
  if (!only) return { run: new Set(wf.tasks.map((t) => t.id)), seeded: new Set() };
  const run = new Set<string>();
  const seeded = new Set<string>();
  const stack = [only.task];
  while (stack.length) {
    const id = stack.pop()!;
    if (run.has(id) || !plans.has(id)) continue;
    run.add(id);
    for (const p of plans.get(id)!.gates.keys()) {
      if (!only.withUpstream && reused.has(p)) seeded.add(p);
      else stack.push(p);
    }
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const [id, plan] of plans) {
      if (!run.has(id) && plan.unwindOf.some((p) => run.has(p))) { run.add(id); grew = true; }
    }
  }
  return { run, seeded };
}
