// Terminal styling that switches itself off for pipes and NO_COLOR.
const enabled = (stream: NodeJS.WriteStream) => stream.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb';

export function styler(stream: NodeJS.WriteStream) {
  const on = enabled(stream);
  const wrap = (code: string) => (s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { bold: wrap('1'), dim: wrap('2'), red: wrap('31'), green: wrap('32'), yellow: wrap('33'), blue: wrap('34'), magenta: wrap('35'), cyan: wrap('36') };
}

export function duration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${Math.round((ms % 60_000) / 1000)}s`;
}

export function preview(v: unknown, max = 120): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? 'null';
  const one = s.replace(/\s*\n\s*/g, ' ⏎ ');
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
}
