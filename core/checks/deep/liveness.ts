// Static liveness (reference §2.1, NIKA-DAG-006): an edge whose pass-set can never be met, or a
// `when:` that is false whatever happens. Each task gets the set of terminal states it can end
// in, computed in dependency order from its own policies; an edge is dead when its producer can
// never end in a state the edge admits.
//
// Contradiction resolved (§2.1 vs §4.5): `when: false` written as a YAML literal is the spec's
// documented never-run switch, so it is not itself a finding; a `${{ }}` condition that is false
// for every value (it reads only constants) is DAG-006. Either way the task always ends
// `skipped`, so `after: { x: success }` on it is a dead edge.
//
// Only the first dead edge of a chain is reported: a consumer of a task that can only be
// cancelled is dead for the same reason, already reported upstream.
import { isScalar } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, spanOf } from '../../document.js';
import { evaluate } from '../../expr/index.js';
import type { Task } from '../../ir.js';
import type { Span } from '../../text.js';
import { semanticModel } from '../semantic/model.js';
import type { Check } from '../index.js';
import { deepFacts } from './facts.js';

type State = 'success' | 'failure' | 'skipped' | 'cancelled';
const ALL: State[] = ['success', 'failure', 'skipped', 'cancelled'];
const OBSERVE = new Set(['status', 'duration_ms', 'started_at', 'ended_at']);
// State sets as bit masks in the whole-document pass (it runs over every task on every edit).
const BIT: Record<string, number> = { success: 1, failure: 2, skipped: 4, cancelled: 8 };
const ALL_MASK = 15;
const CANCELLED = 8;
const SUCCESS = 1;

interface Edge { producer: string; pass: State[]; passMask: number; span: Span; what: string }

/** What liveness needs of one task, read from that task (and const:) alone. */
export interface LivenessFacts {
  /** Its edges, including those whose producer is not a task (dropped by the whole-document pass). */
  edges: Edge[];
  /** The states it can end in once admitted, in the order findings list them. */
  own: State[];
  ownMask: number;
  /** The span of a `when:` that is false from constants alone. */
  constantWhen?: Span;
  /** It can end success once admitted, and each of its edges admits success. */
  plain: boolean;
}

export const livenessCheck: Check = (ctx) => {
  if (ctx.dialect.dialect !== 'v1') return [];
  const out: NikaDiagnostic[] = [];
  const list = ctx.workflow.tasks;
  const n = list.length;
  const kept = deepFacts(ctx);
  const facts: LivenessFacts[] = new Array(n);
  let seeds = false;
  for (let i = 0; i < n; i++) {
    const t = list[i];
    const f = (facts[i] = kept ? kept[i].liveness : livenessFacts(ctx, t));
    if (!f.plain) seeds = true;
    if (f.constantWhen) out.push(constantWhenFinding(t, f.constantWhen));
  }
  // A dead edge needs a task that cannot succeed or an edge that does not admit success: else
  // every task can end success (by induction over the edges; a cycle assumes anything), every
  // edge admits it, and nothing is dead. The usual file stops here.
  if (!seeds) return out;
  out.length = 0;

  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) index.set(list[i].id, i);
  // Each edge's producer as an index (-1: not a task, DAG-002), resolved once: edges of task i
  // are producers[first[i] .. first[i + 1]).
  const first = new Int32Array(n + 1);
  const producers: number[] = [];
  for (let i = 0; i < n; i++) {
    first[i] = producers.length;
    for (const e of facts[i].edges) producers.push(index.get(e.producer) ?? -1);
  }
  first[n] = producers.length;

  const states = new Uint8Array(n); // 0: not known yet
  const visiting = new Uint8Array(n);
  const statesOf = (i: number): number => {
    if (states[i]) return states[i];
    // A cycle (reported as DAG-001): assume anything can happen.
    if (visiting[i]) return ALL_MASK;
    visiting[i] = 1;
    let admitted = true;
    let mayCancel = false;
    const edges = facts[i].edges;
    for (let k = 0; k < edges.length; k++) {
      const p = producers[first[i] + k];
      if (p < 0) continue;
      const ps = statesOf(p);
      const pass = edges[k].passMask;
      if (!(ps & pass)) admitted = false;
      if (ps & ~pass) mayCancel = true;
    }
    visiting[i] = 0;
    const result = admitted ? facts[i].ownMask | (mayCancel ? CANCELLED : 0) : CANCELLED;
    states[i] = result;
    return result;
  };

  for (let i = 0; i < n; i++) {
    const t = list[i];
    const f = facts[i];
    for (let k = 0; k < f.edges.length; k++) {
      const p = producers[first[i] + k];
      if (p < 0) continue;
      const e = f.edges[k];
      const ps = statesOf(p);
      if (ps & e.passMask) continue;
      if (ps === CANCELLED) continue; // dead upstream, reported there
      // Admitted (else it would be cancelled only): its own states, then cancelled if it may be.
      const can = (ps & CANCELLED ? [...facts[p].own, 'cancelled'] : facts[p].own).join(' or ');
      out.push(diag('NIKA-DAG-006', `"${t.id}" can never start: ${e.what} needs "${e.producer}" to end ${e.pass.join(' or ')}, but it can only end ${can}.`, { start: e.span.start, end: e.span.end }));
    }
    if (f.constantWhen) out.push(constantWhenFinding(t, f.constantWhen));
  }
  return out;
};

function constantWhenFinding(t: Task, w: Span): NikaDiagnostic {
  return diag('NIKA-DAG-006', `when: is false whatever happens (it reads only constants), so "${t.id}" never runs. Write when: false if that is the intent, or fix the condition.`, { start: w.start, end: w.end });
}

function maskOf(states: Iterable<string>): number {
  let m = 0;
  for (const s of states) m |= BIT[s] ?? 0;
  return m;
}

export function livenessFacts(ctx: CheckContext, task: Task): LivenessFacts {
  const w = constantWhen(ctx, task);
  const own = [...ownStates(ctx, task, w)];
  const edges = edgesOf(ctx, task);
  const ownMask = maskOf(own);
  const f: LivenessFacts = { edges, own, ownMask, plain: !!(ownMask & SUCCESS) && edges.every((e) => e.passMask & SUCCESS) };
  if (w) f.constantWhen = w;
  return f;
}

/** The terminal states a task can reach once its gate admits it. */
function ownStates(ctx: CheckContext, task: Task, constant = constantWhen(ctx, task)): Set<State> {
  const s = new Set<State>();
  const node = semanticModel(ctx).taskNode(task);
  const when = getNode(node, 'when');
  const neverRuns = (isScalar(when) && when.value === false) || !!constant;
  if (neverRuns) return new Set(['skipped']);
  const whenLive = task.when !== undefined && task.when !== true;
  const items = task.forEach?.items;
  if (Array.isArray(items) && items.length === 0) return new Set(['skipped']);
  if (whenLive || (task.forEach && !Array.isArray(items))) s.add('skipped');
  s.add('success');
  const oe = task.onError;
  const catchesAll = !!oe && !(oe.onCodes && oe.onCodes.length);
  if (!catchesAll) s.add('failure');
  else if (oe!.skip === true) s.add('skipped');
  else if (oe!.skip === false && !oe!.recover) s.add('failure');
  return s;
}

/** The span of a `when:` that evaluates to false from constants alone, else undefined. */
function constantWhen(ctx: CheckContext, task: Task): Span | undefined {
  const model = semanticModel(ctx);
  const node = getNode(model.taskNode(task), 'when');
  if (!isScalar(node) || typeof node.value !== 'string') return undefined;
  // The task's own sites (the when: scalar is inside it), not the whole-file scalar index.
  const site = model.sitesOfTask(task).find((s) => s.scalar === node && s.syntax === 'expr');
  if (!site?.ast || site.errors.length || !site.whole) return undefined;
  if (site.references.some((r) => r.root !== 'const')) return undefined;
  if (hasFreeIdent(site.ast)) return undefined;
  try {
    return evaluate(site.ast, { const: ctx.workflow.const as Record<string, unknown>, inLoop: false }) === false ? spanOf(node) : undefined;
  } catch {
    return undefined;
  }
}

/** Bare identifiers other than `const` (item, index, unknown roots) make a condition non-constant. */
function hasFreeIdent(n: unknown): boolean {
  if (!n || typeof n !== 'object') return false;
  const node = n as { kind?: string; name?: string };
  if (node.kind === 'ident') return node.name !== 'const';
  return Object.values(n).some((v) => (Array.isArray(v) ? v.some(hasFreeIdent) : typeof v === 'object' && hasFreeIdent(v)));
}

function edgesOf(ctx: CheckContext, task: Task): Edge[] {
  const model = semanticModel(ctx);
  const out: Edge[] = [];
  const node = model.taskNode(task);
  const after = getNode(node, 'after');
  for (const [producer, pred] of Object.entries(task.after)) {
    if (pred === 'unwind') continue;
    const valueNode = getPair(after, producer)?.value;
    const span = spanOf(valueNode);
    if (!span) continue;
    const pass: State[] = pred === 'terminal' ? ALL : [pred as State];
    out.push({ producer, pass, passMask: maskOf(pass), span, what: `after: { ${producer}: ${pred} }` });
  }
  for (const site of model.sitesOfTask(task)) {
    if (site.surface !== 'with' || site.syntax !== 'expr') continue;
    for (const ref of site.references) {
      const producer = ref.segments[0]?.name;
      if (ref.root === 'group' && producer) {
        continue; // a fold admits every terminal state of every member
      }
      if (ref.root !== 'tasks' || !producer) continue;
      const proj = ref.segments[1]?.name;
      if (!proj) continue; // bare tasks.X is VAR-020
      const pass: State[] = OBSERVE.has(proj) ? ALL : proj === 'error' ? ['failure', 'skipped'] : ['success', 'skipped'];
      out.push({ producer, pass, passMask: maskOf(pass), span: ref.span, what: `reading tasks.${producer}.${proj}` });
    }
  }
  return out;
}
