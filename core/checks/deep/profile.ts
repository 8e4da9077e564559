// The YAML profile as diagnostics (reference §11.1; the judge is core/profile/yaml-profile.ts).
// The profile is law for current v1. v1-draft and legacy files predate it and their engines read
// anchors, aliases and merge keys, so there the same findings are warnings: the file still runs,
// but a migrated copy would be refused.
//
// Not task-local: the per-code caps count in document order and an anchor's fix depends on
// aliases anywhere. Each task's entry under `tasks:` is judged once and kept per task instead
// (facts.ts); the caps, the single depth finding and the anchor fixes are settled over the kept
// results on every run.
import { isMap } from 'yaml';
import type { NikaDiagnostic } from '../../diagnostic.js';
import { getNode } from '../../document.js';
import type { Task } from '../../ir.js';
import { judgeProfilePair, judgeYamlProfile, type ProfilePair, type ProfilePairs } from '../../profile/yaml-profile.js';
import type { CheckContext } from '../context.js';
import { semanticModel } from '../semantic/model.js';
import type { Check } from '../index.js';
import { deepFacts, type DeepTaskFacts } from './facts.js';

/** Where the entries of the root `tasks:` mapping are reached (root map 1, `tasks:` 2). */
const TASK_DEPTH = 2;

export const yamlProfileCheck: Check = (ctx) => {
  const current = ctx.dialect.dialect === 'v1';
  const facts = deepFacts(ctx);
  return judgeYamlProfile(ctx.doc, facts && keptTasks(ctx, facts)).map((f): NikaDiagnostic => {
    const d: NikaDiagnostic = {
      code: f.code,
      severity: current ? 'error' : 'warning',
      message: current ? f.message : `${f.message} (Current v1 refuses this; older dialects still run it.)`,
      span: f.span,
    };
    if (f.fix) d.data = { fixes: [{ title: f.fix.title, edits: [{ span: f.fix.span, newText: f.fix.newText }], preferred: true }] };
    return d;
  });
};

/**
 * The kept `tasks:` entries, when they are exactly the workflow's tasks in order (each kept
 * result names its own pair, so this costs a comparison per task, not a walk).
 */
function keptTasks(ctx: CheckContext, facts: readonly DeepTaskFacts[]): ProfilePairs {
  return (map, depth) => {
    const items = map.items;
    if (depth !== TASK_DEPTH || items.length !== facts.length || map !== getNode(ctx.doc.root, 'tasks')) return undefined;
    const kept: ProfilePair[] = new Array(facts.length);
    for (let i = 0; i < facts.length; i++) {
      const k = facts[i].profile;
      if (!k || k.pair !== items[i]) return undefined;
      kept[i] = k;
    }
    return kept;
  };
}

/** The task's own entry under `tasks:` (found by its node; `hint` is where it usually is), judged alone. */
export function profileFacts(ctx: CheckContext, task: Task, tasksNode: unknown, hint: number): ProfilePair | undefined {
  const node = semanticModel(ctx).taskNode(task);
  if (!node || !isMap(tasksNode)) return undefined;
  const items = tasksNode.items;
  const pair = items[hint]?.value === node ? items[hint] : items.find((p) => p.value === node);
  return pair ? judgeProfilePair(ctx.doc.text, pair, TASK_DEPTH) : undefined;
}
