// The `exec:` verb. Output rules (decided where the spec is silent): text output loses exactly
// one trailing newline (`\n` or `\r\n`), like a value read from a file; `decode: bytes` yields
// base64 text because every output must travel in JSON events; `jsonl` skips blank lines.
import { resolve } from 'node:path';
import type { ExecBody } from '../../core/ir.js';
import { NikaError } from '../contracts.js';
import type { Boundary } from '../permits.js';
import { blockedReason } from './blocklist.js';
import { composeEnv, ENV_FLOOR } from './env.js';
import { startChild, type Child } from './child.js';
import { killGroup, trackGroup, untrackGroup } from './kill.js';

export interface ExecContext {
  cwd: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  boundary: Boundary;
  /** Extra variables every child gets (v1-draft `env:` block). */
  workflowEnv?: Record<string, string>;
  graceMs?: number;
}

const MAX_BUFFER = 64 * 1024 * 1024;

export async function runExec(body: ExecBody, ctx: ExecContext): Promise<unknown> {
  const argv = body.command?.map(toArg);
  const shell = body.shell;
  if (!argv?.length && !shell) throw new NikaError('NIKA-EXEC-002', 'exec needs command: [argv…] or shell:');
  const line = shell ?? argv!.join(' ');
  const blocked = blockedReason(line);
  if (blocked) throw new NikaError('NIKA-SEC-001', `command refused by the engine's blocklist (${blocked}): ${line}`);

  ctx.boundary.exec(argv?.[0], shell !== undefined);
  const own: Record<string, string> = { ...(ctx.workflowEnv ?? {}) };
  for (const [k, v] of Object.entries(body.env ?? {})) own[k] = toArg(v);
  ctx.boundary.env(Object.keys(body.env ?? {}), ENV_FLOOR);
  const env = composeEnv(ctx.env, ctx.boundary.passEnv, own);
  const cwd = body.cwd ? ctx.boundary.cwd(resolve(ctx.cwd, body.cwd)) : ctx.cwd;

  if (ctx.signal.aborted) throw abortError(ctx.signal);
  const [file, args] = shell !== undefined ? ['/bin/sh', ['-c', shell]] : [argv![0], argv!.slice(1)];
  let killing: Promise<void> | undefined;
  // Once the group is gone, stop waiting on pipes an escaped process may still hold open.
  const stop = (pid: number) => { killing ??= killGroup(pid, ctx.graceMs).then(() => sub.release()); };
  let sub: Child;
  try {
    sub = startChild(file, args, {
      cwd,
      env,
      all: body.capture === 'combined',
      maxBuffer: MAX_BUFFER,
      input: body.stdin === undefined ? undefined : toArg(body.stdin),
      onSpawn: trackGroup,
      onOverflow: stop,
    });
  } catch (e) {
    // spawn() throws synchronously on arguments it cannot pass (a NUL byte, say).
    throw new NikaError('NIKA-EXEC-002', `cannot start ${file}: ${firstLine((e as Error).message ?? String(e))}`);
  }
  const pid = sub.pid;
  const onAbort = () => { if (pid !== undefined) stop(pid); };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let result;
  try {
    result = await sub.result;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    if (killing) await killing;
    else if (pid !== undefined) untrackGroup(pid);
  }
  if (ctx.signal.aborted) throw abortError(ctx.signal);

  const { stdout, stderr } = result;
  if (result.spawnError && result.exitCode === undefined && !result.signal) {
    const e = result.spawnError;
    throw new NikaError('NIKA-EXEC-002', `cannot start ${file}${e.code ? ` (${e.code})` : ''}: ${firstLine(e.message ?? '')}`);
  }
  if (result.overflow) {
    throw new NikaError('NIKA-EXEC-001', `${shell !== undefined ? 'shell command' : `'${file}'`} was stopped: its ${result.overflow} went past ${MAX_BUFFER / 1024 / 1024} MiB`, {
      details: { exit_code: result.exitCode ?? null, signal: result.signal ?? null },
    });
  }
  if (body.capture === 'structured') {
    return { stdout: trimNl(stdout.toString('utf8')), stderr: trimNl(stderr.toString('utf8')), exit_code: result.exitCode ?? null };
  }
  if (result.exitCode !== 0) {
    const why = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    const tail = tailOf(stderr.toString('utf8')) || tailOf(stdout.toString('utf8'));
    throw new NikaError('NIKA-EXEC-001', `${shell !== undefined ? 'shell command' : `'${file}'`} ${why}${tail ? `: ${tail}` : ''}`, {
      details: { exit_code: result.exitCode ?? null, signal: result.signal ?? null },
    });
  }
  const raw = body.capture === 'stderr' ? stderr : body.capture === 'combined' ? result.all ?? Buffer.alloc(0) : stdout;
  return decode(raw, body.decode);
}

function decode(raw: Buffer, how: ExecBody['decode']): unknown {
  if (how === 'bytes') return raw.toString('base64');
  const text = trimNl(raw.toString('utf8'));
  if (how === 'json') {
    try { return JSON.parse(text); } catch (e) {
      throw new NikaError('NIKA-TYPE-101', `decode: json but the output is not JSON (${(e as Error).message}): ${text.slice(0, 200)}`);
    }
  }
  if (how === 'jsonl') {
    return text.split(/\r?\n/).filter((l) => l.trim() !== '').map((l, i) => {
      try { return JSON.parse(l); } catch {
        throw new NikaError('NIKA-TYPE-101', `decode: jsonl but line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
      }
    });
  }
  return text;
}

function toArg(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const trimNl = (s: string) => s.replace(/\r?\n$/, '');
const firstLine = (s: string) => s.split('\n').find((l) => l.trim()) ?? s;

function tailOf(s: string): string {
  const lines = s.trimEnd().split(/\r?\n/).slice(-5).join('\n');
  return lines.length > 1000 ? '…' + lines.slice(-1000) : lines;
}

export function abortError(signal: AbortSignal): NikaError {
  const r = signal.reason;
  if (r instanceof NikaError) return r;
  return new NikaError('NIKA-CANCEL-001', typeof r === 'string' ? r : r instanceof Error ? r.message : 'cancelled');
}
