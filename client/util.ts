// Small timing helpers: views refresh at most a few times per second however fast events come.

/** Calls `fn` at most once per `ms`, always including the last call (trailing edge). */
export function throttle(fn: () => void, ms: number): { (): void; flush(): void; dispose(): void } {
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  const run = () => {
    timer = undefined;
    last = Date.now();
    fn();
  };
  const t = () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - Date.now());
    timer = setTimeout(run, wait);
  };
  t.flush = () => {
    if (timer) clearTimeout(timer);
    run();
  };
  t.dispose = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return t;
}

export function debounce<A extends unknown[]>(fn: (...a: A) => void, ms: number): { (...a: A): void; dispose(): void } {
  let timer: NodeJS.Timeout | undefined;
  const d = (...a: A) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...a);
    }, ms);
  };
  d.dispose = () => {
    if (timer) clearTimeout(timer);
  };
  return d;
}

export function errorMessage(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('NIKA-') && !msg.includes(code) ? `${code}: ${msg}` : msg;
}
