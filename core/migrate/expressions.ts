// Rewriting references inside `${{ }}` islands during migration. Edits go through the
// expression parser, so a `vars.x` inside a CEL string literal or a longer identifier is left
// alone, and every rewrite keeps the rest of the island byte-for-byte.
import { collectReferences, findIslands, parseExpression, type Reference } from '../expr/index.js';
import { rewriteLegacyTemplates } from '../legacy.js';

interface Edit { start: number; end: number; text: string }

/** Applies `fn` to every reference in every island of `s`; `fn` returns edits in string offsets. */
export function rewriteReferences(s: string, fn: (ref: Reference, s: string) => Edit[] | undefined): string {
  if (!s.includes('${{')) return s;
  const edits: Edit[] = [];
  for (const island of findIslands(s)) {
    if (!island.closed) continue;
    const { ast } = parseExpression(island.source, island.sourceStart);
    if (!ast) continue;
    for (const ref of collectReferences(ast)) edits.push(...(fn(ref, s) ?? []));
  }
  edits.sort((a, b) => b.start - a.start);
  let out = s;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Deep map over every string of a YAML-shaped value. */
export function mapStrings(v: unknown, fn: (s: string) => string): unknown {
  if (typeof v === 'string') return fn(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, fn));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, mapStrings(x, fn)]));
  }
  return v;
}

export function visitStrings(v: unknown, fn: (s: string) => void): void {
  mapStrings(v, (s) => { fn(s); return s; });
}

/** Moves the dead roots (`vars.x`, `env.X`, `config.x`) to their new home (`inputs.x`, `secrets.X`, …). */
export function renameRoots(s: string, renames: Map<string, string>): string {
  return rewriteReferences(s, (ref) => {
    const first = ref.segments[0];
    if (!first) return undefined;
    const target = renames.get(`${ref.root}.${first.name}`);
    if (!target) return undefined;
    return [{ start: ref.rootSpan.start, end: first.span.end, text: target }];
  });
}

/**
 * Draft-era `{{name}}` templates (a var read) and `{{use.x}}` bindings, as `${{ … }}`. `{{use.x}}`
 * reads the task's `with.x` (or `item` for a legacy loop alias); a bare `{{name}}` reads whatever
 * `resolve` maps it to.
 */
export function rewriteDraftTemplates(s: string, resolve: (name: string) => string | undefined, loopName = '\u0000'): string {
  if (!s.includes('{{')) return s;
  const out = rewriteLegacyTemplates(s, loopName);
  return out.replace(/(\$?)\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, dollar: string, name: string) => {
    if (dollar) return whole;
    const target = resolve(name);
    return target ? `\${{ ${target} }}` : whole;
  });
}

const RESERVED_BINDINGS = new Set(['output', 'status', 'error', 'started_at', 'ended_at', 'duration_ms']);

/**
 * Hoists `tasks.X.<projection>` reads out of a verb body / `when:` / `for_each.items` into the
 * task's `with:` (the only place current v1 lets them live), rewriting each read to `with.<alias>`.
 * `bindings` is the task's `with:` map and is extended in place.
 */
export function hoistTaskReads(s: string, bindings: Record<string, unknown>): string {
  return rewriteReferences(s, (ref, text) => {
    if (ref.root !== 'tasks' || ref.segments.length < 2) return undefined;
    const [idSeg, projSeg] = ref.segments;
    // Only the dotted form `tasks.id.proj` is rewritten; bracket forms are left for the checker.
    if (text[idSeg.span.start - 1] !== '.' || text[projSeg.span.start - 1] !== '.') return undefined;
    const value = `\${{ tasks.${idSeg.name}.${projSeg.name} }}`;
    let alias = projSeg.name === 'output' ? idSeg.name : `${idSeg.name}_${projSeg.name}`;
    if (RESERVED_BINDINGS.has(alias)) alias = `${alias}_value`;
    let n = 1;
    const base = alias;
    while (alias in bindings && bindings[alias] !== value) alias = `${base}_${++n}`;
    bindings[alias] = value;
    return [{ start: ref.span.start, end: projSeg.span.end, text: `with.${alias}` }];
  });
}

/** True when `s` reads `root.name` in one of its islands. */
export function readsReference(s: string, root: string, name?: string): boolean {
  let found = false;
  rewriteReferences(s, (ref) => {
    if (ref.root === root && (name === undefined || ref.segments[0]?.name === name)) found = true;
    return undefined;
  });
  return found;
}
