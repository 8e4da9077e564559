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
