// Every `${{ }}` island of a document with what the features need around it: the YAML scalar it
// lives in, its path, the task it belongs to, the parsed expression and its references. Spans of
// the AST are relative to the island source; `toDoc` maps them back to document offsets one
// character at a time, so quoted and block scalars land on the right column.
import { isMap, isScalar, isSeq, type Scalar } from 'yaml';
import { keyName, scalarValueOffset, type NikaDocument } from '../../core/document.js';
import { collectReferences, findIslands, parseExpression } from '../../core/expr/index.js';
import type { ExprError, ExprNode, Island, Reference } from '../../core/expr/index.js';
import type { Task, Workflow, YamlPath } from '../../core/ir.js';
import type { Span } from '../../core/text.js';

/** Where an expression sits, which decides the names it may read (reference §4.4). */
export type Surface = 'with' | 'when' | 'for_each' | 'body' | 'recover' | 'extract' | 'outputs' | 'model' | 'permits' | 'task' | 'other';

export interface ExprSite {
  scalar: Scalar<string>;
  path: YamlPath;
  task?: Task;
  surface: Surface;
  island: Island;
  ast?: ExprNode;
  errors: ExprError[];
  references: Reference[];
  /** Document span of the whole island, `${{` to `}}`. */
  span: Span;
  /** Document span of the expression source between the delimiters. */
  sourceSpan: Span;
  /** Maps an offset relative to the island source to a document offset. */
  toDoc(rel: number): number;
  /** Maps a span relative to the island source to a document span. */
  spanToDoc(s: Span): Span;
}

// Caps keep hostile documents cheap: nobody writes more islands or deeper YAML than this.
const MAX_SITES = 5000;
const MAX_DEPTH = 80;
const MAX_SCALAR = 200_000;

export function scanSites(doc: NikaDocument, workflow: Workflow): ExprSite[] {
  const out: ExprSite[] = [];
  const root = doc.yaml?.contents;
  if (!root) return out;
  const walk = (node: unknown, path: YamlPath, depth: number) => {
    if (out.length >= MAX_SITES || depth > MAX_DEPTH) return;
    if (isMap(node)) {
      for (const pair of node.items) walk(pair.value, [...path, keyName(pair) ?? ''], depth + 1);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i], depth + 1));
    } else if (isScalar(node) && typeof node.value === 'string' && node.range) {
      if (node.value.length > MAX_SCALAR || !node.value.includes('${{')) return;
      for (const island of findIslands(node.value)) {
        if (out.length >= MAX_SITES) return;
        out.push(makeSite(doc, workflow, node as Scalar<string>, path, island));
      }
    }
  };
  walk(root, [], 0);
  return out;
}

function makeSite(doc: NikaDocument, workflow: Workflow, scalar: Scalar<string>, path: YamlPath, island: Island): ExprSite {
  const { ast, errors } = parseExpression(island.source, 0);
  const references = ast ? collectReferences(ast) : [];
  const direct = directOffset(doc, scalar);
  const toDoc = (rel: number) => {
    const i = island.sourceStart + rel;
    return direct !== undefined ? direct + i : scalarValueOffset(doc, scalar, i);
  };
  // Ends map through the last character so a span never jumps to the next line.
  const spanToDoc = (s: Span) => {
    const start = toDoc(s.start);
    const end = s.end > s.start ? toDoc(s.end - 1) + 1 : start;
    return { start, end: Math.max(start, end) };
  };
  const islandStart = direct !== undefined ? direct + island.start : scalarValueOffset(doc, scalar, island.start);
  const islandEnd = island.end > island.start
    ? (direct !== undefined ? direct + island.end : scalarValueOffset(doc, scalar, island.end - 1) + 1)
    : islandStart;
  return {
    scalar, path, island, ast, errors, references,
    task: taskForPath(workflow, path),
    surface: surfaceOf(path),
    span: { start: islandStart, end: islandEnd },
    sourceSpan: spanToDoc({ start: 0, end: island.source.length }),
    toDoc, spanToDoc,
  };
}

/** For scalars whose value is a verbatim slice of the source, the constant shift from value to document. */
function directOffset(doc: NikaDocument, scalar: Scalar): number | undefined {
  const r = scalar.range!;
  const src = doc.text.slice(r[0], r[1]);
  const value = String(scalar.value);
  if (scalar.type === 'PLAIN' && !value.includes('\n')) return r[0];
  if ((scalar.type === 'QUOTE_DOUBLE' || scalar.type === 'QUOTE_SINGLE') && src.length === value.length + 2 && src.slice(1, -1) === value) return r[0] + 1;
  return undefined;
}

export function taskForPath(workflow: Workflow, path: YamlPath): Task | undefined {
  if (path[0] !== 'tasks' || path.length < 2) return undefined;
  return workflow.tasks.find((t) => t.path[1] === path[1]);
}

const VERB_KEYS = new Set(['infer', 'exec', 'invoke', 'agent', 'fetch']);

export function surfaceOf(path: YamlPath): Surface {
  const top = path[0];
  if (top === 'tasks') {
    const key = path[2];
    if (key === 'with' || key === 'use') return 'with';
    if (key === 'when') return 'when';
    if (key === 'for_each') return 'for_each';
    if (key === 'extract') return 'extract';
    if (key === 'on_error') return path[3] === 'recover' ? 'recover' : 'task';
    if (typeof key === 'string' && VERB_KEYS.has(key)) return 'body';
    return 'task';
  }
  if (top === 'outputs') return 'outputs';
  if (top === 'model') return 'model';
  if (top === 'permits') return 'permits';
  return 'other';
}

/** The site whose island contains a document offset (inclusive of the closing delimiter). */
export function siteAt(sites: ExprSite[], offset: number): ExprSite | undefined {
  return sites.find((s) => s.span.start <= offset && offset <= s.span.end);
}
