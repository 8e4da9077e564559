// Moving derived data (IR tasks, expression sites, diagnostics) along with the slice it came from.
import type { NikaDiagnostic } from '../diagnostic.js';
import type { Task } from '../ir.js';
import type { ExprSite } from '../scan.js';

/** Fields of an ExprSite that are not document offsets (or are nodes shifted elsewhere). */
const SITE_SKIP = new Set(['island', 'scalar', 'task', 'path', 'value', 'unwindOf', 'taskId', 'surface', 'verb', 'syntax', 'whole', 'exact']);

/**
 * Adds `delta` to every span (`{start, end}` of numbers) reachable from `root`, once per object
 * (sites share span objects between their fields).
 */
export function shiftSpans(root: unknown, delta: number, seen: Set<object>, skip?: Set<string>): void {
  if (!root || typeof root !== 'object' || seen.has(root)) return;
  seen.add(root);
  if (Array.isArray(root)) {
    for (const x of root) shiftSpans(x, delta, seen);
    return;
  }
  const o = root as Record<string, unknown>;
  if (typeof o.start === 'number' && typeof o.end === 'number') {
    o.start += delta;
    o.end += delta;
  }
  for (const k in o) {
    if (skip?.has(k)) continue;
    const v = o[k];
    if (v && typeof v === 'object') shiftSpans(v, delta, seen);
  }
}

export function shiftSites(sites: ExprSite[], delta: number): void {
  const seen = new Set<object>();
  for (const s of sites) {
    if (seen.has(s)) continue;
    seen.add(s);
    for (const k in s) {
      if (SITE_SKIP.has(k)) continue;
      const v = (s as unknown as Record<string, unknown>)[k];
      if (v && typeof v === 'object') shiftSpans(v, delta, seen);
    }
  }
}

export function shiftDiagnostics(ds: NikaDiagnostic[], delta: number): void {
  const seen = new Set<object>();
  for (const d of ds) shiftSpans(d, delta, seen);
}

/** A copy of a task read from a slice that moved (the values inside are shared, not copied). */
export function shiftedTask(t: Task, delta: number): Task {
  if (delta === 0) return t;
  return { ...t, span: { start: t.span.start + delta, end: t.span.end + delta }, idSpan: { start: t.idSpan.start + delta, end: t.idSpan.end + delta } };
}
