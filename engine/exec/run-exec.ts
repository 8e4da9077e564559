// The `exec:` verb. Output rules (decided where the spec is silent): text output loses exactly
// one trailing newline (`\n` or `\r\n`), like a value read from a file; `decode: bytes` yields
// base64 text because every output must travel in JSON events; `jsonl` skips blank lines.
import { resolve } from 'node:path';
import type { ExecBody } from '../../core/ir.js';
import { NikaError } from '../contracts.js';
import type { Boundary } from '../permits.js';
import { blockedReason } from './blocklist.js';
import { composeEnv, ENV_FLOOR } from './env.js';
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
  // execa is ESM-only (and so are its dependencies): load it through import(), which works from
  // the CommonJS build too.
  const { execa } = await import('execa');
  const sub = execa(file, args, {
    cwd,
    env,
    extendEnv: false,
    detached: true,
    reject: false,
    encoding: 'buffer',
    stripFinalNewline: false,
    all: body.capture === 'combined',
    maxBuffer: MAX_BUFFER,
    ...(body.stdin !== undefined ? { input: body.stdin } : { stdin: 'ignore' as const }),
  });
  const pid = sub.pid;
  if (pid !== undefined) trackGroup(pid);
  let killing: Promise<void> | undefined;
  const onAbort = () => { if (pid !== undefined) killing ??= killGroup(pid, ctx.graceMs); };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let result;
  try {
    result = await sub;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    if (killing) await killing;
    else if (pid !== undefined) untrackGroup(pid);
  }
  if (ctx.signal.aborted) throw abortError(ctx.signal);

  const stdout = bytes(result.stdout);
  const stderr = bytes(result.stderr);
  const code = (result as { code?: string }).code;
  if (result.exitCode === undefined && !result.signal) {
    throw new NikaError('NIKA-EXEC-002', `cannot start ${file}${code ? ` (${code})` : ''}: ${firstLine(result.message ?? '')}`);
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
  const raw = body.capture === 'stderr' ? stderr : body.capture === 'combined' ? bytes(result.all) : stdout;
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

function bytes(v: unknown): Buffer {
  if (v === undefined || v === null) return Buffer.alloc(0);
  if (typeof v === 'string') return Buffer.from(v);
  if (Array.isArray(v)) return Buffer.concat(v.map(bytes));
  return Buffer.from(v as Uint8Array);
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
