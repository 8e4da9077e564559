// Resolution of every reference inside `${{ }}` against the five namespaces and loop locals
// (reference §4.3), with the per-surface legality table of §4.4 and the with-boundary rule.
// What it needs to know about other tasks comes through a Resolver, so the findings of one task
// can be worked out ahead under the usual answers (every task and group it names exists, with no
// extract:) and kept until those answers change.
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic, type Severity } from '../../diagnostic.js';
import type { ExprNode, Reference } from '../../expr/index.js';
import { TASK_PROJECTIONS } from '../../catalog/cel.js';
import type { ExprSite, Surface } from '../../scan.js';
import type { Span } from '../../text.js';
import { hoistFix } from './hoist.js';
import { findIslands, parseExpression, collectReferences } from '../../expr/index.js';
import { closest, didYouMean, renameFix } from './suggest.js';

const PROJECTIONS = TASK_PROJECTIONS.map((p) => p.name);
const KNOWN_ROOTS = ['inputs', 'const', 'secrets', 'with', 'tasks', 'group', 'item', 'index'];

/** Surfaces where `tasks.*` is outside the data boundary and hoisting into `with:` is the fix. */
const HOISTABLE: ReadonlySet<Surface> = new Set(['body', 'when', 'for_each.items']);

const SURFACE_NAME: Record<Surface, string> = {
  model: 'the envelope model:', permits: 'permits:', declaration: 'a declaration', with: 'a with: value',
  when: 'when:', 'for_each.items': 'for_each.items', body: 'a verb body', recover: 'on_error.recover',
  extract: 'extract:', outputs: 'outputs:', task: 'this task field', other: 'this field',
};

/** References of every `${{ }}` in a plain value (IR `with:` values, which are normalized for every dialect). */
export function referencesIn(value: unknown, out: Reference[] = [], budget = { n: 5000 }): Reference[] {
  if (--budget.n < 0) return out;
  if (typeof value === 'string') {
    for (const island of findIslands(value)) {
      try {
        const { ast } = parseExpression(island.source);
        if (ast) out.push(...collectReferences(ast));
      } catch {
        // Reported on the island itself by the syntax check; the graph just lacks the edge.
      }
    }
  } else if (Array.isArray(value)) {
    for (const v of value) referencesIn(v, out, budget);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) referencesIn(v, out, budget);
  }
  return out;
}

/** The facts about other tasks that resolving one task's references reads. */
export interface Resolver {
  /** The task of that id, or undefined. */
  task(id: string): { extract?: Record<string, unknown> } | undefined;
  taskIds(): Iterable<string>;
  hasGroup(name: string): boolean;
  groupNames(): Iterable<string>;
}

/** The answers of most files: every name is declared, and no producer has extract:. */
const PRODUCER = Object.freeze({});
export const USUAL: Resolver = {
  task: () => PRODUCER,
  taskIds: () => [],
  hasGroup: () => true,
  groupNames: () => [],
};

/** Sites whose references checkReferences resolves. */
export function resolvedSite(site: ExprSite): boolean {
  return site.syntax === 'expr' && site.surface !== 'permits' && site.surface !== 'extract';
}

/** The task ids (`tasks.<id>`) and group names (`group.<name>`) that resolving `sites` asks a Resolver about. */
export function namedTargets(sites: readonly ExprSite[]): { tasks: string[]; groups: string[] } {
  const tasks = new Set<string>();
  const groups = new Set<string>();
  for (const site of sites) {
    if (!resolvedSite(site)) continue;
    for (const ref of site.references) {
      const first = ref.segments[0];
      if (!first) continue;
      if (ref.root === 'tasks') tasks.add(first.name);
      else if (ref.root === 'group') groups.add(first.name);
    }
  }
  return { tasks: [...tasks], groups: [...groups] };
}

export function resolveSite(ctx: CheckContext, resolver: Resolver, site: ExprSite, out: NikaDiagnostic[]): void {
  if (!resolvedSite(site)) return;
  let guarded: Span[] | undefined;
  for (const ref of site.references) {
    if (ref.root === '') continue;
    guarded ??= hasArguments(site.ast);
    for (const d of checkReference(ctx, resolver, site, ref, guarded.some((g) => within(ref.span, g)))) out.push(d);
  }
}

function within(inner: Span, outer: Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

/** Spans of `has(…)` arguments: an absent key there is the point of the test, not a mistake. */
function hasArguments(ast: ExprNode | undefined): Span[] {
  const out: Span[] = [];
  const visit = (n: ExprNode | undefined): void => {
    if (!n) return;
    switch (n.kind) {
      case 'call':
        if (n.callee === 'has' && !n.target && n.args[0]) out.push(n.args[0].span);
        visit(n.target);
        n.args.forEach(visit);
        return;
      case 'member': visit(n.object); return;
      case 'index': visit(n.object); visit(n.index); return;
      case 'list': n.items.forEach(visit); return;
      case 'unary': visit(n.operand); return;
      case 'binary': visit(n.left); visit(n.right); return;
      case 'ternary': visit(n.test); visit(n.consequent); visit(n.alternate); return;
      default: return;
    }
  };
  visit(ast);
  return out;
}

function checkReference(ctx: CheckContext, model: Resolver, site: ExprSite, ref: Reference, guarded: boolean): NikaDiagnostic[] {
  const wf = ctx.workflow;
  const dialect = ctx.dialect.dialect;
  const where = SURFACE_NAME[site.surface];
  const first = ref.segments[0];

  const declared = (ns: string, keys: string[], what: string): NikaDiagnostic[] => {
    if (!first || guarded || keys.includes(first.name)) return [];
    const s = closest(first.name, keys);
    return [diag('NIKA-VAR-001', `'${ns}.${first.name}' is not declared in ${what}.${didYouMean(s)}`, first.span, 'error', renameFix(first.span, s))];
  };
  const notHere = (code: string, why: string, span: Span = ref.rootSpan, severity: Severity = 'error'): NikaDiagnostic[] =>
    [diag(code, why, span, severity)];

  switch (ref.root) {
    case 'inputs':
      return declared('inputs', Object.keys(wf.inputs), 'inputs:');
    case 'const':
      return declared('const', Object.keys(wf.const), 'const:');
    case 'secrets':
      // §4.4 marks secrets as unspecified ("—") in for_each.items and recover: flagged, as it advises.
      if (site.surface === 'for_each.items' || site.surface === 'recover') {
        return notHere('NIKA-VAR-001', `secrets are not available in ${where}; bind the value in with: or read it in the verb body.`);
      }
      return declared('secrets', Object.keys(wf.secrets), 'secrets:');
    case 'with': {
      if (!site.task || site.surface === 'outputs' || site.surface === 'model') {
        return notHere('NIKA-VAR-001', `with.* is task-local and cannot be read in ${where}.`);
      }
      if (site.surface === 'with') {
        return notHere('NIKA-VAR-001', `with: bindings cannot read each other; repeat the expression or bind it once and read it in the verb body.`);
      }
      const keys = Object.keys(site.task.with);
      if (!first) return [];
      if (!keys.includes(first.name)) {
        if (guarded) return [];
        const s = closest(first.name, keys);
        return [diag('NIKA-VAR-001', `task '${site.task.id}' has no with: binding '${first.name}'.${didYouMean(s)}`, first.span, 'error', renameFix(first.span, s))];
      }
      // for_each.items is evaluated once before fan-out: a binding that reads item/index cannot feed it (§2.4).
      if (site.surface === 'for_each.items' && referencesIn(site.task.with[first.name]).some((r) => r.root === 'item' || r.root === 'index')) {
        return [diag('NIKA-VAR-005', `with.${first.name} depends on item/index, which do not exist yet when for_each.items is evaluated.`, ref.span)];
      }
      return [];
    }
    case 'item':
    case 'index': {
      if (site.surface === 'for_each.items') {
        // §2.4 names NIKA-VAR-005 for this case (the collection is evaluated before any iteration).
        return notHere('NIKA-VAR-005', `'${ref.root}' does not exist while for_each.items is evaluated (it is computed once, before the fan-out).`);
      }
      if (!site.task || !site.task.forEach) {
        return notHere('NIKA-VAR-001', `'${ref.root}' is only defined inside a task with for_each.`);
      }
      if (site.unwindOf.length) return notHere('NIKA-VAR-001', `'${ref.root}' is not available in an unwind task.`);
      return [];
    }
    case 'group':
      return checkGroup(model, site, ref, where);
    case 'tasks':
      return checkTasks(ctx, model, site, ref, where, guarded);
  }

  // Roots outside the five namespaces.
  if (ref.root === 'vars' || ref.root === 'env' || ref.root === 'config') {
    if (dialect === 'v1-draft') {
      // The draft's own blocks; normalization folds `config:` into `vars`.
      const keys = Object.keys(ref.root === 'env' ? wf.env : wf.vars);
      return declared(ref.root, keys, `${ref.root === 'config' ? 'config' : ref.root}:`);
    }
    const code = ref.root === 'vars' ? 'NIKA-VALUES-001' : ref.root === 'env' ? 'NIKA-VALUES-002' : 'NIKA-VALUES-003';
    const hint = ref.root === 'vars'
      ? 'move the value into inputs:, const: or secrets:'
      : ref.root === 'env'
        ? 'declare a secrets: entry with source: env, an input with a default, or set exec.env'
        : 'declare an input with required: false and a default:';
    const replacement = first && ref.root === 'config' && wf.inputs[first.name] ? 'inputs' : first && ref.root === 'vars' ? ['inputs', 'const', 'secrets'].find((ns) => ns === 'inputs' ? wf.inputs[first.name] : ns === 'const' ? first.name in wf.const : wf.secrets[first.name]) : undefined;
    return [diag(code, `'${ref.root}.*' is not a namespace in current Nika; ${hint}.`, ref.rootSpan, 'error', renameFix(ref.rootSpan, replacement))];
  }
  // §4.3: the oracle reports an unknown root twice, as unresolved and as a foreign namespace.
  const s = closest(ref.root, KNOWN_ROOTS);
  const msg = `unknown name '${ref.root}': expressions read inputs, const, secrets, with, tasks, group, item or index.${didYouMean(s)}`;
  return [
    diag('NIKA-VAR-001', msg, ref.rootSpan, 'error', renameFix(ref.rootSpan, s)),
    diag('NIKA-VALUES-003', `'${ref.root}' is not one of the value namespaces (inputs, const, secrets).`, ref.rootSpan),
  ];
}

function checkGroup(model: Resolver, site: ExprSite, ref: Reference, where: string): NikaDiagnostic[] {
  const first = ref.segments[0];
  if (!first) return [diag('NIKA-DAG-008', `'group' needs a group name: group.<name>.`, ref.rootSpan)];
  const out: NikaDiagnostic[] = [];
  if (site.surface !== 'with' || site.unwindOf.length) {
    out.push(diag('NIKA-VAR-021', `group.${first.name} may only be read in a with: value (not in ${site.unwindOf.length ? 'an unwind task' : where}).`, { start: ref.rootSpan.start, end: first.span.end }));
  }
  if (!model.hasGroup(first.name)) {
    const s = closest(first.name, model.groupNames());
    out.push(diag('NIKA-DAG-008', `no task declares group: ${first.name}.${didYouMean(s)}`, first.span, 'error', renameFix(first.span, s)));
  }
  return out;
}

function checkTasks(ctx: CheckContext, model: Resolver, site: ExprSite, ref: Reference, where: string, guarded: boolean): NikaDiagnostic[] {
  const [idSeg, projSeg] = ref.segments;
  if (!idSeg) return [diag('NIKA-VAR-020', `'tasks' cannot be used as a value; read one record field such as tasks.<id>.output.`, ref.rootSpan)];
  const out: NikaDiagnostic[] = [];
  const producer = model.task(idSeg.name);
  const draft = ctx.dialect.dialect === 'v1-draft';

  if (!producer) {
    const s = closest(idSeg.name, model.taskIds());
    // §8.3: an undeclared task is DAG-002 where it would be an edge (with:), VAR-001 elsewhere.
    const code = site.surface === 'with' ? 'NIKA-DAG-002' : 'NIKA-VAR-001';
    out.push(diag(code, `unknown task '${idSeg.name}'.${didYouMean(s)}`, idSeg.span, 'error', renameFix(idSeg.span, s)));
  } else if (!projSeg) {
    out.push(diag('NIKA-VAR-020', `'tasks.${idSeg.name}' is a whole task record; read a field such as tasks.${idSeg.name}.output or .status.`, { start: ref.rootSpan.start, end: idSeg.span.end }));
  } else {
    const names = [...PROJECTIONS, ...Object.keys(producer.extract ?? {})];
    if (!names.includes(projSeg.name) && !guarded) {
      const s = closest(projSeg.name, names);
      out.push(diag('NIKA-VAR-001', `task record field '${projSeg.name}' does not exist; fields are ${PROJECTIONS.join(', ')}${producer.extract ? ` and the extract: names ${Object.keys(producer.extract).join(', ')}` : ''}.${didYouMean(s)}`, projSeg.span, 'error', renameFix(projSeg.span, s)));
    }
  }

  // Where the read itself is allowed.
  const readSpan = { start: ref.rootSpan.start, end: (projSeg ?? idSeg).span.end };
  if (site.unwindOf.length) {
    if (!site.unwindOf.includes(idSeg.name)) {
      out.push(diag('NIKA-VAR-021', `an unwind task may only read the record of the task it cleans up after (${site.unwindOf.join(', ')}), not tasks.${idSeg.name}.`, readSpan));
    }
    return out;
  }
  if (site.surface === 'with' || site.surface === 'recover' || site.surface === 'outputs') return out;
  if (site.task && idSeg.name === site.task.id) {
    out.push(diag('NIKA-VAR-021', `a task cannot read its own record (tasks.${idSeg.name}) in ${where}.`, readSpan));
    return out;
  }
  const fix = producer && projSeg && site.task && HOISTABLE.has(site.surface) ? hoistFix(ctx.doc, site.task, ref) : undefined;
  // The draft predates the with: boundary; there the hoist is advice, not a refusal.
  const severity: Severity = draft ? 'warning' : 'error';
  out.push(diag('NIKA-VAR-021', `tasks.* can only be read in a with: value (this is ${where}); bind it in with: and read with.<name> here.`, readSpan, severity, fix ? { fixes: [fix] } : undefined));
  return out;
}
