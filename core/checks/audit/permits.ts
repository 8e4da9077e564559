// The `permits:` law of current v1 (reference §1.6, §3.2–3.4, §8): no block means zero authority
// (NIKA-AUTH-006, fixed by inserting the inferred minimal block); a present block denies every
// category it does not list (NIKA-SEC-004 on the token that needs the grant). Bounds are literal,
// so only what is known before the run is judged; an `inputs.*` value known through its default
// that escapes the boundary is NIKA-AUTH-008. A category that grants nothing refuses even a
// target known only at run time: nothing could pass it.
import { isScalar, isSeq } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, keySpan } from '../../document.js';
import { type Effect, type ExecEffect, type FsEffect, type NetEffect, type ToolEffect } from '../../audit/effects.js';
import { pathCovered, walkAllowed, walkRoot } from '../../audit/fs-paths.js';
import { hostGranted, normalizeHost } from '../../audit/hosts.js';
import { inferPermits, renderPermits, summarizePermits } from '../../audit/infer-permits.js';
import { entryWithin } from '../../audit/tools.js';
import type { Permits } from '../../ir.js';
import { toolAllowed } from '../../toolid.js';
import { eolOf } from '../semantic/edits.js';
import { valueSpan } from '../semantic/tools.js';
import { auditFacts } from './facts.js';
import { execTrueEdit, fixData, grantEdit, type GrantCategory } from './edits.js';
import { unliftedTaint } from './lifts.js';

export function checkPermits(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect !== 'v1' || !ctx.doc.root) return [];
  const permits = ctx.workflow.permits;
  if (!permits) {
    const effects: Effect[] = [];
    for (const list of auditFacts(ctx).effects) for (const e of list) effects.push(e);
    return effects.length ? [missingBlock(ctx, effects)] : [];
  }
  const out: NikaDiagnostic[] = [];
  // The findings are built afresh from the memoized escapes: their quick fixes point into the
  // permits block, outside the task.
  for (const escaping of auditFacts(ctx).escaping) {
    for (const e of escaping) {
      const d = judge(ctx, permits, e);
      if (d) out.push(d);
    }
  }
  return out;
}

/** The effects of one task that the permits refuse (reads only the task and the permits). */
export function escapingEffects(ctx: CheckContext, permits: Permits, effects: readonly Effect[]): Effect[] {
  return effects.filter((e) => judge(ctx, permits, e) !== undefined);
}

function missingBlock(ctx: CheckContext, effects: Effect[]): NikaDiagnostic {
  const inferred = inferPermits(effects);
  const doc = ctx.doc;
  const root = doc.root!;
  const nikaPair = getPair(root, 'nika');
  const span = (nikaPair && keySpan(nikaPair)) ?? effects[0].task.idSpan;
  const message = `This workflow declares no permits: block, so it has no authority at all, yet it needs ${summarizePermits(inferred)}. Declare the boundary (the quick fix inserts the minimal block).`;
  const tasksPair = getPair(root, 'tasks');
  const keyAt = tasksPair && keySpan(tasksPair);
  let data;
  if (keyAt && !root.flow) {
    const pos = doc.lines.positionAt(keyAt.start);
    const lineStart = doc.lines.lineStarts[pos.line];
    const lead = doc.text.slice(lineStart, keyAt.start);
    if (lead.trim() === '') {
      const eol = eolOf(doc.text);
      const block = renderPermits(inferred, '  ', eol).split(eol).map((l) => lead + l).join(eol) + eol;
      data = { fixes: [{ title: 'Declare the inferred permits: block', edits: [{ span: { start: lineStart, end: lineStart }, newText: block }], preferred: true }], permits: inferred };
    }
  }
  return diag('NIKA-AUTH-006', message, span, 'error', data ?? { permits: inferred });
}

const q = (s: string) => JSON.stringify(s);

function grantFix(ctx: CheckContext, category: GrantCategory, item: string) {
  return fixData(`Grant ${item} in permits.${category}`, grantEdit(ctx.doc, category, q(item)));
}

/** AUTH-008 when an unlifted untrusted input carries the escaping value, else the plain SEC-004. */
function escape(ctx: CheckContext, e: Effect & { resolved?: { untrusted: string[]; value?: string } }, what: string, bound: string, category: GrantCategory, item: string): NikaDiagnostic {
  const tainted = e.resolved ? unliftedTaint(ctx, e.task, e.resolved.untrusted) : [];
  if (tainted.length) {
    return diag('NIKA-AUTH-008', `Task '${e.task.id}': ${tainted.join(', ')} (untrusted) resolves to '${e.resolved!.value}', which escapes ${bound}. Pin the value, widen the permit deliberately, or lift the taint law for this binding.`, e.span);
  }
  return diag('NIKA-SEC-004', `Task '${e.task.id}': ${what} is outside the declared permits (${bound}).`, e.span, 'error', grantFix(ctx, category, item));
}

function judge(ctx: CheckContext, p: Permits, e: Effect): NikaDiagnostic | undefined {
  switch (e.kind) {
    case 'exec': return judgeExec(ctx, p, e);
    case 'tool': return judgeTool(ctx, p, e);
    case 'fs': return judgeFs(ctx, p, e);
    case 'net': return judgeNet(ctx, p, e);
    // exec.env values are authored data applied on top of the passthrough; they need no grant.
    case 'env': return undefined;
  }
}

/** Same rule as the run-time boundary: an entry names the program, or its basename when bare. */
export function programAllowed(list: readonly string[], program: string): boolean {
  const base = program.split('/').pop() ?? program;
  return list.some((p) => p === program || (!p.includes('/') && p === base));
}

function judgeExec(ctx: CheckContext, p: Permits, e: ExecEffect): NikaDiagnostic | undefined {
  const grant = p.exec;
  if (grant === true) return undefined;
  if (!Array.isArray(grant)) {
    const fix = e.shell || e.program === undefined
      ? fixData('Allow any program (permits.exec: true)', execTrueEdit(ctx.doc), false)
      : grantFix(ctx, 'exec', e.program);
    return diag('NIKA-SEC-004', `Task '${e.task.id}' runs ${e.shell ? 'a shell command' : e.program ? `'${e.program}'` : 'a program'}, but permits.exec is ${grant === false ? 'false' : 'not granted'}.`, e.span, 'error', fix);
  }
  if (e.shell) {
    return diag('NIKA-SEC-004', `Task '${e.task.id}': a shell: command is refused under a permits.exec allowlist (only argv[0] can be verified); write command: [program, args…] or grant exec: true.`, e.span);
  }
  if (e.program === undefined) {
    return grant.length ? undefined : diag('NIKA-SEC-004', `Task '${e.task.id}' runs a program, but permits.exec allows none.`, e.span);
  }
  if (programAllowed(grant, e.program)) return undefined;
  return escape(ctx, e, `running '${e.program}'`, `permits.exec allows ${grant.length ? grant.join(', ') : 'no program'}`, 'exec', e.program);
}

function judgeTool(ctx: CheckContext, p: Permits, e: ToolEffect): NikaDiagnostic | undefined {
  const ceiling = p.tools ?? [];
  if (e.via === 'invoke') {
    if (toolAllowed(ceiling, e.id)) return undefined;
    return diag('NIKA-SEC-004', `Task '${e.task.id}' calls ${e.id}, which permits.tools does not list${ceiling.length ? '' : ' (no tool is granted)'}. Every invoked tool, pure builtins included, must be granted.`, e.span, 'error', grantFix(ctx, 'tools', e.id));
  }
  const whitelist = agentWhitelist(ctx, e);
  if (entryWithin(ceiling, e.id, whitelist)) return undefined;
  return diag('NIKA-SEC-004', `Agent '${e.task.id}' whitelists ${e.id}, which goes beyond permits.tools (the ceiling of every agent whitelist).`, e.span, 'error', grantFix(ctx, 'tools', e.id));
}

function agentWhitelist(ctx: CheckContext, e: ToolEffect): string[] {
  const body = e.task.body;
  return body && body.verb === 'agent' ? body.tools.filter((t): t is string => typeof t === 'string') : [];
}

function judgeFs(ctx: CheckContext, p: Permits, e: FsEffect): NikaDiagnostic | undefined {
  const globs = (e.access === 'read' ? p.fs?.read : p.fs?.write) ?? [];
  const bound = `permits.fs.${e.access}`;
  if (e.path === undefined) {
    return globs.length ? undefined : diag('NIKA-SEC-004', `Task '${e.task.id}': ${e.tool} ${e.access === 'read' ? 'reads' : 'writes'} a path, but ${bound} grants none.`, e.span);
  }
  const ok = e.use === 'file' ? pathCovered(e.path, globs)
    : e.use === 'glob' ? walkAllowed(walkRoot(e.path), globs)
      : e.use === 'walk' ? walkAllowed(e.path, globs)
        : pathCovered(`${e.path.replace(/\/+$/, '')}/x`, globs);
  if (ok) return undefined;
  const item = e.use === 'dir-write' ? `${e.path.replace(/\/+$/, '')}/**` : e.path;
  return escape(ctx, e, `${e.access === 'read' ? 'reading' : 'writing'} '${e.path}' (${e.tool})`, globs.length ? `${bound}: ${globs.join(', ')}` : `${bound} grants nothing`, `fs.${e.access}`, item);
}

function judgeNet(ctx: CheckContext, p: Permits, e: NetEffect): NikaDiagnostic | undefined {
  const http = p.net?.http ?? [];
  if (!e.host) {
    return http.length ? undefined : diag('NIKA-SEC-004', `Task '${e.task.id}': ${e.tool} reaches a host, but permits.net.http grants none.`, e.span);
  }
  if (hostGranted(http, e.host)) return undefined;
  const host = normalizeHost(e.host);
  return escape(ctx, e, `${e.tool} to ${host}`, http.length ? `permits.net.http: ${http.join(', ')}` : 'permits.net.http grants nothing', 'net.http', host);
}

/** The YAML scalars of the permit lists, for findings about the entries themselves. */
export function permitEntries(ctx: CheckContext): Array<{ category: GrantCategory; value: string; span: { start: number; end: number } }> {
  const permits = getNode(ctx.doc.root, 'permits');
  const out: Array<{ category: GrantCategory; value: string; span: { start: number; end: number } }> = [];
  const lists: Array<[GrantCategory, unknown]> = [
    ['fs.read', getNode(getNode(permits, 'fs'), 'read')],
    ['fs.write', getNode(getNode(permits, 'fs'), 'write')],
    ['net.http', getNode(getNode(permits, 'net'), 'http')],
    ['exec', getNode(permits, 'exec')],
    ['tools', getNode(permits, 'tools')],
    ['env', getNode(permits, 'env')],
  ];
  for (const [category, node] of lists) {
    if (!isSeq(node)) continue;
    for (const item of node.items) {
      if (!isScalar(item) || typeof item.value !== 'string' || item.value.includes('${{')) continue;
      out.push({ category, value: item.value, span: valueSpan(ctx.doc, item) });
    }
  }
  return out;
}
