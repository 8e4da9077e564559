// What a string holding `${{ }}` islands is known to be before the run (reference §8 AUTH-008,
// "literal bounds only"): literals and `const.*` are trusted and known; `inputs.*` are untrusted,
// known only through their `default:`; `with.*` bindings resolve to what they bind; everything
// else (task outputs, loop items, computed expressions) is known only at run time.
import { collectReferences, findIslands, parseExpression } from '../expr/index.js';
import type { ExprNode } from '../expr/index.js';
import type { Task, Workflow } from '../ir.js';

export interface Resolved {
  /** The value, when every island resolves to a scalar. */
  value?: string;
  /** Dotted untrusted sources the value depends on (`inputs.p`), in order. */
  untrusted: string[];
  /** Every dotted source read, trusted or not (`inputs.p`, `const.q`, `with.x`, `tasks.a.output`). */
  sources: string[];
  /** True when some island depends on the run (task outputs, item, a computed expression …). */
  dynamic: boolean;
}

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Dotted text of a plain member chain (`inputs.p`, `tasks.a.output`), or undefined. */
export function chainOf(node: ExprNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'ident') return node.name;
  if (node.kind === 'member') {
    const head = chainOf(node.object);
    return head === undefined ? undefined : `${head}.${node.property}`;
  }
  return undefined;
}

export function resolveString(text: string, wf: Workflow, task?: Task, depth = 0): Resolved {
  const out: Resolved = { untrusted: [], sources: [], dynamic: false };
  const islands = findIslands(text);
  if (islands.length === 0) return { ...out, value: text };
  let value = '';
  let cursor = 0;
  let known = true;
  for (const island of islands) {
    value += text.slice(cursor, island.start);
    cursor = island.end;
    if (!island.closed) { out.dynamic = true; known = false; continue; }
    let ast: ExprNode | undefined;
    try { ast = parseExpression(island.source).ast; } catch { ast = undefined; }
    if (ast) for (const r of collectReferences(ast)) out.sources.push([r.root, ...r.segments.map((s) => s.name)].join('.'));
    const chain = chainOf(ast);
    const part = chain ? resolveChain(chain, wf, task, depth, out) : undefined;
    if (part === undefined) {
      known = false;
      if (!chain || !/^(inputs|const|with)\./.test(chain)) out.dynamic = true;
      if (ast) for (const r of collectReferences(ast)) if (r.root === 'inputs' && r.segments[0]) pushOnce(out.untrusted, `inputs.${r.segments[0].name}`);
      continue;
    }
    value += part;
  }
  value += text.slice(cursor);
  if (known) out.value = value;
  return out;
}

function pushOnce(list: string[], s: string): void {
  if (!list.includes(s)) list.push(s);
}

function resolveChain(chain: string, wf: Workflow, task: Task | undefined, depth: number, out: Resolved): string | undefined {
  const [root, name, ...rest] = chain.split('.');
  if (!name || rest.length) return undefined;
  if (root === 'const') return name in wf.const ? scalarText(wf.const[name]) : undefined;
  if (root === 'inputs') {
    pushOnce(out.untrusted, `inputs.${name}`);
    const decl = wf.inputs[name];
    return decl?.hasDefault ? scalarText(decl.default) : undefined;
  }
  if (root === 'with' && task && depth < 8) {
    const bound = task.with[name];
    if (typeof bound !== 'string') return scalarText(bound);
    const inner = resolveString(bound, wf, task, depth + 1);
    for (const u of inner.untrusted) pushOnce(out.untrusted, u);
    for (const s of inner.sources) out.sources.push(s);
    if (inner.dynamic) out.dynamic = true;
    return inner.value;
  }
  return undefined;
}
