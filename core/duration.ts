// Go-style durations for `timeout:` (reference §2): "1h30m", "250ms", "1.5s". Units strictly
// descending without repeats; no days or weeks.
const UNITS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, 'µs': 0.001, ns: 0.000001 };
const ORDER = ['h', 'm', 's', 'ms', 'us', 'µs', 'ns'];
const PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;

export type DurationResult = { ok: true; ms: number } | { ok: false; reason: string };

export function parseDuration(text: string): DurationResult {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, reason: 'a duration must be a non-empty string such as "30s"' };
  let pos = 0;
  let ms = 0;
  let lastRank = -1;
  PART.lastIndex = 0;
  while (pos < text.length) {
    PART.lastIndex = pos;
    const m = PART.exec(text);
    if (!m) {
      const rest = text.slice(pos);
      if (/^\d+(\.\d+)?[dw]/.test(rest)) return { ok: false, reason: 'days and weeks are not duration units; use hours, e.g. "48h"' };
      if (/^\d+(\.\d+)?$/.test(rest)) return { ok: false, reason: `"${text}" has no unit; write e.g. "${rest}s"` };
      return { ok: false, reason: `"${text}" is not a duration like "30s", "1h30m" or "250ms"` };
    }
    const unit = m[2] === 'µs' ? 'us' : m[2];
    const rank = ORDER.indexOf(unit);
    if (rank <= lastRank) return { ok: false, reason: `units must go strictly from larger to smaller without repeats ("1h30m", not "${text}")` };
    lastRank = rank;
    ms += Number(m[1]) * UNITS[unit];
    pos = PART.lastIndex;
  }
  if (ms <= 0) return { ok: false, reason: 'a timeout must be positive' };
  return { ok: true, ms };
}
