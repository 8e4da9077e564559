// Everything a cached slice holds that carries document offsets (its YAML ranges, expression
// sites, findings, memoized check facts), gathered once into flat lists. A slice below an edit
// moves on every keystroke; a tight loop over those lists keeps that cheap where a walk over the
// objects was not.
import { isAlias, isCollection, isNode, isPair, isScalar } from 'yaml';
import type { Span } from '../text.js';

/** Fields of an ExprSite that are not offsets of its own (nodes and tasks move on their own). */
export const SITE_SKIP = new Set(['island', 'scalar', 'task', 'path', 'value', 'unwindOf', 'taskId', 'surface', 'verb', 'syntax', 'whole', 'exact']);

export class Offsets {
  private readonly ranges: number[][] = [];
  private readonly spans: Span[] = [];
  private seen = new Set<object>();

  /** YAML nodes: every `range` below `node` (pairs hold none of their own). */
  addNode(node: unknown): void {
    if (node == null) return;
    if (isPair(node)) {
      this.addNode(node.key);
      this.addNode(node.value);
      return;
    }
    if (isScalar(node) || isAlias(node) || isCollection(node)) {
      const r = (node as { range?: number[] }).range;
      if (r && !this.seen.has(r)) {
        this.seen.add(r);
        this.ranges.push(r);
      }
      if (isCollection(node)) for (const it of node.items) this.addNode(it);
    }
  }

  /** Objects never to enter (they move by other means). */
  exclude(o: object): void {
    this.seen.add(o);
  }

  addRange(r: number[] | undefined | null): void {
    if (r && !this.seen.has(r)) {
      this.seen.add(r);
      this.ranges.push(r);
    }
  }

  /**
   * Every `{start, end}` of numbers reachable from `root`, once per object. YAML nodes are not
   * entered (their ranges are added with `addNode`), nor are fields named in `skip`.
   */
  addSpans(root: unknown, skip?: ReadonlySet<string>): void {
    if (!root || typeof root !== 'object' || this.seen.has(root) || isNode(root) || isPair(root)) return;
    this.seen.add(root);
    if (Array.isArray(root)) {
      for (const x of root) this.addSpans(x);
      return;
    }
    if (root instanceof Map || root instanceof Set) {
      for (const v of root.values()) this.addSpans(v);
      return;
    }
    const o = root as Record<string, unknown>;
    if (typeof o.start === 'number' && typeof o.end === 'number') this.spans.push(o as unknown as Span);
    for (const k in o) {
      if (skip?.has(k)) continue;
      const v = o[k];
      if (v && typeof v === 'object') this.addSpans(v);
    }
  }

  /** Done adding: the identity set is only needed while collecting. */
  seal(): this {
    this.seen = new Set();
    return this;
  }

  shift(delta: number): void {
    for (const r of this.ranges) {
      for (let i = 0; i < r.length; i++) r[i] += delta;
    }
    for (const s of this.spans) {
      s.start += delta;
      s.end += delta;
    }
  }
}
