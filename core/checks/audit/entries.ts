// Findings about the permit entries themselves (reference §1.6): `*.x.com` wildcards
// (NIKA-AUTH-010), floor hosts that can never be reached (NIKA-SEC-005, a dead grant), dangerous
// env names (NIKA-AUTH-009, a dead grant), and entries no effect uses (NIKA-DRIFT-001, advisory).
import { isScalar } from 'yaml';
import type { CheckContext } from '../context.js';
import { getNode, getPair, keySpan } from '../../document.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import type { Effect } from '../../audit/effects.js';
import { auditFacts } from './facts.js';
import { isDangerousEnv } from '../../audit/env.js';
import { pathCovered, walkAllowed, walkRoot } from '../../audit/fs-paths.js';
import { floorClass, isWildcardHost, normalizeHost } from '../../audit/hosts.js';
import { ceilingEntryUsed } from '../../audit/tools.js';
import { matchToolPattern } from '../../toolid.js';
import { permitEntries, programAllowed } from './permits.js';

export function checkPermitEntries(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect !== 'v1' || !ctx.workflow.permits) return [];
  const out: NikaDiagnostic[] = [];
  const entries = permitEntries(ctx);
  const used = usage(ctx, entries);
  entries.forEach((entry, i) => {
    const { category, value, span } = entry;
    if (category === 'net.http') {
      if (isWildcardHost(value)) {
        out.push(diag('NIKA-AUTH-010', `'${value}' is not an exact host: net.http takes exact host names (the bare "*" is the one wildcard). List each host.`, span));
        return;
      }
      const cls = value.trim() === '*' ? undefined : floorClass(value);
      if (cls && cls !== 'loopback') {
        out.push(diag('NIKA-SEC-005', `'${value}' is a ${cls === 'metadata' ? 'cloud metadata' : cls} address on the SSRF floor: this grant can never take effect (only an exact loopback host lifts the floor).`, span));
        return;
      }
    }
    if (category === 'env' && isDangerousEnv(value)) {
      out.push(diag('NIKA-AUTH-009', `${value} is never passed to a child process (it lets a program load or run code the workflow does not show); this grant is dead. Remove it.`, span));
      return;
    }
    if (!value.startsWith('!') && !(used.open.has(category) || used.entries[i])) {
      const d = diag('NIKA-DRIFT-001', `permits.${category} entry '${value}' is not used by any task.`, span, 'hint');
      d.tags = ['unnecessary'];
      out.push(d);
    }
  });
  // `exec: true` with no exec task grants an unused authority too.
  const execPair = permitExecTrue(ctx);
  if (execPair && !used.exec) {
    const d = diag('NIKA-DRIFT-001', 'permits.exec: true is not used by any task.', execPair, 'hint');
    d.tags = ['unnecessary'];
    out.push(d);
  }
  return out;
}

interface Usage {
  /** Per permit entry (by index): some effect uses it. */
  entries: boolean[];
  /** A category some effect reaches with a target known only at run time (any entry may serve it). */
  open: Set<string>;
  /** Some task runs a program. */
  exec: boolean;
}

/** One task's part of the usage; the entries are the envelope's, so the memo holds for them. */
export interface TaskUsage { entries: number[]; open: string[]; exec: boolean }

const AGENT_REACH: Record<string, string[]> = { 'fs.read': ['read', 'glob', 'grep', 'edit', 'chart', 'image_fx'], 'fs.write': ['write', 'edit', 'chart', 'image_fx', 'image_generate', 'tts_generate'], 'net.http': ['fetch', 'notify'] };

function usage(ctx: CheckContext, entries: ReturnType<typeof permitEntries>): Usage {
  const u: Usage = { entries: entries.map(() => false), open: new Set(), exec: false };
  for (const t of auditFacts(ctx).usage) {
    if (!t) continue;
    for (const i of t.entries) u.entries[i] = true;
    for (const c of t.open) u.open.add(c);
    if (t.exec) u.exec = true;
  }
  return u;
}

export function taskUsage(effects: readonly Effect[], entries: ReturnType<typeof permitEntries>): TaskUsage {
  const open = new Set<string>();
  for (const e of effects) {
    if (e.kind === 'exec' && (e.shell || e.program === undefined)) open.add('exec');
    if (e.kind === 'fs' && e.path === undefined) open.add(`fs.${e.access}`);
    if (e.kind === 'net' && !e.host) open.add('net.http');
    if (e.kind === 'tool' && e.via === 'agent') {
      // An agent picks its own targets: a whitelisted file or network builtin may use any grant.
      for (const [cat, names] of Object.entries(AGENT_REACH)) {
        if (names.some((n) => matchToolPattern(e.id, `nika:${n}`))) open.add(cat);
      }
    }
  }
  const used: number[] = [];
  entries.forEach(({ category, value }, i) => { if (isUsed(category, value, effects)) used.push(i); });
  return { entries: used, open: [...open], exec: effects.some((e) => e.kind === 'exec') };
}

/** Whether these effects use the entry (a run-time target in its category aside). */
function isUsed(category: string, value: string, effects: readonly Effect[]): boolean {
  switch (category) {
    case 'exec':
      return effects.some((e) => e.kind === 'exec' && e.program !== undefined && programAllowed([value], e.program));
    case 'env':
      // Passed to every child process; used as soon as the workflow runs one.
      return effects.some((e) => e.kind === 'exec');
    case 'tools':
      return effects.some((e) => e.kind === 'tool' && ceilingEntryUsed(value, { id: e.id, pattern: e.pattern }));
    case 'net.http':
      return effects.some((e) => e.kind === 'net' && e.host !== undefined && (value.trim() === '*' || normalizeHost(value) === normalizeHost(e.host)));
    case 'fs.read':
    case 'fs.write':
      return effects.some((e) => {
        if (e.kind !== 'fs' || `fs.${e.access}` !== category || e.path === undefined) return false;
        if (e.use === 'file') return pathCovered(e.path, [value]);
        if (e.use === 'glob') return walkAllowed(walkRoot(e.path), [value]);
        if (e.use === 'walk') return walkAllowed(e.path, [value]);
        return pathCovered(`${e.path.replace(/\/+$/, '')}/x`, [value]);
      });
  }
  return true;
}

function permitExecTrue(ctx: CheckContext) {
  const pair = getPair(getNode(ctx.doc.root, 'permits'), 'exec');
  return pair && isScalar(pair.value) && pair.value.value === true ? keySpan(pair) : undefined;
}
