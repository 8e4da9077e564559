// Runs through the official `nika` binary (`nika run FILE --json`) when the user asks for it.
// Its NDJSON is mapped onto our events (model/officialEvents.ts); stderr goes to the run's
// output channel; cancel stops its whole process group.
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import * as path from 'node:path';
import type { NikaEvent } from '../../engine/events.js';
import { parseOfficialLine } from '../model/officialEvents.js';

/** Resolves the binary on PATH (or an explicit path); undefined when it is not there. */
export async function findOfficialBinary(name: string): Promise<string | undefined> {
  const candidates = name.includes('/') || name.includes('\\')
    ? [name]
    : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).flatMap((d) =>
      process.platform === 'win32' ? [path.join(d, `${name}.exe`), path.join(d, `${name}.cmd`)] : [path.join(d, name)]);
  for (const c of candidates) {
    try {
      await access(c, constants.X_OK);
      return c;
    } catch { /* keep looking */ }
  }
  return undefined;
}

export interface OfficialRun { cancel(reason?: string): void; done: Promise<number> }

export function startOfficialRun(o: {
  binary: string; file: string; cwd: string; task?: string; modelOverride?: string; inputs: Record<string, unknown>;
  env: Record<string, string | undefined>; runId: string; onEvent(ev: NikaEvent): void; onStderr(text: string): void;
}): OfficialRun {
  const args = ['run', o.file, '--json', '--color', 'never'];
  if (o.task) args.push('--task', o.task);
  if (o.modelOverride) args.push('--model', o.modelOverride);
  for (const [k, v] of Object.entries(o.inputs)) args.push('--var', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const child = spawn(o.binary, args, { cwd: o.cwd, env: { ...o.env, NO_COLOR: '1' }, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'] });
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      for (const ev of parseOfficialLine(line, o.runId)) o.onEvent(ev);
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => o.onStderr(s));
  const done = new Promise<number>((resolve) => {
    child.on('error', (e) => {
      o.onStderr(`could not start ${o.binary}: ${e.message}\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      if (buf.trim()) for (const ev of parseOfficialLine(buf, o.runId)) o.onEvent(ev);
      resolve(code ?? (signal ? 130 : 1));
    });
  });
  let signals = 0;
  return {
    done,
    cancel: () => {
      if (child.exitCode !== null || !child.pid) return;
      const sig = signals++ === 0 ? 'SIGTERM' : 'SIGKILL';
      try {
        if (process.platform !== 'win32') process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        child.kill(sig);
      }
    },
  };
}
