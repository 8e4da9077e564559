// One producer, many consumers: listeners get every event synchronously, and each
// `for await` over `events` gets its own replay of everything emitted so far, so a renderer that
// subscribes a little late still sees `workflow_started`.
import type { NikaEvent } from '../events.js';

export class EventChannel {
  private readonly history: NikaEvent[] = [];
  private readonly listeners = new Set<(e: NikaEvent) => void>();
  private readonly wakers = new Set<() => void>();
  private closed = false;

  push(event: NikaEvent): void {
    if (this.closed) return;
    this.history.push(event);
    for (const l of this.listeners) {
      try { l(event); } catch { /* a broken renderer must not break the run */ }
    }
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  on(listener: (e: NikaEvent) => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  private wake(): void {
    const ws = [...this.wakers];
    this.wakers.clear();
    for (const w of ws) w();
  }

  async *iterate(): AsyncGenerator<NikaEvent> {
    let i = 0;
    for (;;) {
      while (i < this.history.length) yield this.history[i++];
      if (this.closed) return;
      await new Promise<void>((r) => this.wakers.add(r));
    }
  }
}
