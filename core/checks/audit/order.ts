// Untrusted content reaching a process or an exfiltration path (reference §3.2, §6, §8):
// - NIKA-SEC-015 (unconditional): no `exec:` downstream of a task that talks to the network
//   (`nika:fetch`, `nika:notify`, or an agent that may call them), through with/after edges.
// - NIKA-SEC-009 (the lethal trifecta): when the declared permits allow a private read, an
//   untrusted ingress (fetch, any `mcp:*`, exec) that the graph actually realizes, and an external
//   egress, every egress-capable task the untrusted content reaches must sit behind a blocking
//   human gate (`nika:prompt` without `default:`) on every path.
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getPair, keySpan } from '../../document.js';
import type { Reference } from '../../expr/index.js';
import type { Task } from '../../ir.js';
import type { Span } from '../../text.js';
import { matchToolPattern } from '../../toolid.js';
import { anchorPath } from '../../audit/fs-paths.js';
import { referencesIn, semanticModel } from '../semantic/model.js';
import { producersFirstOrder } from './secrets.js';
import { auditFacts } from './facts.js';

const NET_TOOLS = ['nika:fetch', 'nika:notify'];
const EGRESS_BUILTINS = ['nika:fetch', 'nika:notify', 'nika:write', 'nika:edit', 'nika:chart', 'nika:image_fx', 'nika:image_generate', 'nika:tts_generate'];
const FS_WRITERS = EGRESS_BUILTINS.filter((t) => !NET_TOOLS.includes(t));

function agentTools(task: Task): string[] {
  return task.body?.verb === 'agent' ? task.body.tools.filter((t) => typeof t === 'string' && !t.startsWith('!')) : [];
}

/** An agent whitelist admits one of `ids`, or any MCP tool (fail-closed: server content is untrusted). */
function admits(task: Task, ids: readonly string[], mcp: boolean): boolean {
  return agentTools(task).some((p) => (mcp && p.startsWith('mcp:')) || ids.some((id) => matchToolPattern(p, id)));
}

function invokeTool(task: Task): string | undefined {
  return task.body?.verb === 'invoke' ? task.body.tool : undefined;
}

function verbSpan(ctx: CheckContext, task: Task): Span {
  const node = semanticModel(ctx).taskNode(task);
  const pair = task.verb ? getPair(node, task.verb) : undefined;
  return (pair && keySpan(pair)) ?? task.idSpan;
}

type Ref = { kind: 'tasks' | 'with' | 'item'; name: string };

/** What the order checks know of one task on its own (memoized: reading its expressions is the cost). */
export interface OrderFacts {
  net: boolean;
  ingress: boolean;
  egress: boolean;
  writer: boolean;
  gate: boolean;
  /** `after:` ids with an unwind predicate, in order. */
  unwind: string[];
  /** Every `after:` id. */
  after: string[];
  /** Task ids read anywhere the trifecta graph looks (with, body, items, recover, when). */
  reads: string[];
  /** Where untrusted content may enter the task's fields, for the trifecta's taint pass. */
  with: Array<[string, Ref[]]>;
  item: Ref[];
  body: Ref[];
  recover: Ref[];
  /** Where a finding on the task lands: its verb key. */
  at: Span;
}

/** The order facts of one task (memoized with the other audit facts, facts.ts). */
export function computeOrderFacts(ctx: CheckContext, t: Task): OrderFacts {
  const tool = invokeTool(t);
  const isExec = t.verb === 'exec';
  const reads: string[] = [];
  for (const r of taskRefs([t.with, t.body, t.forEach?.items, t.onError?.recover?.value, t.when])) if (r.kind === 'tasks') reads.push(r.name);
  return {
    net: (tool !== undefined && NET_TOOLS.includes(tool)) || admits(t, NET_TOOLS, false),
    ingress: isExec || tool === 'nika:fetch' || (tool?.startsWith('mcp:') ?? false) || admits(t, ['nika:fetch'], true),
    egress: isExec || (tool !== undefined && (EGRESS_BUILTINS.includes(tool) || tool.startsWith('mcp:'))) || admits(t, EGRESS_BUILTINS, true),
    writer: isExec || (tool !== undefined && FS_WRITERS.includes(tool)),
    gate: tool === 'nika:prompt' && t.body?.verb === 'invoke' && !('default' in t.body.args),
    unwind: Object.entries(t.after).filter(([, p]) => p === 'unwind').map(([id]) => id),
    after: Object.keys(t.after),
    reads,
    with: Object.entries(t.with).map(([k, v]): [string, Ref[]] => [k, taskRefs(v)]),
    item: taskRefs(t.forEach?.items),
    body: taskRefs(t.body),
    recover: taskRefs(t.onError?.recover?.value),
    at: verbSpan(ctx, t),
  };
}

/** The per-task facts of one run, by position, and positions by id (task ids are unique). */
interface Graph { tasks: readonly Task[]; facts: readonly OrderFacts[]; readonly idx: ReadonlyMap<string, number> }

/** A finding's span: a copy, so a finding never shares the memo's span, which moves with its task. */
function at(g: Graph, i: number): Span {
  const s = g.facts[i].at;
  return { start: s.start, end: s.end };
}

export function checkOrder(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect !== 'v1') return [];
  const tasks = ctx.workflow.tasks;
  let idx: Map<string, number> | undefined;
  const g: Graph = {
    tasks,
    facts: auditFacts(ctx).order,
    // Only a check that gets past its cheap early exits needs it.
    get idx() {
      if (!idx) { idx = new Map(); tasks.forEach((t, i) => idx!.set(t.id, i)); }
      return idx;
    },
  };
  return [...checkExecAfterNet(ctx, g), ...checkTrifecta(ctx, g)];
}

function checkExecAfterNet(ctx: CheckContext, g: Graph): NikaDiagnostic[] {
  const { tasks, facts } = g;
  // Only an exec downstream of a network task is flagged: without both there is nothing to walk.
  if (!tasks.some((t) => t.verb === 'exec') || !facts.some((f) => f.net)) return [];
  const idx = g.idx;
  const model = semanticModel(ctx);
  // consumer → producers, with unwind edges too: a cleanup after a fetch still runs after it.
  const parents = new Map<string, ReadonlySet<string>>();
  tasks.forEach((t, i) => {
    const deps = model.deps.get(t.id);
    const unwind = facts[i].unwind.filter((id) => idx.has(id));
    if (!unwind.length && deps) { parents.set(t.id, deps); return; }
    const ps = new Set(deps ?? []);
    for (const id of unwind) ps.add(id);
    parents.set(t.id, ps);
  });
  // One pass, producers first: each task remembers one parent through which a network task
  // reaches it, so every witness path can be read back without a search per exec.
  // A parent is remembered only once it is itself settled (network, or reached earlier in this
  // pass), so following the links always ends at a network task. Each task also keeps the length
  // and the network end of its path: long witnesses are printed by their ends, and walking every
  // path in full was quadratic along a chain.
  const n = tasks.length;
  const reachedVia = new Int32Array(n).fill(-1);
  const len = new Int32Array(n);
  const first: Array<readonly string[]> = new Array(n);
  for (const i of producersFirstOrder(tasks, parents)) {
    const id = tasks[i].id;
    for (const p of parents.get(id) ?? []) {
      const j = idx.get(p);
      if (j === undefined || !(facts[j].net || reachedVia[j] >= 0)) continue;
      reachedVia[i] = j;
      const ul = facts[j].net ? 1 : len[j];
      const uf = facts[j].net ? [p] : first[j];
      len[i] = ul + 1;
      first[i] = uf.length < 3 ? [...uf, id] : uf;
      break;
    }
  }
  const out: NikaDiagnostic[] = [];
  tasks.forEach((t, i) => {
    if (t.verb !== 'exec' || reachedVia[i] < 0) return;
    const last = [t.id];
    for (let cur = reachedVia[i]; cur >= 0 && last.length < Math.min(len[i], 8); cur = facts[cur].net ? -1 : reachedVia[cur]) last.push(tasks[cur].id);
    last.reverse();
    const trail = len[i] > 8 ? elided(first[i], last.slice(-3)) : witness(last);
    out.push(diag('NIKA-SEC-015', `exec task '${t.id}' runs downstream of network task '${first[i][0]}' (${trail}): content from the network must never reach a process. Use a builtin for this step, or run the command before the fetch.`, at(g, i)));
  });
  return out;
}

/** A path for a message: long ones keep their ends. */
export function witness(path: readonly string[]): string {
  return path.length > 8 ? elided(path.slice(0, 3), path.slice(-3)) : path.join(' → ');
}

/** A long path by its ends. */
export function elided(first: readonly string[], last: readonly string[]): string {
  return [...first, '…', ...last].join(' → ');
}

function taskRefs(value: unknown): Ref[] {
  const out: Ref[] = [];
  for (const r of referencesIn(value) as Reference[]) {
    const first = r.segments[0]?.name;
    if ((r.root === 'tasks' || r.root === 'with') && first) out.push({ kind: r.root, name: first });
    else if (r.root === 'item') out.push({ kind: 'item', name: '' });
  }
  return out;
}

function writeGlobEscapes(glob: string): boolean {
  const g = glob.trim();
  if (g.startsWith('/') || g.startsWith('~')) return true;
  return !anchorPath(g).startsWith(anchorPath('.') + '/') && anchorPath(g) !== anchorPath('.');
}

function checkTrifecta(ctx: CheckContext, g: Graph): NikaDiagnostic[] {
  const permits = ctx.workflow.permits;
  if (!permits) return [];
  // The three grants are read first: without them no task can be flagged, whatever the graph.
  const read = permits.fs?.read ?? [];
  const execOn = permits.exec === true || (Array.isArray(permits.exec) && permits.exec.length > 0);
  const grantIngress = (permits.tools ?? []).some((g) => !g.startsWith('!') && (g.startsWith('mcp:') || matchToolPattern(g, 'nika:fetch')));
  const http = permits.net?.http ?? [];
  const writeEscapes = (permits.fs?.write ?? []).some(writeGlobEscapes);
  const leg1 = read.length > 0;
  const leg3 = http.length > 0 || writeEscapes || execOn;
  if (!(leg1 && (execOn || grantIngress) && leg3)) return [];

  const { tasks, facts } = g;
  const n = tasks.length;
  // Untrusted content enters only at an ingress task: without one nothing is reached.
  if (!facts.some((f) => f.ingress)) return [];
  const idx = g.idx;
  const parents: number[][] = [];
  for (const f of facts) {
    const ps: number[] = [];
    const seen = new Set<number>();
    for (const name of f.reads) {
      const j = idx.get(name);
      if (j === undefined) return []; // an unknown id: the graph is not analyzable, no claim
      if (!seen.has(j)) { seen.add(j); ps.push(j); }
    }
    for (const id of f.after) {
      const j = idx.get(id);
      if (j === undefined) return [];
      if (!seen.has(j)) { seen.add(j); ps.push(j); }
    }
    parents.push(ps);
  }
  const order = topoOrder(parents);
  if (!order) return []; // a cycle is reported elsewhere; no claim here

  const disjunct = http.length ? 'net.http is granted' : writeEscapes ? 'an fs.write glob reaches outside the workspace' : 'exec is granted';

  const outOrigin: Array<string | undefined> = new Array(n);
  const effOrigin: Array<string | undefined> = new Array(n);
  let writerOrigin: string | undefined;
  for (const i of order) {
    const t = tasks[i];
    const f = facts[i];
    let withSrc: Map<string, string> | undefined;
    const originOf = (r: Ref, item?: string) =>
      r.kind === 'tasks' ? outOrigin[idx.get(r.name)!] : r.kind === 'with' ? withSrc?.get(r.name) : item;
    for (const [k, refs] of f.with) {
      for (const r of refs) { const o = originOf(r); if (o) { (withSrc ??= new Map()).set(k, o); break; } }
    }
    let itemSrc: string | undefined;
    for (const r of f.item) { itemSrc = originOf(r); if (itemSrc) break; }
    let eff: string | undefined;
    for (const r of f.body) { eff = originOf(r, itemSrc); if (eff) break; }
    // A tainted writer earlier in the run plus a read grant: an exec may read what it wrote.
    if (t.verb === 'exec' && !eff && leg1 && writerOrigin) eff = writerOrigin;
    let recover: string | undefined;
    for (const r of f.recover) { recover = originOf(r, itemSrc); if (recover) break; }
    effOrigin[i] = eff;
    outOrigin[i] = f.ingress ? t.id : eff ?? recover;
    if (f.writer && eff && !writerOrigin) writerOrigin = eff;
  }

  const gated = gateDominated(order, parents, facts.map((f) => f.gate));
  const out: NikaDiagnostic[] = [];
  tasks.forEach((t, i) => {
    if (!facts[i].egress || !effOrigin[i]) return;
    if (gated[i]) return;
    out.push(diag('NIKA-SEC-009', `Lethal trifecta: untrusted content from '${effOrigin[i]}' reaches task '${t.id}', which can send data out, while the permits allow a private read (fs.read), an untrusted ingress and an external egress (${disjunct}), and no blocking human gate (invoke nika:prompt without default:) stands on every path to it. Gate this task behind a prompt, or drop one of the three grants.`, at(g, i)));
  });
  return out;
}

/**
 * For each task: does a gate strictly dominate it (stand on every path to it)? The dominator tree
 * of a DAG, in topological order: a task's immediate dominator is the nearest common ancestor of
 * its parents in that tree (a virtual root above the sources). Ancestors are found by binary
 * lifting; intersecting full dominator sets was quadratic on long chains.
 */
function gateDominated(order: readonly number[], parents: ReadonlyArray<readonly number[]>, gate: readonly boolean[]): boolean[] {
  const n = parents.length;
  const root = n;
  const levels = Math.max(1, Math.ceil(Math.log2(n + 2)));
  const up: Int32Array[] = Array.from({ length: levels }, () => new Int32Array(n + 1).fill(root));
  const depth = new Int32Array(n + 1);
  const above = new Array<boolean>(n + 1).fill(false);
  const lca = (a: number, b: number): number => {
    if (depth[a] < depth[b]) [a, b] = [b, a];
    for (let k = levels - 1; k >= 0; k--) if (depth[a] - (1 << k) >= depth[b]) a = up[k][a];
    if (a === b) return a;
    for (let k = levels - 1; k >= 0; k--) if (up[k][a] !== up[k][b]) { a = up[k][a]; b = up[k][b]; }
    return up[0][a];
  };
  for (const i of order) {
    let idom = -1;
    for (const p of parents[i]) idom = idom < 0 ? p : lca(idom, p);
    if (idom < 0) idom = root;
    up[0][i] = idom;
    for (let k = 1; k < levels; k++) up[k][i] = up[k - 1][up[k - 1][i]];
    depth[i] = depth[idom] + 1;
    above[i] = idom !== root && (gate[idom] || above[idom]);
  }
  return above.slice(0, n);
}

/** Kahn's order over parent lists (no repeats), or undefined on a cycle. */
function topoOrder(parents: ReadonlyArray<readonly number[]>): number[] | undefined {
  const n = parents.length;
  const indeg = new Int32Array(n);
  const children: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    indeg[i] = parents[i].length;
    for (const p of parents[i]) (children[p] ??= []).push(i);
  }
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) order.push(i);
  for (let head = 0; head < order.length; head++) {
    for (const c of children[order[head]] ?? []) if (--indeg[c] === 0) order.push(c);
  }
  return order.length === n ? order : undefined;
}
