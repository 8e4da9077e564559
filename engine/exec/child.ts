// One child process, output captured: a thin layer over child_process.spawn. It replaced execa,
// whose per-call option normalization, stream plumbing and internal AbortControllers cost about
// 1.5 ms of main-thread time per process (more than the fork itself on a small machine); the
// engine used none of what that bought (it always spawned detached, with an explicit env, reject
// off, buffers, no final-newline stripping).
//
// The child leads its own process group (`detached`), so a cancel or a timeout takes down
// everything it started; the caller kills through kill.ts with the pid. The promise settles once
// the child has exited and its stdout/stderr are drained ('close'), like the shell's `$( )`.
import { spawn } from 'node:child_process';

export interface ChildOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to the child's stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Also collect stdout and stderr interleaved in arrival order. */
  all?: boolean;
  /** Bytes per stream; past it the group is stopped and the result says so. */
  maxBuffer: number;
  /** Called with the pid right after a successful spawn (to track the group). */
  onSpawn?(pid: number): void;
  /** Called once when a stream goes past maxBuffer (to stop the group). */
  onOverflow?(pid: number): void;
}

export interface ChildResult {
  stdout: Buffer;
  stderr: Buffer;
  all?: Buffer;
  exitCode?: number;
  signal?: NodeJS.Signals;
  /** Set when the process could not be started (ENOENT, EACCES, bad cwd…). */
  spawnError?: NodeJS.ErrnoException;
  /** The stream that went past maxBuffer (its output is cut there). */
  overflow?: 'stdout' | 'stderr';
}

export interface Child {
  pid: number | undefined;
  result: Promise<ChildResult>;
  /** Stop waiting for output still held open by an escaped process (after the group was killed). */
  release(): void;
}

export function startChild(file: string, args: string[], o: ChildOptions): Child {
  const out = { parts: [] as Buffer[], len: 0 };
  const err = { parts: [] as Buffer[], len: 0 };
  const all: Buffer[] | undefined = o.all ? [] : undefined;
  let overflow: ChildResult['overflow'];
  let spawnError: NodeJS.ErrnoException | undefined;

  const child = spawn(file, args, {
    cwd: o.cwd,
    env: o.env,
    detached: true,
    windowsHide: true,
    stdio: [o.input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid !== undefined) o.onSpawn?.(pid);

  const over = (which: 'stdout' | 'stderr') => {
    if (overflow) return;
    overflow = which;
    if (pid !== undefined) o.onOverflow?.(pid);
  };
  const collect = (which: 'stdout' | 'stderr', into: { parts: Buffer[]; len: number }) => (b: Buffer) => {
    if (overflow) return;
    if (into.len + b.length > o.maxBuffer) { b = b.subarray(0, o.maxBuffer - into.len); over(which); }
    into.len += b.length;
    into.parts.push(b);
    all?.push(b);
  };
  child.stdout!.on('data', collect('stdout', out));
  child.stderr!.on('data', collect('stderr', err));
  if (child.stdin) {
    // A child that exits without reading its input must not fail the task with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.input);
  }

  const result = new Promise<ChildResult>((resolve) => {
    child.once('error', (e) => {
      spawnError = e as NodeJS.ErrnoException;
      // No 'close' follows a failed spawn once the pipes are gone; settle here.
      if (pid === undefined) resolve(done(null, null));
    });
    child.once('close', (code, signal) => resolve(done(code, signal)));
  });
  const done = (code: number | null, signal: NodeJS.Signals | null): ChildResult => ({
    stdout: join(out.parts, out.len),
    stderr: join(err.parts, err.len),
    ...(all ? { all: Buffer.concat(all) } : {}),
    ...(code !== null ? { exitCode: code } : {}),
    ...(signal ? { signal } : {}),
    ...(spawnError ? { spawnError } : {}),
    ...(overflow ? { overflow } : {}),
  });
  return {
    pid,
    result,
    release: () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
  };
}

function join(parts: Buffer[], len: number): Buffer {
  return parts.length === 1 ? parts[0] : Buffer.concat(parts, len);
}
