// The YAML profile as diagnostics (reference §11.1; the judge is core/profile/yaml-profile.ts).
// The profile is law for current v1. v1-draft and legacy files predate it and their engines read
// anchors, aliases and merge keys, so there the same findings are warnings: the file still runs,
// but a migrated copy would be refused.
//
// Not task-local: the per-code caps count in document order and an anchor's fix depends on
// aliases anywhere. Each task's entry under `tasks:` is judged once and kept per task instead;
// the caps, the single depth finding and the anchor fixes are settled over the kept results.
import { isMap } from 'yaml';
import type { YAMLMap } from 'yaml';
import type { NikaDiagnostic } from '../../diagnostic.js';
import { getNode } from '../../document.js';
import type { Task } from '../../ir.js';
import { judgeProfilePair, judgeYamlProfile, type ProfilePair, type ProfilePairs } from '../../profile/yaml-profile.js';
import type { CheckContext } from '../context.js';
import { perTask } from '../memo.js';
import { semanticModel } from '../semantic/model.js';
import type { Check } from '../index.js';

export const yamlProfileCheck: Check = (ctx) => {
  const current = ctx.dialect.dialect === 'v1';
  return judgeYamlProfile(ctx.doc, ctx.memo ? keptTasks(ctx) : undefined).map((f): NikaDiagnostic => {
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
 * The `tasks:` entries, judged per task, when they are exactly the workflow's tasks in order
 * (each kept result names its own pair, so the check costs a comparison per task, not a walk).
 */
function keptTasks(ctx: CheckContext): ProfilePairs {
  const tasksNode = getNode(ctx.doc.root, 'tasks');
  return (map, depth) => {
    if (map !== tasksNode) return undefined;
    const items = map.items;
    const list = ctx.workflow.tasks;
    if (items.length !== list.length) return undefined;
    const kept: ProfilePair[] = new Array(list.length);
    const key = String(depth);
    for (let i = 0; i < list.length; i++) {
      const task = list[i];
      const k = perTask(ctx, task, 'deep.profile', () => judgeTask(ctx, task, map, i, depth), key);
      if (!k || k.pair !== items[i]) return undefined;
      kept[i] = k;
    }
    return kept;
  };
}

/** The task's own entry (found by its node; `hint` is where it usually is), judged alone. */
function judgeTask(ctx: CheckContext, task: Task, map: YAMLMap<unknown, unknown>, hint: number, depth: number): ProfilePair | undefined {
  const node = semanticModel(ctx).taskNode(task);
  if (!node || !isMap(map)) return undefined;
  const pair = map.items[hint]?.value === node ? map.items[hint] : map.items.find((p) => p.value === node);
  return pair ? judgeProfilePair(ctx.doc.text, pair, depth) : undefined;
}
