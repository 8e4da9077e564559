// Secret values must never leave the engine: every event (and the run result) is passed through
// this before anyone sees it.
export const MASK = '***';

export class Redactor {
  private values: string[] = [];

  add(value: string): void {
    if (!value || this.values.includes(value)) return;
    this.values.push(value);
    // Longest first, so a secret containing another is masked whole.
    this.values.sort((a, b) => b.length - a.length);
  }

  get active(): boolean { return this.values.length > 0; }

  /** Per stream: masked text held back because it may be the start of a secret cut across chunks. */
  private readonly pending = new Map<string, string>();

  /**
   * Streamed text (model output arrives in chunks): masks a secret even when it is cut across
   * chunks. Returns what may be shown now; a tail that could begin a secret waits for the next
   * chunk or flush(). Masking each chunk alone let "hunt" + "er2" show a secret once joined.
   */
  stream(key: string, chunk: string): string {
    const masked = this.text((this.pending.get(key) ?? '') + chunk);
    const hold = this.heldTail(masked);
    if (hold) this.pending.set(key, masked.slice(masked.length - hold));
    else this.pending.delete(key);
    return masked.slice(0, masked.length - hold);
  }

  /** The held-back tail of a stream (a proper prefix of a secret, safe to show) once it has ended. */
  flush(key: string): string {
    const rest = this.pending.get(key) ?? '';
    this.pending.delete(key);
    return rest;
  }

  private heldTail(s: string): number {
    let best = 0;
    for (const v of this.values) {
      for (let n = Math.min(v.length - 1, s.length); n > best; n--) {
        if (s.endsWith(v.slice(0, n))) { best = n; break; }
      }
    }
    return best;
  }

  text(s: string): string {
    let out = s;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join(MASK);
    return out;
  }

  deep<T>(value: T): T {
    if (!this.active) return value;
    return this.walk(value, new WeakMap()) as T;
  }

  private walk(v: unknown, seen: WeakMap<object, unknown>): unknown {
    if (typeof v === 'string') return this.text(v);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return seen.get(v);
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      seen.set(v, out);
      for (const x of v) out.push(this.walk(x, seen));
      return out;
    }
    if (Buffer.isBuffer(v) || v instanceof Uint8Array) return v;
    const out: Record<string, unknown> = {};
    seen.set(v, out);
    for (const [k, x] of Object.entries(v)) out[this.text(k)] = this.walk(x, seen);
    return out;
  }
}
