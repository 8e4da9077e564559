// The task graph: every edge must name a declared task (DAG-002), the precedence graph must be
// acyclic (DAG-001), a recovery value may not come from downstream (DAG-004), and an unwind
// task may not join a group (DAG-009). Older dialects' wiring (`depends_on`, `flows:`, `use:`)
// is checked against the same task table.
import { isSeq } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, spanOf } from '../../document.js';
import type { Span } from '../../text.js';
import { scalars } from './facts.js';
import { semanticModel } from './model.js';
import { closest, didYouMean, renameFix } from './suggest.js';

function unknownTask(ids: Iterable<string>, name: string, span: Span, what: string): NikaDiagnostic {
  const s = closest(name, ids);
  return diag('NIKA-DAG-002', `${what} names task '${name}', which is not declared.${didYouMean(s)}`, span, 'error', renameFix(span, s));
}

export function checkEdges(ctx: CheckContext): NikaDiagnostic[] {
  const model = semanticModel(ctx);
  const { tasks } = model;
  const dialect = ctx.dialect.dialect;
  const out: NikaDiagnostic[] = [];
  for (const f of model.facts()) {
    for (const e of f.edges) if (!tasks.has(e.id)) out.push(unknownTask(tasks.keys(), e.id, e.span, e.what));
  }
  if (dialect !== 'v1') {
    const flows = getNode(ctx.doc.root, 'flows');
    for (const flow of isSeq(flows) ? flows.items : []) {
      for (const end of ['source', 'target']) {
        for (const s of scalars(getNode(flow, end))) {
          const id = String(s.value ?? '');
          if (!tasks.has(id)) out.push(unknownTask(tasks.keys(), id, spanOf(s)!, `flows: ${end}`));
        }
      }
    }
  }
  return out;
}

/**
 * Tarjan's strongly connected components over the dependency map, iterative so a long chain of
 * tasks (hostile or generated files) cannot overflow the stack.
 */
function components(nodes: string[], deps: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ v: string; it: Iterator<string> }> = [];
    const enter = (v: string) => {
      index.set(v, counter); low.set(v, counter); counter++;
      stack.push(v); onStack.add(v);
      work.push({ v, it: (deps.get(v) ?? new Set<string>()).values() });
    };
    enter(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const next = frame.it.next();
      if (!next.done) {
        const w = next.value;
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      const v = frame.v;
      if (work.length) { const parent = work[work.length - 1].v; low.set(parent, Math.min(low.get(parent)!, low.get(v)!)); }
      if (low.get(v) === index.get(v)) {
        const comp: string[] = [];
        let w: string;
        do { w = stack.pop()!; onStack.delete(w); comp.push(w); } while (w !== v);
        out.push(comp);
      }
    }
  }
  return out;
}

/** One cycle through `start` inside its component, in data-flow order (producer → consumer). */
function cycleThrough(start: string, comp: Set<string>, deps: Map<string, Set<string>>): string[] {
  // Walk producers backwards (consumer ← producer) until we return to start, then reverse.
  const prev = new Map<string, string>();
  const queue = [start];
  const seen = new Set<string>();
  while (queue.length) {
    const v = queue.shift()!;
    for (const p of deps.get(v) ?? []) {
      if (!comp.has(p)) continue;
      if (p === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)!) path.push(x);
        path.push(start);
        return path;
      }
      if (!seen.has(p)) { seen.add(p); prev.set(p, v); queue.push(p); }
    }
  }
  return [start, start];
}

export function checkCycles(ctx: CheckContext): NikaDiagnostic[] {
  const model = semanticModel(ctx);
  // The usual file: every edge points upwards, so there is no cycle to look for.
  if (model.forwardOnly()) return [];
  const { deps } = model;
  const out: NikaDiagnostic[] = [];
  const byId = new Map(ctx.workflow.tasks.map((t) => [t.id, t]));
  for (const comp of components(ctx.workflow.tasks.map((t) => t.id), deps)) {
    const single = comp.length === 1;
    if (single && !deps.get(comp[0])?.has(comp[0])) continue;
    const set = new Set(comp);
    // Past a few hundred members a path per task costs more than it tells; name the size instead.
    const big = comp.length > 200;
    for (const id of comp) {
      const cycle = big ? [id, '…', id] : cycleThrough(id, set, deps);
      const msg = single
        ? `task '${id}' depends on itself (${cycle.join(' → ')}) through with: or after:.`
        : `dependency cycle: ${cycle.join(' → ')}. Tasks in a cycle can never start; remove one with:/after: edge.`;
      out.push(diag('NIKA-DAG-001', msg, byId.get(id)!.idSpan, 'error', { cycle }));
    }
  }
  return out;
}

export function checkRecoverAndUnwind(ctx: CheckContext): NikaDiagnostic[] {
  const model = semanticModel(ctx);
  const out: NikaDiagnostic[] = [];
  const facts = model.facts();
  const wf = ctx.workflow;
  for (const i of model.layout()) {
    if (typeof i !== 'number') continue; // recover: is a task field
    const task = wf.tasks[i];
    for (const { name, span } of facts[i].recover) {
      if (!model.tasks.has(name)) continue;
      const self = name === task.id;
      if (self || model.reaches(task.id, name)) {
        out.push(diag('NIKA-DAG-004', self
          ? `on_error.recover cannot read this task's own record: it has no value until the recovery settles.`
          : `on_error.recover reads '${name}', which runs after '${task.id}' (it depends on it), so the recovery would wait forever.`, span));
      }
    }
  }
  for (let i = 0; i < facts.length; i++) {
    const span = facts[i].unwindGroup;
    if (span === undefined) continue;
    const task = wf.tasks[i];
    out.push(diag('NIKA-DAG-009', `an unwind (cleanup) task cannot belong to a group; remove group: ${task.group}.`, span ?? task.idSpan));
  }
  return out;
}
