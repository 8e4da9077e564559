// The task-level `lift:` doors (reference §2 task envelope): each entry lifts one law on its own
// task: `taint` for one named binding (`from:`), or `data-as-code` for a fetch.
import { isMap, isScalar, isSeq } from 'yaml';
import type { CheckContext } from '../context.js';
import { getNode, getPair, keySpan, spanOf } from '../../document.js';
import type { Task } from '../../ir.js';
import type { Span } from '../../text.js';
import { semanticModel } from '../semantic/model.js';

export interface Lift {
  law: string;
  from?: string;
  /** The whole entry, and its `law:` key (where a finding about the entry lands). */
  span: Span;
  lawSpan: Span;
}

export function liftsOf(ctx: CheckContext, task: Task): Lift[] {
  const lift = getNode(semanticModel(ctx).taskNode(task), 'lift');
  if (!isSeq(lift)) return [];
  const out: Lift[] = [];
  for (const item of lift.items) {
    if (!isMap(item)) continue;
    const law = getNode(item, 'law');
    const from = getNode(item, 'from');
    const span = spanOf(item);
    const lawPair = getPair(item, 'law');
    if (!isScalar(law) || typeof law.value !== 'string' || !span) continue;
    out.push({
      law: law.value,
      from: isScalar(from) && typeof from.value === 'string' ? from.value : undefined,
      span,
      lawSpan: (lawPair && keySpan(lawPair)) ?? span,
    });
  }
  return out;
}

/** The untrusted sources of a value that no `lift: [{law: taint, from}]` of the task covers. */
export function unliftedTaint(ctx: CheckContext, task: Task, untrusted: readonly string[]): string[] {
  const lifted = new Set(liftsOf(ctx, task).filter((l) => l.law === 'taint' && l.from).map((l) => l.from!));
  return untrusted.filter((u) => !lifted.has(u));
}

export function liftsDataAsCode(ctx: CheckContext, task: Task): boolean {
  return liftsOf(ctx, task).some((l) => l.law === 'data-as-code');
}
