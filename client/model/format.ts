// Small text helpers shared by every view model: the views are narrow (a tree row, the end of
// a code line), so everything long is cut to one line with a visible ellipsis.

/** `850ms`, `1.2s`, `42s`, `3m05s`, `1h02m`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)}s`;
  if (s < 60) return `${Math.round(s)}s`;
  const totalS = Math.round(s);
  const m = Math.floor(totalS / 60);
  if (m < 60) return `${m}m${String(totalS % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Collapses whitespace (newlines included) and cuts to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  return flat.slice(0, Math.max(0, max - 1)).trimEnd() + '…';
}

/** A task output as the user would want to glance at it: strings as text, the rest as JSON. */
export function previewValue(value: unknown, max: number): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return oneLine(value, max);
  return oneLine(safeJson(value, 0), max);
}

/** JSON.stringify that never throws (cycles, BigInt) and keeps `undefined` visible. */
export function safeJson(value: unknown, indent = 2): string {
  const seen = new WeakSet<object>();
  try {
    const out = JSON.stringify(value, (_k, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (v && typeof v === 'object') {
        if (seen.has(v)) return '[circular]';
        seen.add(v);
      }
      return v;
    }, indent);
    return out ?? String(value);
  } catch {
    return String(value);
  }
}

/** Cuts a long block of text at `max` characters and says how much was left out. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

/** A fence longer than any backtick run inside, so arbitrary output cannot break the markdown. */
export function fence(text: string, lang = ''): string {
  let ticks = '```';
  while (text.includes(ticks)) ticks += '`';
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/** Escapes characters markdown would interpret in a one-line label. */
export function mdEscape(text: string): string {
  return text.replace(/([\\`*_{}[\]()#+!|<>~])/g, '\\$1');
}
