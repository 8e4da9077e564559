// The YAML profile as diagnostics (reference §11.1; the judge is core/profile/yaml-profile.ts).
// The profile is law for current v1. v1-draft and legacy files predate it and their engines read
// anchors, aliases and merge keys, so there the same findings are warnings: the file still runs,
// but a migrated copy would be refused.
//
// Not task-local: the per-code caps count in document order and an anchor's fix depends on
// aliases anywhere. The walk of each task's value is memoized per task instead; the caps, the
// single depth finding and the anchor fixes are settled over the kept results on every run.
import type { NikaDiagnostic } from '../../diagnostic.js';
import type { Task } from '../../ir.js';
import { judgeYamlProfile, type ProfileSubtrees } from '../../profile/yaml-profile.js';
import { perTask } from '../memo.js';
import { semanticModel } from '../semantic/model.js';
import type { Check } from '../index.js';

export const yamlProfileCheck: Check = (ctx) => {
  const current = ctx.dialect.dialect === 'v1';
  let subtree: ProfileSubtrees | undefined;
  if (ctx.memo) {
    const model = semanticModel(ctx);
    const byNode = new Map<unknown, Task>();
    for (const t of ctx.workflow.tasks) {
      const n = model.taskNode(t);
      if (n && typeof n === 'object') byNode.set(n, t);
    }
    subtree = (node, depth, walk) => {
      const task = byNode.get(node);
      return task && perTask(ctx, task, 'deep.profile', walk, String(depth));
    };
  }
  return judgeYamlProfile(ctx.doc, subtree).map((f): NikaDiagnostic => {
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
