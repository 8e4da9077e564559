import type { RunStore } from './store.js';

/** Calls `repaint` once a second while the store has a running run, so elapsed times move. */
export class RunningTicker {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: RunStore, private readonly repaint: () => void) {}

  /** Call on every store change: starts the clock when a run is under way. */
  poke(): void {
    if (this.timer || this.store.running().length === 0) return;
    this.timer = setInterval(() => {
      if (this.store.running().length === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
      this.repaint();
    }, 1000);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
