// Every `${{ }}` island of a document, located and classified once, for the semantic checks,
// semantic tokens, hover, definition and completion. An island's meaning depends on where it
// sits (reference §4.4: `tasks.*` is legal in `with:` but not in a prompt), so each site carries
// its surface, its owning task and document offsets for everything inside it.
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Scalar } from 'yaml';
import { spanOf, scalarValueOffset, type NikaDocument } from './document.js';
import { collectReferences, findIslands, parseExpression } from './expr/index.js';
import type { ExprError, ExprNode, Island, Reference } from './expr/index.js';
import type { Dialect, Task, Workflow, YamlPath } from './ir.js';
import type { Span } from './text.js';

/**
 * Where an island sits, per the rows of reference §4.4. Unwind tasks keep the surface of the
 * field and are marked by `ExprSite.unwindOf` instead, because their rules stack on top.
 */
export type Surface =
  | 'model' // envelope `model:`
  | 'permits' // anything under `permits:` (no expressions allowed)
  | 'declaration' // `inputs:`/`const:`/`secrets:` (and v1-draft `vars:`/`env:`/`config:`) literals
  | 'with' // task `with:` values (legacy `use:`)
  | 'when'
  | 'for_each.items'
  | 'body' // a verb body field: prompt, command, args, model, …
  | 'recover' // `on_error.recover` (draft `fallback:`/`value:`)
  | 'extract' // `extract:` jq bindings (draft `output:`)
  | 'outputs' // workflow `outputs:` values
  | 'task' // any other task field (retry, timeout, group, after, …)
  | 'other'; // anything else (nika:, run:, mcp:, …)

export interface ExprSite {
  /** `expr` = a `${{ }}` island; `legacy` = an era-A `{{use.x}}` template (legacy files only). */
  syntax: 'expr' | 'legacy';
  /** YAML path of the string scalar holding the island. */
  path: YamlPath;
  surface: Surface;
  taskId?: string;
  task?: Task;
  /** For a verb body: the verb key (`infer`, `invoke`, … `fetch` in legacy files). */
  verb?: string;
  /** Producers this task cleans up after (`after: { p: unwind }`); empty for ordinary tasks. */
  unwindOf: string[];
  scalar: Scalar;
  scalarSpan: Span;
  /** The scalar's string value. */
  value: string;
  /** The island, in offsets relative to `value`. */
  island: Island;
  /** Document span of the whole `${{ … }}` (or `{{ … }}`). */
  span: Span;
  /** Document span of the expression source between the braces. */
  sourceSpan: Span;
  /** The island is the entire value (surrounding whitespace aside), so it yields a raw value. */
  whole: boolean;
  /**
   * Offsets inside the island are exact. False only when the island itself spans escapes or a
   * folded line break; then `span` is the whole scalar and inner offsets are approximate.
   */
  exact: boolean;
  ast?: ExprNode;
  /** Parser errors (NIKA-VAR-005) in document offsets (for an unclosed island, of the text so far). */
  errors: ExprError[];
  /** Dotted references, in document offsets. Legacy templates yield one with root `use` (or the loop alias). */
  references: Reference[];
}

/** A string scalar anywhere in the document, with its path. */
export interface StringScalar {
  path: YamlPath;
  scalar: Scalar;
  value: string;
  span: Span;
}

const VERB_KEYS = new Set(['infer', 'exec', 'invoke', 'agent']);

/** Visits every string scalar value (never keys), depth-first in document order. */
export function walkStrings(doc: NikaDocument, visit: (s: StringScalar) => void): void {
  const root = doc.yaml?.contents;
  let budget = 200_000;
  const walk = (node: unknown, path: YamlPath, depth: number): void => {
    if (--budget < 0 || depth > 80 || node == null) return;
    if (isScalar(node)) {
      if (typeof node.value === 'string') {
        const span = spanOf(node);
        if (span) visit({ path, scalar: node, value: node.value, span });
      }
      return;
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = isScalar(pair.key) ? String(pair.key.value) : '';
        walk(pair.value, [...path, k], depth + 1);
      }
      return;
    }
    if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i], depth + 1));
      return;
    }
    if (isPair(node)) walk(node.value, path, depth + 1);
  };
  walk(root, [], 0);
}

/** The task a YAML path falls in, by the task's own path prefix (map and list dialects alike). */
export function taskAtPath(workflow: Workflow, path: YamlPath): Task | undefined {
  if (path[0] !== 'tasks' || path.length < 2) return undefined;
  return workflow.tasks.find((t) => t.path[0] === 'tasks' && t.path[1] === path[1]);
}

/**
 * The surface of a value at `path` (reference §4.4). Works for any path, so completion can ask
 * for the cursor's path even where no island exists yet.
 */
export function surfaceOf(path: YamlPath, dialect: Dialect): { surface: Surface; verb?: string } {
  const [top] = path;
  if (top === 'model' && path.length === 1) return { surface: 'model' };
  if (top === 'permits') return { surface: 'permits' };
  if (top === 'inputs' || top === 'const' || top === 'secrets') return { surface: 'declaration' };
  if (dialect !== 'v1' && (top === 'vars' || top === 'env' || top === 'config')) return { surface: 'declaration' };
  if (top === 'outputs') {
    // `name: <expr>` or `name: { value: <expr>, type, description }`.
    if (path.length === 2 || (path.length >= 3 && path[2] === 'value')) return { surface: 'outputs' };
    return { surface: 'other' };
  }
  if (top !== 'tasks' || path.length < 3) return { surface: 'other' };
  const key = path[2];
  const rest = path.slice(3);
  if (typeof key !== 'string') return { surface: 'task' };
  if (key === 'with' || (key === 'use' && dialect !== 'v1')) return { surface: rest.length ? 'with' : 'task' };
  if (key === 'when') return { surface: 'when' };
  if (key === 'for_each') {
    // Current `for_each: { items }`; older flat forms put the collection right here (or in a list).
    if (rest.length === 0 || typeof rest[0] === 'number' || rest[0] === 'items') return { surface: 'for_each.items' };
    return { surface: 'task' };
  }
  if (VERB_KEYS.has(key) || (key === 'fetch' && dialect !== 'v1')) return { surface: 'body', verb: key };
  if (key === 'on_error') {
    const r = rest[0];
    if (r === 'recover' || (dialect !== 'v1' && (r === 'fallback' || r === 'value'))) return { surface: 'recover' };
    return { surface: 'task' };
  }
  if (key === 'extract' || (key === 'output' && dialect === 'v1-draft')) return { surface: rest.length ? 'extract' : 'task' };
  return { surface: 'task' };
}

function unwindProducers(task: Task | undefined): string[] {
  if (!task) return [];
  return Object.entries(task.after).filter(([, p]) => p === 'unwind').map(([id]) => id);
}

/** Maps a character index of a scalar's value to a document offset. */
function offsetIn(doc: NikaDocument, s: StringScalar, i: number): number {
  return scalarValueOffset(doc, s.scalar, i);
}

/** All `${{ }}` islands (and, in legacy files, `{{use.x}}` templates) of the document. */
export function scanExpressions(doc: NikaDocument, workflow: Workflow): ExprSite[] {
  const sites: ExprSite[] = [];
  const dialect = workflow.dialect;
  const byKey = new Map<string | number | undefined, Task>();
  for (const t of workflow.tasks) if (t.path[0] === 'tasks' && !byKey.has(t.path[1])) byKey.set(t.path[1], t);
  walkStrings(doc, (s) => {
    const hasExpr = s.value.includes('${{');
    const hasLegacy = dialect === 'legacy' && s.value.includes('{{');
    if (!hasExpr && !hasLegacy) return;
    const { surface, verb } = surfaceOf(s.path, dialect);
    const task = s.path[0] === 'tasks' ? byKey.get(s.path[1]) : undefined;
    const common = {
      path: s.path, surface, verb, taskId: task?.id, task, unwindOf: unwindProducers(task),
      scalar: s.scalar, scalarSpan: s.span, value: s.value,
    };
    const islands = hasExpr ? findIslands(s.value) : [];
    const raw = doc.text.slice(s.span.start, s.span.end);
    let cursor = 0;
    for (const island of islands) {
      const text = s.value.slice(island.start, island.end);
      let start = offsetIn(doc, s, island.start);
      let exact = doc.text.startsWith(text, start);
      let base = offsetIn(doc, s, island.sourceStart);
      if (!exact) {
        // Escapes or folding shift the value against the source (`"say \"hi\" ${{ x }}"`, `>`):
        // find the island's own text in the source instead; islands rarely contain either.
        const at = raw.indexOf(text, cursor);
        if (at >= 0) {
          start = s.span.start + at;
          base = start + (island.sourceStart - island.start);
          exact = true;
        } else {
          start = s.span.start;
          base = s.span.start;
        }
      }
      cursor = start - s.span.start + text.length;
      // Unclosed islands are still parsed: completion runs while the user is typing them.
      const { ast, errors, references } = island.source.trim() === '' && !island.closed
        ? { ast: undefined, errors: [] as ExprError[], references: [] }
        : analyseIsland(island.source, base);
      sites.push({
        ...common, syntax: 'expr', island, ast, errors, exact, references,
        span: exact ? { start, end: start + text.length } : s.span,
        sourceSpan: exact ? { start: base, end: base + island.source.length } : s.span,
        whole: island.closed && s.value.slice(0, island.start).trim() === '' && s.value.slice(island.end).trim() === '',
      });
    }
    if (hasLegacy) sites.push(...legacySites(doc, s, common, islands));
  });
  return sites;
}

/**
 * Parse + references, fenced: a parser fault on some hostile input must cost one finding on that
 * island, not every check of the document.
 */
function analyseIsland(source: string, base: number): { ast?: ExprNode; errors: ExprError[]; references: Reference[] } {
  try {
    const { ast, errors } = parseExpression(source, base);
    return { ast, errors, references: ast ? collectReferences(ast) : [] };
  } catch {
    return { errors: [{ code: 'NIKA-VAR-005', message: 'this expression could not be read', span: { start: base, end: base + source.length } }], references: [] };
  }
}

// `{{use.alias.path}}` (and `{{ use.alias }}`); a `$` right before marks a current island instead.
const LEGACY_TEMPLATE = /(\$?)\{\{(\s*)(use)((?:\.[\w-]+)+)\s*\}\}/g;

function legacySites(doc: NikaDocument, s: StringScalar, common: Omit<ExprSite, 'syntax' | 'island' | 'ast' | 'errors' | 'references' | 'span' | 'sourceSpan' | 'whole' | 'exact'>, islands: Island[]): ExprSite[] {
  const out: ExprSite[] = [];
  for (const m of s.value.matchAll(LEGACY_TEMPLATE)) {
    if (m[1]) continue;
    const at = m.index!;
    if (islands.some((i) => at >= i.start && at < i.end)) continue;
    const sourceStart = at + 2;
    const source = m[0].slice(2, -2);
    const island: Island = { start: at, end: at + m[0].length, source, sourceStart, closed: true };
    const rootAt = sourceStart + m[2].length;
    const rootSpan = { start: offsetIn(doc, s, rootAt), end: offsetIn(doc, s, rootAt + 3) };
    const segments: Reference['segments'] = [];
    let i = rootAt + 3;
    for (const name of m[4].split('.').slice(1)) {
      i += 1;
      segments.push({ name, span: { start: offsetIn(doc, s, i), end: offsetIn(doc, s, i + name.length) } });
      i += name.length;
    }
    const last = segments[segments.length - 1];
    out.push({
      ...common, syntax: 'legacy', island, errors: [], exact: doc.text.startsWith(m[0], offsetIn(doc, s, at)),
      references: [{ root: 'use', rootSpan, segments, span: { start: rootSpan.start, end: last ? last.span.end : rootSpan.end } }],
      span: { start: offsetIn(doc, s, at), end: offsetIn(doc, s, at + m[0].length - 1) + 1 },
      sourceSpan: { start: offsetIn(doc, s, sourceStart), end: offsetIn(doc, s, sourceStart + source.length - 1) + 1 },
      whole: s.value.trim() === m[0],
    });
  }
  return out;
}

/** The site whose island contains `offset` (inclusive of the braces), for hover and completion. */
export function siteAt(sites: readonly ExprSite[], offset: number): ExprSite | undefined {
  return sites.find((x) => x.span.start <= offset && offset <= x.span.end);
}

/** The reference whose span contains `offset`, with the segment under it (-1 = the root). */
export function referenceAt(site: ExprSite, offset: number): { ref: Reference; segment: number } | undefined {
  for (const ref of site.references) {
    if (offset < ref.span.start || offset > ref.span.end) continue;
    if (offset <= ref.rootSpan.end) return { ref, segment: -1 };
    const i = ref.segments.findIndex((g) => g.span.start <= offset && offset <= g.span.end);
    return { ref, segment: i };
  }
  return undefined;
}

// Scans are cached per parsed document: several checks and LS features read the same sites.
const cache = new WeakMap<NikaDocument, { workflow: Workflow; sites: ExprSite[] }>();

export function scanExpressionsCached(doc: NikaDocument, workflow: Workflow): ExprSite[] {
  const hit = cache.get(doc);
  if (hit && hit.workflow === workflow) return hit.sites;
  const sites = scanExpressions(doc, workflow);
  cache.set(doc, { workflow, sites });
  return sites;
}

/**
 * Installs sites computed elsewhere for (doc, workflow): the incremental analyzer assembles them
 * from per-slice scans that equal `scanExpressions(doc, workflow)`.
 */
export function seedScanCache(doc: NikaDocument, workflow: Workflow, sites: ExprSite[]): void {
  cache.set(doc, { workflow, sites });
}
