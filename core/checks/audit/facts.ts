// What the whole-document audit checks know of each task on its own, in one memo entry per task,
// gathered once per analysis for all of them: at 1,000 tasks a lookup per task and per check was
// itself most of a keystroke's audit time. Every part reads only its task and the envelope (the
// permits block, secrets, consts and input defaults), whose change drops the memo.
import type { CheckContext } from '../context.js';
import { taskEffects, type Effect } from '../../audit/effects.js';
import type { Task } from '../../ir.js';
import { perTask } from '../memo.js';
import { taskUsage, type TaskUsage } from './entries.js';
import { computeOrderFacts, type OrderFacts } from './order.js';
import { escapingEffects, permitEntries } from './permits.js';
import { computeFlowFacts, type FlowFacts } from './secrets.js';

interface TaskAuditFacts {
  effects: readonly Effect[];
  /** Under a permits block: the effects it refuses, and the entries the task uses. */
  escaping: readonly Effect[];
  usage?: TaskUsage;
  order: OrderFacts;
  /** With secrets declared: what the taint pass reads. */
  flow?: FlowFacts;
}

/** The facts of every task, by position in `ctx.workflow.tasks`. */
export interface AuditFacts {
  effects: ReadonlyArray<readonly Effect[]>;
  escaping: ReadonlyArray<readonly Effect[]>;
  usage: ReadonlyArray<TaskUsage | undefined>;
  order: readonly OrderFacts[];
  flow: ReadonlyArray<FlowFacts | undefined>;
}

const cache = new WeakMap<CheckContext['doc'], { wf: CheckContext['workflow']; facts: AuditFacts }>();

export function auditFacts(ctx: CheckContext): AuditFacts {
  const hit = cache.get(ctx.doc);
  if (hit && hit.wf === ctx.workflow) return hit.facts;
  const per = ctx.workflow.tasks.map((task) => perTask(ctx, task, 'audit.facts', () => compute(ctx, task)));
  // Each list is made when a check first reads it: most documents use two or three of them.
  let effects: AuditFacts['effects'] | undefined;
  let escaping: AuditFacts['escaping'] | undefined;
  let usage: AuditFacts['usage'] | undefined;
  let order: AuditFacts['order'] | undefined;
  let flow: AuditFacts['flow'] | undefined;
  const facts: AuditFacts = {
    get effects() { return (effects ??= per.map((f) => f.effects)); },
    get escaping() { return (escaping ??= per.map((f) => f.escaping)); },
    get usage() { return (usage ??= per.map((f) => f.usage)); },
    get order() { return (order ??= per.map((f) => f.order)); },
    get flow() { return (flow ??= per.map((f) => f.flow)); },
  };
  cache.set(ctx.doc, { wf: ctx.workflow, facts });
  return facts;
}

function compute(ctx: CheckContext, task: Task): TaskAuditFacts {
  const wf = ctx.workflow;
  const effects = taskEffects(ctx, task);
  return {
    effects,
    escaping: wf.permits ? escapingEffects(ctx, wf.permits, effects) : [],
    usage: wf.permits ? taskUsage(effects, permitEntries(ctx)) : undefined,
    order: computeOrderFacts(ctx, task),
    flow: Object.keys(wf.secrets).length ? computeFlowFacts(ctx, task) : undefined,
  };
}
