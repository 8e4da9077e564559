// What the whole-document semantic checks need to know about one task, read from that task alone
// (and the envelope): computed once per task text and kept across edits (memo.ts), so a keystroke
// re-reads one task and the checks' global passes walk 1,000 small records, not every site.
import { isMap, isScalar, isSeq } from 'yaml';
import type { Scalar } from 'yaml';
import type { CheckContext } from '../context.js';
import { getNode, keyName, keySpan, spanOf } from '../../document.js';
import type { Task } from '../../ir.js';
import type { ExprSite } from '../../scan.js';
import type { Span } from '../../text.js';
import type { NikaDiagnostic } from '../../diagnostic.js';
import { namedTargets, referencesIn, resolveSite, USUAL } from './resolve.js';

/** A task named by an edge (`after:`, `depends_on:`, legacy `use:`); a finding only if it is not declared. */
export interface EdgeName { id: string; span: Span; what: string }

export interface TaskFacts {
  /** The task's YAML node. */
  node: unknown;
  /** Its expression sites, in document order. */
  sites: readonly ExprSite[];
  /** Whether one of them has approximate inner offsets. */
  inexact: boolean;
  /**
   * `tasks.<id>` and `group.<name>` read by its with: values, first occurrences in order: the
   * names, and a string holding 't' or 'g' for each.
   */
  withNames: readonly string[];
  withKinds: string;
  /** `after:` producers other than unwind links (a finally edge, outside the precedence graph, §2.1). */
  afterIds: readonly string[];
  /** Task ids and group names read by the expressions that checkReferences resolves. */
  refTasks: readonly string[];
  refGroups: readonly string[];
  /** checkReferences' findings in the task when every target exists and no producer has extract: (resolve.ts). */
  refFindings: readonly NikaDiagnostic[];
  edges: readonly EdgeName[];
  /** `tasks.<id>` reads inside on_error.recover, in order. */
  recover: readonly { name: string; span: Span }[];
  /** NIKA-DAG-009: an unwind task with group:, at the group value (null: at the task id). */
  unwindGroup?: Span | null;
  /** `root.name` of every reference to a declaration block (inputs, const, secrets, vars, env). */
  used: readonly string[];
}

const BLOCK_ROOTS = new Set(['inputs', 'const', 'secrets', 'vars', 'env']);

export function computeFacts(ctx: CheckContext, task: Task, node: unknown, sites: readonly ExprSite[]): TaskFacts {
  const withNames: string[] = [];
  let withKinds = '';
  const seenWith = new Set<string>();
  for (const ref of referencesIn(task.with)) {
    const first = ref.segments[0]?.name;
    if (!first || (ref.root !== 'tasks' && ref.root !== 'group')) continue;
    const kind = ref.root === 'tasks' ? 't' : 'g';
    if (seenWith.has(kind + first)) continue;
    seenWith.add(kind + first);
    withNames.push(first);
    withKinds += kind;
  }
  const named = namedTargets(sites);

  const used = new Set<string>();
  const recover: Array<{ name: string; span: Span }> = [];
  let inexact = false;
  for (const site of sites) {
    if (!site.exact) inexact = true;
    const inRecover = site.syntax === 'expr' && site.surface === 'recover' && !!site.task;
    for (const ref of site.references) {
      const first = ref.segments[0];
      if (!first) continue;
      if (BLOCK_ROOTS.has(ref.root)) used.add(`${ref.root}.${first.name}`);
      if (inRecover && ref.root === 'tasks') recover.push({ name: first.name, span: first.span });
    }
  }

  let unwindGroup: Span | null | undefined;
  if (task.group && Object.values(task.after).includes('unwind')) {
    const pair = isMap(node) ? node.items.find((p) => keyName(p) === 'group') : undefined;
    unwindGroup = (pair ? spanOf(pair.value) ?? keySpan(pair) : undefined) ?? null;
  }

  return {
    node, sites, inexact, withNames, withKinds,
    afterIds: Object.keys(task.after).filter((id) => task.after[id] !== 'unwind'),
    refTasks: named.tasks,
    refGroups: named.groups,
    refFindings: usualFindings(ctx, sites),
    edges: edgeNames(ctx, node),
    recover, unwindGroup,
    used: [...used],
  };
}

function usualFindings(ctx: CheckContext, sites: readonly ExprSite[]): NikaDiagnostic[] {
  // Era-A files wire data with `use:` and `{{use.x}}`; their own check is checkLegacyTemplates.
  if (ctx.dialect.dialect === 'legacy') return [];
  const out: NikaDiagnostic[] = [];
  for (const site of sites) resolveSite(ctx, USUAL, site, out);
  return out;
}

/** String scalars of a node that is one scalar or a sequence of them. */
export function scalars(node: unknown): Scalar[] {
  if (isScalar(node)) return [node];
  if (isSeq(node)) return node.items.filter(isScalar) as Scalar[];
  return [];
}

function edgeNames(ctx: CheckContext, node: unknown): EdgeName[] {
  const dialect = ctx.dialect.dialect;
  const out: EdgeName[] = [];
  const after = getNode(node, 'after');
  if (isMap(after)) {
    for (const pair of after.items) {
      const id = keyName(pair);
      const span = keySpan(pair);
      if (id !== undefined && span) out.push({ id, span, what: 'after:' });
    }
  }
  if (dialect !== 'v1') {
    for (const s of scalars(getNode(node, 'depends_on'))) out.push({ id: String(s.value ?? ''), span: spanOf(s)!, what: 'depends_on:' });
  }
  if (dialect === 'legacy') legacyUse(ctx, getNode(node, 'use'), out);
  return out;
}

/** Legacy `use: { alias: "task.path ?? default" }` or `{ from: task, path }`: the task is the first segment. */
function legacyUse(ctx: CheckContext, use: unknown, out: EdgeName[]): void {
  if (!isMap(use)) return;
  for (const pair of use.items) {
    let s = pair.value;
    if (isMap(s)) s = getNode(s, 'from') ?? getNode(s, 'path');
    if (!isScalar(s) || typeof s.value !== 'string') continue;
    const raw = s.value;
    const m = /^\s*\$?([A-Za-z_][\w-]*)/.exec(raw);
    if (!m) continue;
    const span = spanOf(s)!;
    const srcAt = ctx.doc.text.slice(span.start, span.end).indexOf(m[1]);
    const start = srcAt >= 0 ? span.start + srcAt : span.start;
    out.push({ id: m[1], span: { start, end: start + m[1].length }, what: 'use:' });
  }
}
