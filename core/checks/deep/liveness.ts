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

type State = 'success' | 'failure' | 'skipped' | 'cancelled';
const ALL: State[] = ['success', 'failure', 'skipped', 'cancelled'];
const OBSERVE = new Set(['status', 'duration_ms', 'started_at', 'ended_at']);

interface Edge { producer: string; pass: State[]; span: Span; what: string }

export const livenessCheck: Check = (ctx) => {
  if (ctx.dialect.dialect !== 'v1') return [];
  const out: NikaDiagnostic[] = [];
  const model = semanticModel(ctx);
  const tasks = model.tasks;
  const edges = new Map<string, Edge[]>();
  for (const t of ctx.workflow.tasks) edges.set(t.id, edgesOf(ctx, t));

  const states = new Map<string, Set<State>>();
  const visiting = new Set<string>();
  const statesOf = (id: string): Set<State> => {
    const known = states.get(id);
    if (known) return known;
    const task = tasks.get(id);
    // A cycle (reported as DAG-001) or an unknown task (DAG-002): assume anything can happen.
    if (!task || visiting.has(id)) return new Set(ALL);
    visiting.add(id);
    let admitted = true;
    let mayCancel = false;
    for (const e of edges.get(id) ?? []) {
      const ps = statesOf(e.producer);
      if (!e.pass.some((s) => ps.has(s))) admitted = false;
      if ([...ps].some((s) => !e.pass.includes(s))) mayCancel = true;
    }
    visiting.delete(id);
    const result = admitted ? own(ctx, task) : new Set<State>(['cancelled']);
    if (admitted && mayCancel) result.add('cancelled');
    states.set(id, result);
    return result;
  };

  for (const t of ctx.workflow.tasks) {
    for (const e of edges.get(t.id) ?? []) {
      const ps = statesOf(e.producer);
      if (e.pass.some((s) => ps.has(s))) continue;
      if (ps.size === 1 && ps.has('cancelled')) continue; // dead upstream, reported there
      const can = [...ps].join(' or ');
      out.push(diag('NIKA-DAG-006', `"${t.id}" can never start: ${e.what} needs "${e.producer}" to end ${e.pass.join(' or ')}, but it can only end ${can}.`, e.span));
    }
    const w = constantWhen(ctx, t);
    if (w) out.push(diag('NIKA-DAG-006', `when: is false whatever happens (it reads only constants), so "${t.id}" never runs. Write when: false if that is the intent, or fix the condition.`, w));
  }
  return out;
};

/** The terminal states a task can reach once its gate admits it. */
function own(ctx: CheckContext, task: Task): Set<State> {
  const s = new Set<State>();
  const node = semanticModel(ctx).taskNode(task);
  const when = getNode(node, 'when');
  const neverRuns = (isScalar(when) && when.value === false) || !!constantWhen(ctx, task);
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
  const site = model.sitesOfScalar(node).find((s) => s.syntax === 'expr');
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
    if (pred === 'unwind' || !model.tasks.has(producer)) continue;
    const valueNode = getPair(after, producer)?.value;
    const span = spanOf(valueNode);
    if (!span) continue;
    const pass: State[] = pred === 'terminal' ? ALL : [pred as State];
    out.push({ producer, pass, span, what: `after: { ${producer}: ${pred} }` });
  }
  for (const site of model.sitesOfTask(task)) {
    if (site.surface !== 'with' || site.syntax !== 'expr') continue;
    for (const ref of site.references) {
      const producer = ref.segments[0]?.name;
      if (ref.root === 'group' && producer) {
        continue; // a fold admits every terminal state of every member
      }
      if (ref.root !== 'tasks' || !producer || !model.tasks.has(producer)) continue;
      const proj = ref.segments[1]?.name;
      if (!proj) continue; // bare tasks.X is VAR-020
      const pass: State[] = OBSERVE.has(proj) ? ALL : proj === 'error' ? ['failure', 'skipped'] : ['success', 'skipped'];
      out.push({ producer, pass, span: ref.span, what: `reading tasks.${producer}.${proj}` });
    }
  }
  return out;
}
