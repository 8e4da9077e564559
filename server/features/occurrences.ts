// Every place a name is written: task ids in all their homes (task key or `id:`/`name:` value,
// `after:` keys, `tasks.X` in expressions, legacy `use:` paths and `flows:`, draft `depends_on`),
// and inputs/const/secrets/with names (declaration and reads). Navigation, highlights and rename
// are lookups in this one list.
import { isMap, isScalar, isSeq, type Pair, type Scalar } from 'yaml';
import { getNode, getPair, keyName, nodeAtPath, spanOf, type NikaDocument } from '../../core/document.js';
import type { Task, Workflow } from '../../core/ir.js';
import type { Span } from '../../core/text.js';
import type { ExprSite } from '../../core/scan.js';

export type NameKind = 'task' | 'input' | 'const' | 'secret' | 'with';

export type Home = 'declaration' | 'after' | 'expression' | 'use' | 'flows' | 'depends_on';

export interface Occurrence {
  kind: NameKind;
  name: string;
  /** For `with` names: the task that owns the binding. */
  owner?: string;
  home: Home;
  /** Exactly the name's characters (quotes excluded). */
  span: Span;
}

export function sameSymbol(a: Occurrence, b: Pick<Occurrence, 'kind' | 'name' | 'owner'>): boolean {
  return a.kind === b.kind && a.name === b.name && (a.kind !== 'with' || a.owner === b.owner);
}

/** The characters of a scalar's value in the source: the range minus surrounding quotes. */
export function tokenSpan(doc: NikaDocument, node: unknown): Span | undefined {
  const s = spanOf(node);
  if (!s) return undefined;
  const first = doc.text[s.start];
  if ((first === '"' || first === "'") && s.end - s.start >= 2) return { start: s.start + 1, end: s.end - 1 };
  return s;
}

const ROOT_KINDS: Record<string, NameKind> = { inputs: 'input', const: 'const', secrets: 'secret' };

export function collectOccurrences(doc: NikaDocument, workflow: Workflow, sites: readonly ExprSite[]): Occurrence[] {
  const out: Occurrence[] = [];
  const root = doc.root;
  if (!root) return out;

  // Declarations of envelope names.
  for (const [block, kind] of Object.entries(ROOT_KINDS)) {
    const node = getNode(root, block);
    if (!isMap(node)) continue;
    for (const pair of node.items) {
      const name = keyName(pair);
      const span = tokenSpan(doc, pair.key);
      if (name !== undefined && span) out.push({ kind, name, home: 'declaration', span });
    }
  }

  for (const task of workflow.tasks) {
    const idSpan = tokenSpan(doc, nodeAtIdSpan(doc, task)) ?? task.idSpan;
    out.push({ kind: 'task', name: task.id, home: 'declaration', span: idSpan });
    const node = nodeAtPath(doc, task.path);
    if (!isMap(node)) continue;
    const withNode = getNode(node, 'with');
    if (isMap(withNode)) {
      for (const pair of withNode.items) {
        const name = keyName(pair);
        const span = tokenSpan(doc, pair.key);
        if (name !== undefined && span) out.push({ kind: 'with', name, owner: task.id, home: 'declaration', span });
      }
    }
    const after = getNode(node, 'after');
    if (isMap(after)) {
      for (const pair of after.items) {
        const name = keyName(pair);
        const span = tokenSpan(doc, pair.key);
        if (name !== undefined && span) out.push({ kind: 'task', name, home: 'after', span });
      }
    }
    for (const s of scalarsOf(getNode(node, 'depends_on'))) pushTaskScalar(doc, out, s, 'depends_on');
    const use = getNode(node, 'use');
    if (isMap(use)) for (const pair of use.items) pushUse(doc, out, pair);
  }

  const flows = getNode(root, 'flows');
  if (isSeq(flows)) {
    for (const f of flows.items) {
      for (const k of ['source', 'target']) for (const s of scalarsOf(getNode(f, k))) pushTaskScalar(doc, out, s, 'flows');
    }
  }

  for (const site of sites) {
    if (site.syntax !== 'expr') continue;
    for (const ref of site.references) {
      const first = ref.segments[0];
      if (!first) continue;
      const span = unquote(doc, first.span);
      if (ref.root === 'tasks') out.push({ kind: 'task', name: first.name, home: 'expression', span });
      else if (ref.root in ROOT_KINDS) out.push({ kind: ROOT_KINDS[ref.root], name: first.name, home: 'expression', span });
      else if (ref.root === 'with' && site.task) out.push({ kind: 'with', name: first.name, owner: site.task.id, home: 'expression', span });
    }
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

function nodeAtIdSpan(doc: NikaDocument, task: Task): unknown {
  // v1: the map key; list dialects: the `id:`/`name:` value node.
  const tasks = getNode(doc.root, 'tasks');
  if (isMap(tasks)) return tasks.items.find((p) => spanOf(p.key)?.start === task.idSpan.start)?.key;
  const item = nodeAtPath(doc, task.path);
  return (getPair(item, 'id') ?? getPair(item, 'name'))?.value;
}

function scalarsOf(node: unknown): Scalar[] {
  if (isScalar(node)) return [node];
  if (isSeq(node)) return node.items.filter(isScalar);
  return [];
}

function pushTaskScalar(doc: NikaDocument, out: Occurrence[], s: Scalar, home: Home): void {
  const span = tokenSpan(doc, s);
  if (typeof s.value === 'string' && s.value && span) out.push({ kind: 'task', name: s.value, home, span: { start: span.start, end: span.start + Math.min(s.value.length, span.end - span.start) } });
}

/** Legacy `use:` entries: `alias: task.path [?? default]`, `alias: $task`, `{from: task, path}`, `{path: "task.x"}`. */
function pushUse(doc: NikaDocument, out: Occurrence[], pair: Pair<unknown, unknown>): void {
  const v = pair.value;
  let scalar: unknown = v;
  if (isMap(v)) scalar = getNode(v, 'from') ?? getNode(v, 'path');
  if (!isScalar(scalar) || typeof scalar.value !== 'string') return;
  const span = tokenSpan(doc, scalar);
  if (!span) return;
  const raw = doc.text.slice(span.start, span.end);
  const m = /^(\s*\$?)([A-Za-z_][A-Za-z0-9_-]*)/.exec(raw);
  if (!m) return;
  const start = span.start + m[1].length;
  out.push({ kind: 'task', name: m[2], home: 'use', span: { start, end: start + m[2].length } });
}

function unquote(doc: NikaDocument, span: Span): Span {
  const c = doc.text[span.start];
  if ((c === '"' || c === "'") && span.end - span.start >= 2 && doc.text[span.end - 1] === c) return { start: span.start + 1, end: span.end - 1 };
  return span;
}

export function occurrenceAt(occ: Occurrence[], offset: number): Occurrence | undefined {
  return occ.find((o) => o.span.start <= offset && offset <= o.span.end);
}
