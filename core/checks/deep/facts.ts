// What the whole-document deep checks (the YAML profile, run rules, liveness, jq) read from one
// task alone, kept as one record per task (memo.ts) and gathered once per analysis: each of them
// then walks an array of 1,000 records instead of looking up its own memo entry per task.
//
// Only under the incremental analyzer (current v1): a full analysis has nothing to keep, and each
// check computes just its own part.
import { isScalar } from 'yaml';
import { getNode } from '../../document.js';
import type { NikaDiagnostic } from '../../diagnostic.js';
import type { Task, Workflow } from '../../ir.js';
import type { ProfilePair } from '../../profile/yaml-profile.js';
import type { CheckContext } from '../context.js';
import { perTask } from '../memo.js';
import { eolOf } from '../semantic/edits.js';
import { semanticModel } from '../semantic/model.js';
import { jqFacts, type JqFacts } from './jq.js';
import { livenessFacts, type LivenessFacts } from './liveness.js';
import { profileFacts } from './profile.js';
import { runRulesFacts } from './run-rules.js';

export interface DeepTaskFacts {
  /** The task's entry under `tasks:` judged alone, when it can be (see profile.ts). */
  profile: ProfilePair | undefined;
  runRules: readonly NikaDiagnostic[];
  liveness: LivenessFacts;
  jq: JqFacts;
}

const gathered = new WeakMap<Workflow, { doc: CheckContext['doc']; facts: readonly DeepTaskFacts[] }>();

/** The records of `ctx.workflow.tasks`, in order; undefined without a memo. */
export function deepFacts(ctx: CheckContext): readonly DeepTaskFacts[] | undefined {
  if (!ctx.memo || ctx.dialect.dialect !== 'v1') return undefined;
  const hit = gathered.get(ctx.workflow);
  if (hit && hit.doc === ctx.doc) return hit.facts;
  const model = semanticModel(ctx);
  const tasksNode = getNode(ctx.doc.root, 'tasks');
  const entropy = getNode(getNode(ctx.doc.root, 'run'), 'entropy');
  const noEntropy = isScalar(entropy) && entropy.value === 'none';
  // A jitter fix appended to a block map takes the file's line-ending style (the one thing read
  // from outside the task): the key under entropy: none.
  const key = noEntropy ? eolOf(ctx.doc.text) : '';
  const list = ctx.workflow.tasks;
  const facts: DeepTaskFacts[] = new Array(list.length);
  let at = 0;
  let task: Task;
  const compute = (): DeepTaskFacts => {
    const node = model.taskNode(task);
    return {
      profile: profileFacts(ctx, task, tasksNode, at),
      runRules: runRulesFacts(ctx, node, noEntropy),
      liveness: livenessFacts(ctx, task),
      jq: jqFacts(ctx.doc, node, task),
    };
  };
  for (; at < list.length; at++) {
    task = list[at];
    facts[at] = perTask(ctx, task, 'deep.facts', compute, key);
  }
  gathered.set(ctx.workflow, { doc: ctx.doc, facts });
  return facts;
}
