// The minimal `permits:` block a workflow needs (reference §1.6, NIKA-AUTH-006's quick fix): the
// union of the visible effects, literal bounds only. Effects whose target is known only at run
// time cannot be bounded here; they are listed as comments in the rendered block so the author
// sees what still needs a decision. Re-checking a file with this block finds no escape.
import { isFloorEnv } from './env.js';
import type { Effect } from './effects.js';
import { normalizeHost } from './hosts.js';

export interface InferredPermits {
  fs: { read: string[]; write: string[] };
  net: { http: string[] };
  /** `true` when a shell or a program unknown before the run is needed. */
  exec: boolean | string[];
  tools: string[];
  env: string[];
  /** What could not be bounded literally, one line each. */
  open: string[];
}

export function inferPermits(effects: readonly Effect[]): InferredPermits {
  const p: InferredPermits = { fs: { read: [], write: [] }, net: { http: [] }, exec: false, tools: [], env: [], open: [] };
  const programs: string[] = [];
  // A set per list: `includes` on each add was quadratic over a thousand tasks.
  const seen = new Map<string[], Set<string>>();
  const add = (list: string[], s: string): void => {
    let set = seen.get(list);
    if (!set) seen.set(list, (set = new Set()));
    if (set.has(s)) return;
    set.add(s);
    list.push(s);
  };
  let anyExec = false;
  let execTrue = false;
  for (const e of effects) {
    switch (e.kind) {
      case 'exec':
        anyExec = true;
        if (e.shell || e.program === undefined || e.program === '') {
          execTrue = true;
          if (!e.shell) add(p.open, `task ${e.task.id} runs a program known only at run time (exec: true grants any program)`);
        } else add(programs, e.program);
        break;
      case 'tool':
        add(p.tools, e.id);
        break;
      case 'fs':
        if (e.path === undefined) add(p.open, `task ${e.task.id}: ${e.tool} ${e.arg} is known only at run time; add its fs.${e.access} glob`);
        else add(e.access === 'read' ? p.fs.read : p.fs.write, e.use === 'dir-write' ? `${e.path.replace(/\/+$/, '')}/**` : e.path);
        break;
      case 'net':
        if (e.host) add(p.net.http, normalizeHost(e.host));
        else add(p.open, `task ${e.task.id}: ${e.tool} ${e.arg} is known only at run time; add its host to net.http`);
        break;
      case 'env':
        if (!isFloorEnv(e.name)) add(p.env, e.name);
        break;
    }
  }
  if (anyExec) p.exec = execTrue ? true : programs;
  return p;
}

export function isEmpty(p: InferredPermits): boolean {
  return !p.fs.read.length && !p.fs.write.length && !p.net.http.length && p.exec === false && !p.tools.length && !p.env.length;
}

const q = (s: string) => JSON.stringify(s);
const list = (xs: string[]) => `[${xs.map(q).join(', ')}]`;
/** Program names stay bare when YAML reads them back as the same string. */
const prog = (s: string) => (/^[A-Za-z_][A-Za-z0-9_.+-]*$/.test(s) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(s) ? s : q(s));

/** The block as YAML lines (without a trailing newline), indented by `indent` per level. */
export function renderPermits(p: InferredPermits, indent = '  ', eol = '\n'): string {
  const lines: string[] = [];
  for (const o of p.open) lines.push(`# ${o}`);
  lines.push('permits:' + (isEmpty(p) ? ' {}' : ''));
  const i1 = indent;
  const i2 = indent + indent;
  if (p.fs.read.length || p.fs.write.length) {
    lines.push(`${i1}fs:`);
    if (p.fs.read.length) lines.push(`${i2}read: ${list(p.fs.read)}`);
    if (p.fs.write.length) lines.push(`${i2}write: ${list(p.fs.write)}`);
  }
  if (p.net.http.length) lines.push(`${i1}net:`, `${i2}http: ${list(p.net.http)}`);
  if (p.exec === true) lines.push(`${i1}exec: true`);
  else if (Array.isArray(p.exec) && p.exec.length) lines.push(`${i1}exec: [${p.exec.map(prog).join(', ')}]`);
  if (p.tools.length) lines.push(`${i1}tools: ${list(p.tools)}`);
  if (p.env.length) lines.push(`${i1}env: [${p.env.join(', ')}]`);
  return lines.join(eol);
}

/** One-line summary of the effects for a message (`exec: git · tools: nika:read · fs.read: docs/**`). */
export function summarizePermits(p: InferredPermits): string {
  const parts: string[] = [];
  if (p.exec === true) parts.push('exec (any program)');
  else if (Array.isArray(p.exec) && p.exec.length) parts.push(`exec: ${p.exec.join(', ')}`);
  if (p.tools.length) parts.push(`tools: ${p.tools.join(', ')}`);
  if (p.fs.read.length) parts.push(`fs.read: ${p.fs.read.join(', ')}`);
  if (p.fs.write.length) parts.push(`fs.write: ${p.fs.write.join(', ')}`);
  if (p.net.http.length) parts.push(`net.http: ${p.net.http.join(', ')}`);
  if (p.env.length) parts.push(`env: ${p.env.join(', ')}`);
  if (p.open.length) parts.push(`${p.open.length} target(s) known only at run time`);
  return parts.join(' · ');
}
