// Real-process helpers for the fault and security suites: run the bundled CLI asynchronously
// (tests often serve HTTP from their own event loop, so spawnSync would deadlock), wait for pid
// files, bound every wait so a hang fails the test instead of stalling it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
export const BAD_MCP = join(ROOT, 'test', 'support', 'bad-mcp-server.mjs');

let built = false;
/** Builds dist/ once per test process (the suites test the bundles a user runs). */
export function buildOnce(): void {
  // test/run.mjs builds before starting the test files; rebuilding from each file would rewrite
  // dist/ while other files (run in parallel) are executing it.
  if (built || process.env.NIKA_TEST_BUILT === '1') return;
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
  built = true;
}

export function tempDir(prefix = 'nika-fault-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes `wf.nika.yaml` (and any extra files) into a fresh folder; returns the workflow path. */
export function writeWorkflow(yaml: string, files: Record<string, string> = {}, dir = tempDir()): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const file = join(dir, 'wf.nika.yaml');
  writeFileSync(file, yaml);
  return file;
}

/** Rejects with `what` when `p` has not settled within `ms`: the bound fails the test. */
export function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const t = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export interface CliRun {
  child: ChildProcess;
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  exit: Promise<number | string>;
  out(): string;
  err(): string;
  /** Parsed `--json` event lines so far. */
  events(): Array<Record<string, any>>;
}

export function startCli(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return {
    child, exit,
    out: () => out,
    err: () => err,
    events: () => out.split('\n').filter((l) => l.startsWith('{')).map((l) => { try { return JSON.parse(l); } catch { return { unparsable: l }; } }),
  };
}

/** Runs the CLI to completion (bounded) and returns what it printed. */
export async function runCli(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; withinMs?: number } = {}) {
  const r = startCli(args, opts);
  try {
    const code = await within(opts.withinMs ?? 60_000, `nika-run ${args.join(' ')}`, r.exit);
    return { code, out: r.out(), err: r.err(), events: r.events() };
  } catch (e) {
    r.child.kill('SIGKILL');
    throw new Error(`${(e as Error).message}\nstdout: ${r.out().slice(-2000)}\nstderr: ${r.err().slice(-2000)}`);
  }
}

/** Waits (bounded) until every file exists and holds at least one pid; returns the pids. */
export async function pidsFrom(files: string[], ms = 20_000): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const ready = files.every((f) => existsSync(f) && /\d/.test(readFileSync(f, 'utf8')));
    if (ready) return files.flatMap((f) => readFileSync(f, 'utf8').split(/\s+/).filter(Boolean).map(Number));
    if (Date.now() > end) throw new Error(`pid files never appeared: ${files.filter((f) => !existsSync(f)).join(', ')}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (exited, not yet reaped by a parent that is itself going away) is not running.
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Pids from `pids` still running after `ms` (polling; empty = all gone). */
export async function survivors(pids: number[], ms = 3000): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (!left.length || Date.now() > end) return left;
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** Kills leftovers so a failing test does not leave processes behind for the next one. */
export function reap(pids: number[]): void {
  for (const p of pids) { try { process.kill(p, 'SIGKILL'); } catch { /* gone */ } }
}

/** An --mcp-config file for the misbehaving server in `mode`, recording its pid in `pidFile`. */
export function badMcpConfig(dir: string, servers: Record<string, { mode?: string; pidFile?: string; env?: Record<string, string> }>): string {
  const mcpServers: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(servers)) {
    mcpServers[name] = {
      command: process.execPath,
      args: [BAD_MCP, ...(s.mode ? [s.mode] : [])],
      env: { ...(s.pidFile ? { BAD_MCP_PIDFILE: s.pidFile } : {}), ...(s.env ?? {}) },
    };
  }
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers }));
  return file;
}
