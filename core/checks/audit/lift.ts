// NIKA-AUTH-011 (reference §2 `lift`): a door that lifts nothing is refused. A taint lift must
// name a binding the task actually reads in its effect surface (verb fields, invoke args, with
// values); a data-as-code lift needs a code-bearing fetch on its task. When that surface holds a
// value known only at run time, the door may serve the run-time re-check, so no claim is made.
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { codeBearingClass } from '../../audit/code-bearing.js';
import { taskEffects } from '../../audit/effects.js';
import type { ExprSite } from '../../scan.js';
import { chainOf } from '../../audit/resolve.js';
import { semanticModel } from '../semantic/model.js';
import { liftsOf } from './lifts.js';

// Task-local: a lift entry is judged against its own task's surface and effects only.
export function checkLifts(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect !== 'v1') return [];
  const out: NikaDiagnostic[] = [];
  let byId: Map<string | undefined, ExprSite[]> | undefined;
  for (const task of ctx.workflow.tasks) {
    const lifts = liftsOf(ctx, task);
    if (!lifts.length) continue;
    // One pass over the sites for all tasks: filtering them per task was quadratic.
    if (!byId) {
      byId = new Map();
      for (const s of semanticModel(ctx).sites) {
        if (s.surface !== 'body' && s.surface !== 'with') continue;
        const list = byId.get(s.taskId);
        if (list) list.push(s);
        else byId.set(s.taskId, [s]);
      }
    }
    const surface = byId.get(task.id) ?? [];
    const reads = new Set<string>();
    let defers = false;
    for (const s of surface) {
      const chain = chainOf(s.ast);
      if (!chain || !/^(inputs|const|secrets)\.[^.]+$/.test(chain)) defers = true;
      for (const r of s.references) {
        const dotted = [r.root, ...r.segments.map((g) => g.name)];
        for (let i = 2; i <= dotted.length; i++) reads.add(dotted.slice(0, i).join('.'));
      }
    }
    if (defers) continue;
    const codeFetch = taskEffects(ctx, task).some((e) => e.kind === 'net' && e.task === task && e.tool === 'nika:fetch' && e.url !== undefined && codeBearingClass(e.url));
    for (const l of lifts) {
      if (l.law === 'taint' && l.from && /^(const|secrets)\./.test(l.from)) {
        // Constants and secrets are trusted by definition: the taint law never fires on them.
        out.push(diag('NIKA-AUTH-011', `Task '${task.id}' lifts the taint law on ${l.from}, but ${l.from.split('.')[0]} values are trusted: the law never applies to them. Remove the entry.`, l.lawSpan));
      } else if (l.law === 'taint' && l.from && !reads.has(l.from)) {
        out.push(diag('NIKA-AUTH-011', `Task '${task.id}' lifts the taint law on ${l.from}, but nothing in this task reads it: the door guards nothing. Remove the entry, or read the binding it was written for.`, l.lawSpan));
      } else if (l.law === 'data-as-code' && !codeFetch) {
        out.push(diag('NIKA-AUTH-011', `Task '${task.id}' lifts the data-as-code law, but it fetches no code-bearing artifact: the door guards nothing. Remove the entry.`, l.lawSpan));
      }
    }
  }
  return out;
}
