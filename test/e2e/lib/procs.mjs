// Finding processes without trusting names: every MCP server the fixture configures carries a
// marker variable in its environment (set in .vscode/mcp.json), so a scan of /proc finds it
// wherever it was spawned from; the code-server process group is listed as a second view.
import fs from 'node:fs';

const cmdline = (pid) => {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim(); } catch { return ''; }
};

export function processesWithMark(mark) {
  const needle = `NIKA_E2E_MARK=${mark}`;
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let env;
    try { env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8'); } catch { continue; }
    if (env.split('\0').includes(needle)) out.push({ pid: Number(pid), cmd: cmdline(pid).slice(0, 160) });
  }
  return out;
}

export function processGroup(pgid) {
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat;
    try { stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { continue; }
    // Fields after the parenthesised command name: state ppid pgrp …
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(rest[2]) === pgid) out.push({ pid: Number(pid), cmd: cmdline(pid).slice(0, 160) });
  }
  return out;
}
