// nika:date. Timestamps are ISO 8601 in and out (UTC unless `tz` is given); `format` takes
// strftime directives; `diff` returns a whole number in `unit` (ms, s, m, h, d; default s).
import { parseDuration } from '../../core/duration.js';
import { builtinError } from './errors.js';
import type { Builtin } from './types.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export const date: Builtin = async (args) => {
  const tz = typeof args.tz === 'string' ? args.tz : undefined;
  if (tz) checkTz(tz);
  switch (args.op) {
    case 'now':
      return args.format ? strftime(new Date(), String(args.format), tz) : iso(new Date(), tz);
    case 'add':
    case 'subtract': {
      const base = args.base ? parseTs(String(args.base)) : new Date();
      const d = parseDuration(String(args.duration ?? ''));
      if (!d.ok) throw builtinError('date', 1, `duration: ${d.reason}`);
      const out = new Date(base.getTime() + (args.op === 'add' ? d.ms : -d.ms));
      return args.format ? strftime(out, String(args.format), tz) : iso(out, tz);
    }
    case 'format':
      return strftime(parseTs(String(args.input ?? '')), String(args.format ?? '%Y-%m-%dT%H:%M:%SZ'), tz);
    case 'parse':
      return parseTs(String(args.input ?? '')).toISOString();
    case 'diff': {
      const unit = String(args.unit ?? 's');
      if (!(unit in UNIT_MS)) throw builtinError('date', 1, `unit must be one of ${Object.keys(UNIT_MS).join(', ')}`);
      const ms = parseTs(String(args.end ?? '')).getTime() - parseTs(String(args.start ?? '')).getTime();
      return Math.trunc(ms / UNIT_MS[unit]);
    }
    default:
      throw builtinError('date', 1, `unknown op '${String(args.op)}'`);
  }
};

function parseTs(s: string): Date {
  const n = /^\d+$/.test(s) ? Number(s) * (s.length <= 10 ? 1000 : 1) : Date.parse(s);
  if (!s || Number.isNaN(n)) throw builtinError('date', 1, `'${s}' is not a timestamp`);
  return new Date(n);
}

function checkTz(tz: string): void {
  try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); } catch { throw builtinError('date', 1, `unknown time zone '${tz}'`); }
}

interface Parts { Y: number; m: number; d: number; H: number; M: number; S: number; ms: number; offsetMin: number; wd: number }

function partsOf(dt: Date, tz?: string): Parts {
  if (!tz || tz === 'UTC') {
    return { Y: dt.getUTCFullYear(), m: dt.getUTCMonth() + 1, d: dt.getUTCDate(), H: dt.getUTCHours(), M: dt.getUTCMinutes(), S: dt.getUTCSeconds(), ms: dt.getUTCMilliseconds(), offsetMin: 0, wd: dt.getUTCDay() };
  }
  const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(dt)) p[x.type] = x.value;
  const local = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  const offsetMin = Math.round((local - Math.floor(dt.getTime() / 1000) * 1000) / 60_000);
  return { Y: +p.year, m: +p.month, d: +p.day, H: +p.hour, M: +p.minute, S: +p.second, ms: dt.getUTCMilliseconds(), offsetMin, wd: new Date(local).getUTCDay() };
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
const offset = (min: number, colon: boolean) => `${min < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(min) / 60))}${colon ? ':' : ''}${pad(Math.abs(min) % 60)}`;

function iso(dt: Date, tz?: string): string {
  if (!tz || tz === 'UTC') return dt.toISOString();
  const p = partsOf(dt, tz);
  return `${p.Y}-${pad(p.m)}-${pad(p.d)}T${pad(p.H)}:${pad(p.M)}:${pad(p.S)}.${pad(p.ms, 3)}${offset(p.offsetMin, true)}`;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function strftime(dt: Date, fmt: string, tz?: string): string {
  const p = partsOf(dt, tz);
  const doy = Math.floor((Date.UTC(p.Y, p.m - 1, p.d) - Date.UTC(p.Y, 0, 1)) / 86_400_000) + 1;
  const map: Record<string, () => string> = {
    Y: () => String(p.Y), y: () => pad(p.Y % 100), m: () => pad(p.m), d: () => pad(p.d), e: () => String(p.d).padStart(2, ' '),
    H: () => pad(p.H), I: () => pad(p.H % 12 || 12), M: () => pad(p.M), S: () => pad(p.S), f: () => pad(p.ms * 1000, 6),
    p: () => (p.H < 12 ? 'AM' : 'PM'), j: () => pad(doy, 3), a: () => DAYS[p.wd].slice(0, 3), A: () => DAYS[p.wd],
    b: () => MONTHS[p.m - 1].slice(0, 3), B: () => MONTHS[p.m - 1], z: () => offset(p.offsetMin, false),
    Z: () => tz ?? 'UTC', s: () => String(Math.floor(dt.getTime() / 1000)), F: () => `${p.Y}-${pad(p.m)}-${pad(p.d)}`,
    T: () => `${pad(p.H)}:${pad(p.M)}:${pad(p.S)}`, u: () => String(p.wd || 7), w: () => String(p.wd), '%': () => '%',
  };
  return fmt.replace(/%(.)/g, (all, c: string) => (map[c] ? map[c]() : all));
}
