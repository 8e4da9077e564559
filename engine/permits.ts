// The run-time half of the `permits:` law (reference §1.6): the first effect outside a declared
// boundary fails its task with NIKA-SEC-004. Only current-v1 files carry the law; draft and
// legacy files predate it and run unbounded (the editor's workspace trust still gates them).
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { homedir } from 'node:os';
import type { Permits, Workflow } from '../core/ir.js';
import { toolAllowed } from '../core/toolid.js';
import { NikaError } from './contracts.js';
import { globToRegExp } from '../core/audit/fs-paths.js';

const SEC_004 = 'NIKA-SEC-004';

function refuse(what: string, hint: string): never {
  throw new NikaError(SEC_004, `${what} is outside the workflow's permits (${hint})`);
}

/** Resolves symlinks and `..` even for paths that do not exist yet (their nearest existing parent). */
export function realPath(p: string): string {
  const abs = resolve(p);
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = realpathSync(cur);
      return tail.length ? join(real, ...tail.reverse()) : real;
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return abs;
      tail.push(basename(cur));
      cur = parent;
    }
  }
}

export class Boundary {
  private readonly readRes: RegExp[];
  private readonly writeRes: RegExp[];
  /** Literal directory prefixes of the read grants, so a walk can enter the folders that lead to them. */
  private readonly readRoots: string[];

  /** `permits` undefined = no law (draft/legacy dialects): everything is allowed. */
  constructor(readonly permits: Permits | undefined, readonly baseDir: string) {
    const base = realPath(baseDir);
    const compile = (globs: string[] | undefined) => (globs ?? []).map((g) => globToRegExp(anchor(g, base)));
    this.readRes = compile(permits?.fs?.read);
    this.writeRes = compile(permits?.fs?.write);
    this.readRoots = (permits?.fs?.read ?? []).map((g) => literalPrefix(anchor(g, base)));
  }

  static forWorkflow(wf: Workflow, cwd: string): Boundary {
    if (wf.dialect !== 'v1') return new Boundary(undefined, cwd);
    // A v1 file without `permits:` has zero authority; the checker refuses it before a run, and
    // a caller that skips the check still gets no effects.
    return new Boundary(wf.permits ?? { span: { start: 0, end: 0 } }, cwd);
  }

  get enforced(): boolean { return this.permits !== undefined; }

  /** Real path of `p` (relative to the workflow dir) after checking it against `fs.read`. */
  read(p: string): string { return this.fsCheck(p, this.readRes, 'fs.read'); }
  write(p: string): string { return this.fsCheck(p, this.writeRes, 'fs.write'); }

  /** A directory may be walked when it is readable or holds a readable grant below it; each file found is checked on its own. */
  readDir(p: string): string {
    const real = realPath(isAbsolute(p) ? p : resolve(this.baseDir, p));
    if (!this.permits || this.readRoots.some((r) => r === real || r.startsWith(real + sep))) return real;
    return this.read(p);
  }

  private fsCheck(p: string, res: RegExp[], cat: string): string {
    const real = realPath(isAbsolute(p) ? p : resolve(this.baseDir, p));
    if (!this.permits) return real;
    if (!coveredBy(real, res)) refuse(`${cat === 'fs.read' ? 'reading' : 'writing'} ${p}${real !== resolve(this.baseDir, p) ? ` (resolves to ${real})` : ''}`, `permits.${cat}`);
    return real;
  }

  /**
   * A child's working directory (absolute): the workflow folder or what `fs.read` grants, after
   * symlinks and `..`. Without this, `cwd: ..` or a symlinked folder let an allowed program work
   * outside every grant.
   */
  cwd(abs: string): string {
    if (!this.permits) return abs;
    const real = realPath(abs);
    const base = realPath(this.baseDir);
    if (real === base || real.startsWith(base + sep) || coveredBy(real, this.readRes)) return real;
    refuse(`running a process in ${abs}${real !== abs ? ` (resolves to ${real})` : ''}`, 'exec cwd must be inside the workflow folder or permits.fs.read');
  }

  exec(argv0: string | undefined, shell: boolean): void {
    if (!this.permits) return;
    const e = this.permits.exec;
    if (e === true) return;
    if (!Array.isArray(e)) refuse('running a process', 'permits.exec is not granted');
    if (shell) refuse('a shell: command', 'permits.exec is an allowlist; shell strings are refused under it, use command: [argv…]');
    const name = argv0 ?? '';
    if (!e.some((p) => p === name || (!p.includes('/') && p === basename(name)))) {
      refuse(`running '${name}'`, `permits.exec allows ${e.length ? e.join(', ') : 'nothing'}`);
    }
  }

  /** Names of engine env vars the workflow lets through to children. */
  get passEnv(): string[] { return this.permits?.env ?? []; }

  env(names: string[], floor: readonly string[]): void {
    if (!this.permits) return;
    const allowed = new Set([...floor, ...(this.permits.env ?? [])]);
    for (const n of names) if (!allowed.has(n)) refuse(`setting ${n} for a child process`, 'permits.env');
  }

  tool(id: string): void {
    if (!this.permits) return;
    if (!toolAllowed(this.permits.tools ?? [], id)) refuse(`calling ${id}`, 'permits.tools');
  }

  /** True when the exact host is granted (which also lifts the SSRF floor for it). */
  hostGranted(host: string): boolean {
    const hosts = (this.permits?.net?.http ?? []).map((h) => h.toLowerCase());
    return hosts.includes(host.toLowerCase().replace(/^\[|\]$/g, ''));
  }

  host(host: string): void {
    if (!this.permits) return;
    const hosts = this.permits.net?.http ?? [];
    if (hosts.includes('*') || this.hostGranted(host)) return;
    refuse(`HTTP to ${host}`, 'permits.net.http');
  }
}

function anchor(glob: string, base: string): string {
  let g = glob.trim();
  if (g.startsWith('~/')) g = join(homedir(), g.slice(2));
  else if (!g.startsWith('/')) g = join(base, g);
  // join() collapses `./` and `..`, which is what a reader of the permit means by them.
  if (g.endsWith(sep) && g.length > 1) g = g.slice(0, -1);
  return g;
}

function literalPrefix(glob: string): string {
  const parts = glob.split(sep);
  const i = parts.findIndex((x) => /[*?[]/.test(x));
  return i < 0 ? glob : parts.slice(0, i).join(sep) || sep;
}

function coveredBy(real: string, res: RegExp[]): boolean {
  // A granted directory covers everything below it, as in gitignore.
  for (let p = real; ; p = dirname(p)) {
    if (res.some((r) => r.test(p))) return true;
    if (dirname(p) === p) return false;
  }
}
