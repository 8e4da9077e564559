// Small numeric helpers shared by the benchmarks.
import { readFileSync } from 'node:fs';

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
export const median = (xs: number[]) => percentile(xs, 50);

/** User+system CPU of a process in ms, from /proc/<pid>/stat (Linux; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state is field 3 → index 0, so utime (14) is index 11, stime (15) index 12.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Resident memory of a process in MiB (current and peak), from /proc/<pid>/status. */
export function rssMiB(pid: number): { rss: number; peak: number } {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

export const fmt = (ms: number, digits = 1) => (Number.isFinite(ms) ? ms.toFixed(digits) : 'n/a');
export const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(3)}×` : 'n/a');

/** Prints rows as an aligned text table. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const w = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r, j) => {
    const line = r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ');
    return j === 0 ? `${line}\n${w.map((x) => '-'.repeat(x)).join('  ')}` : line;
  }).join('\n');
}
