// NIKA-VAR-*, NIKA-DAG-002/008, NIKA-VALUES-*: every reference inside `${{ }}` resolved (resolve.ts).
// A task's findings are worked out with its facts, under the usual answers about other tasks; only
// a task naming an unknown task or group, or a producer with extract:, is resolved against the
// real task table, and that result is kept until what it read of other tasks changes.
import type { CheckContext } from '../context.js';
import type { NikaDiagnostic } from '../../diagnostic.js';
import type { Task } from '../../ir.js';
import { perTask } from '../memo.js';
import type { TaskFacts } from './facts.js';
import { semanticModel, type SemanticModel } from './model.js';
import { resolveSite, type Resolver } from './resolve.js';

export function checkReferences(ctx: CheckContext): NikaDiagnostic[] {
  // Era-A files wire data with `use:` and `{{use.x}}`; their own check is checkLegacyTemplates.
  if (ctx.dialect.dialect === 'legacy') return [];
  const model = semanticModel(ctx);
  const facts = model.facts();
  const resolver: Resolver = {
    task: (id) => model.tasks.get(id),
    taskIds: () => model.tasks.keys(),
    hasGroup: (name) => model.groups.has(name),
    groupNames: () => model.groups.keys(),
  };
  const out: NikaDiagnostic[] = [];
  for (const item of model.layout()) {
    if (typeof item !== 'number') {
      resolveSite(ctx, resolver, item, out);
      continue;
    }
    const f = facts[item];
    const found = usual(model, f) ? f.refFindings : resolvedFindings(ctx, model, resolver, ctx.workflow.tasks[item], f);
    for (const d of found) out.push(d);
  }
  return out;
}

/** Every task the facts name exists without extract:, and every group exists: refFindings hold. */
function usual(model: SemanticModel, f: TaskFacts): boolean {
  for (const id of f.refTasks) {
    const producer = model.tasks.get(id);
    if (!producer || producer.extract) return false;
  }
  for (const name of f.refGroups) if (!model.groups.has(name)) return false;
  return true;
}

function resolvedFindings(ctx: CheckContext, model: SemanticModel, resolver: Resolver, task: Task, f: TaskFacts): readonly NikaDiagnostic[] {
  return perTask(ctx, task, 'references.findings', () => {
    const mine: NikaDiagnostic[] = [];
    for (const site of f.sites) resolveSite(ctx, resolver, site, mine);
    return mine;
  }, outsideKey(model, f));
}

/**
 * What a task's findings read from other tasks: whether each task it names exists and that task's
 * extract: names, whether each group it names exists, and, once a name is unknown, every id (or
 * group) that a did-you-mean could suggest.
 */
function outsideKey(model: SemanticModel, f: TaskFacts): string {
  let key = '';
  let unknownTask = false;
  let unknownGroup = false;
  for (const id of f.refTasks) {
    const producer = model.tasks.get(id);
    if (!producer) unknownTask = true;
    key += !producer ? '?,' : producer.extract ? `${JSON.stringify(Object.keys(producer.extract))},` : '-,';
  }
  key += '|';
  for (const name of f.refGroups) {
    const known = model.groups.has(name);
    if (!known) unknownGroup = true;
    key += known ? '+,' : '?,';
  }
  if (unknownTask) key += `\u0000${model.idSignature()}`;
  if (unknownGroup) key += `\u0000${model.groupSignature()}`;
  return key;
}
