// Secrets (reference §1.5): shapes the schema cannot say, and where secret values may flow. A
// secret read anywhere taints what carries it: `with:` bindings (transitively, and concatenation
// launders nothing), loop items, and the output of an exec/invoke that used it. Infer/agent
// outputs are not tainted by a secret in the prompt. A tainted exec/invoke/infer/agent field is
// NIKA-SEC-006 and a tainted workflow output NIKA-SEC-007, unless the secret's `egress:` lists
// that sink (`to:` a tool id, exec, infer, agent or outputs; `host:` pins a fetch/notify host).
import { isMap, isScalar, isSeq } from 'yaml';
import type { YAMLMap, YAMLSeq } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, keySpan } from '../../document.js';
import type { Reference } from '../../expr/index.js';
import type { SecretDecl, Task } from '../../ir.js';
import type { Span } from '../../text.js';
import type { ExprSite } from '../../scan.js';
import { parseToolId } from '../../toolid.js';
import { BUILTINS } from '../../catalog/builtins.js';
import { chainOf } from '../../audit/resolve.js';
import { hostOfUrl, normalizeHost } from '../../audit/hosts.js';
import { auditFacts } from './facts.js';
import { appendToMap } from '../semantic/edits.js';
import { referencesIn, semanticModel } from '../semantic/model.js';
import { valueSpan } from '../semantic/tools.js';
import { appendToSeq } from './edits.js';
import { elided, witness } from './order.js';

/**
 * A taint path, newest step first and shared between the tasks it passes through: copying the
 * whole path at every hop was quadratic along a chain. `head` keeps its first three steps, which
 * is all a long witness shows of the start.
 */
interface Trail { step: string; prev?: Trail; len: number; head: readonly string[] }

function start(step: string): Trail {
  return { step, len: 1, head: [step] };
}

function extend(t: Trail, step: string): Trail {
  return { step, prev: t, len: t.len + 1, head: t.head.length < 3 ? [...t.head, step] : t.head };
}

function toArray(t: Trail): string[] {
  const out: string[] = new Array(t.len);
  for (let c: Trail | undefined = t, i = t.len - 1; c; c = c.prev, i--) out[i] = c.step;
  return out;
}

/** `witness([...path, ...tail])` without spelling out a long path. */
function trailWitness(t: Trail, tail: readonly string[]): string {
  const total = t.len + tail.length;
  if (total <= 8) return witness([...toArray(t), ...tail]);
  const last: string[] = [...tail];
  for (let c: Trail | undefined = t; c && last.length < 3; c = c.prev) last.unshift(c.step);
  return elided(t.head, last.slice(-3));
}

/** secret name → the path it took to get here (`secrets.k → with.t`). */
type Taint = Map<string, Trail>;

const META = new Set(['status', 'duration_ms', 'started_at', 'ended_at', 'error']);
const SINKS = new Set(['exec', 'infer', 'agent', 'outputs']);

function merge(into: Taint, from: Taint | undefined, hop?: string): boolean {
  let changed = false;
  for (const [s, path] of from ?? []) {
    if (into.has(s)) continue;
    into.set(s, hop && path.step !== hop ? extend(path, hop) : path);
    changed = true;
  }
  return changed;
}

/** The shapes of the `secrets:` block and nika:hash keys: each finding reads its own entry or task only. */
export function checkSecrets(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect !== 'v1' || !ctx.doc.root) return [];
  return [...checkSecretShapes(ctx), ...checkHashKeys(ctx)];
}

/** Where secret values flow: across tasks, so over the whole document. */
export function checkSecretFlows(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect !== 'v1' || !ctx.doc.root) return [];
  return checkFlows(ctx);
}

function checkSecretShapes(ctx: CheckContext): NikaDiagnostic[] {
  const out: NikaDiagnostic[] = [];
  const secrets = getNode(ctx.doc.root, 'secrets');
  if (!isMap(secrets)) return out;
  for (const pair of secrets.items) {
    const entry = pair.value;
    const source = getNode(entry, 'source');
    if (isScalar(source) && source.value === 'vault') {
      out.push(diag('NIKA-PARSE-014', `source: vault is withdrawn until an engine runs it: the check accepts it, but the run fails. Use source: env or source: file.`, valueSpan(ctx.doc, source), 'warning'));
    }
    const egress = getNode(entry, 'egress');
    for (const item of isSeq(egress) ? egress.items : []) {
      const to = getNode(item, 'to');
      if (!isScalar(to) || typeof to.value !== 'string') continue;
      const v = to.value;
      const id = parseToolId(v);
      const ok = SINKS.has(v) || id.kind === 'mcp' || (id.kind === 'nika' && BUILTINS.has(id.name));
      if (!ok) {
        out.push(diag('NIKA-PARSE-014', `egress to: '${v}' names no sink: use a tool id (nika:fetch, mcp:<server>/<tool>), exec, infer, agent or outputs${/\./.test(v) && !v.includes(':') ? ' (a host goes in host:, next to to: "nika:fetch")' : ''}.`, valueSpan(ctx.doc, to)));
      }
    }
  }
  return out;
}

/** nika:hash signs with a key that must come straight from the secrets store. */
function checkHashKeys(ctx: CheckContext): NikaDiagnostic[] {
  const out: NikaDiagnostic[] = [];
  const model = semanticModel(ctx);
  for (const task of ctx.workflow.tasks) {
    const invoke = getNode(model.taskNode(task), 'invoke');
    const tool = getNode(invoke, 'tool');
    if (!isScalar(tool) || tool.value !== 'nika:hash') continue;
    const key = getNode(getNode(invoke, 'args'), 'key');
    if (key === undefined || key === null) continue;
    const text = isScalar(key) && typeof key.value === 'string' ? key.value.trim() : undefined;
    const site = text !== undefined ? model.sitesOfScalar(key)[0] : undefined;
    const chain = site?.whole ? chainOf(site.ast) : undefined;
    const ok = chain !== undefined && /^secrets\.[A-Za-z_][A-Za-z0-9_]*$/.test(chain);
    if (!ok) {
      const span = isScalar(key) ? valueSpan(ctx.doc, key) : keySpan(getPair(getNode(invoke, 'args'), 'key')!)!;
      out.push(diag('NIKA-BUILTIN-001', `nika:hash key: must be a secret reference, exactly \${{ secrets.NAME }}; a signing key never sits in the file or comes from another value.`, span));
    }
  }
  return out;
}

/** A task's taint, each part made when something first flows into it (most tasks stay clean). */
interface TaskState { with: Map<string, Taint>; item?: Taint; out?: Taint }

/** One place a secret's value arrives: a task's sink (exec, infer, agent, a tool id) or a workflow output. */
export interface SecretFlow {
  secret: string;
  /** `exec`, `infer`, `agent`, a tool id, or `outputs`. */
  sink: string;
  task?: string;
  output?: string;
  /** Source-first taint path. */
  readonly path: string[];
  span: Span;
  /** An `egress:` entry of the secret admits this flow. */
  sanctioned: boolean;
}

function checkFlows(ctx: CheckContext): NikaDiagnostic[] {
  const out: NikaDiagnostic[] = [];
  for (const f of flowsOf(ctx)) {
    if (f.sanctioned) continue;
    if (f.sink !== 'outputs') {
      const trail = trailWitness(f.trail, [f.sink]);
      out.push(diag('NIKA-SEC-006', `Secret '${f.secret}' reaches ${f.sink === 'exec' || f.sink === 'infer' || f.sink === 'agent' ? `an ${f.sink}` : f.sink} in task '${f.task}' (${trail}) with no egress sanction. If that is intended, add egress: [{ to: "${f.sink}" }] to secrets.${f.secret}.`, f.span, 'error', sanctionFix(ctx, f.secret, f.sink)));
    } else {
      out.push(diag('NIKA-SEC-007', `Secret '${f.secret}' leaves the run through outputs.${f.output} (${trailWitness(f.trail, [`outputs.${f.output}`])}). Return something derived that is not the secret, or sanction it with egress: [{ to: "outputs" }].`, f.span, 'error', sanctionFix(ctx, f.secret, 'outputs')));
    }
  }
  return out;
}

/**
 * Every flow of a secret into a sink, sanctioned or not (current v1). The migration can read the
 * egress entries a file needs from here instead of re-deriving the flow.
 */
export function traceSecrets(ctx: CheckContext): SecretFlow[] {
  return flowsOf(ctx).map(({ trail, ...f }) => ({ ...f, path: toArray(trail) }));
}

type Flow = Omit<SecretFlow, 'path'> & { trail: Trail };

/** A reference as the taint pass reads it: its root and first two segments. */
interface Ref { root: string; first?: string; second?: string }

function refOf(r: Reference): Ref {
  return { root: r.root, first: r.segments[0]?.name, second: r.segments[1]?.name };
}

/** What one task contributes to the taint pass, read from that task alone (memoized). */
export interface FlowFacts {
  with: Array<readonly [string, Ref[]]>;
  item: Ref[];
  recover: Ref[];
  /** Effect-surface islands (the nika:hash key exempted), with the span a finding lands on. */
  body: Array<{ span: Span; refs: Ref[] }>;
  /** Some reference above reads `secrets.*`: without any, no secret enters the task graph. */
  readsSecret: boolean;
}

/** The taint facts of one task (memoized with the other audit facts, facts.ts). */
export function computeFlowFacts(ctx: CheckContext, t: Task): FlowFacts {
  const f: FlowFacts = {
    with: Object.entries(t.with).map(([k, v]) => [k, referencesIn(v).map(refOf)] as const),
    item: t.forEach ? referencesIn(t.forEach.items).map(refOf) : [],
    recover: t.onError?.recover ? referencesIn(t.onError.recover.value).map(refOf) : [],
    body: [],
    readsSecret: false,
  };
  for (const s of semanticModel(ctx).sitesOfTask(t)) {
    if (s.surface !== 'body' || exemptHashKey(t, s)) continue;
    f.body.push({ span: s.span, refs: s.references.map(refOf) });
  }
  const all = [...f.with.flatMap(([, rs]) => rs), ...f.item, ...f.recover, ...f.body.flatMap((b) => b.refs)];
  f.readsSecret = all.some((r) => r.root === 'secrets');
  return f;
}

function flowsOf(ctx: CheckContext): Flow[] {
  const wf = ctx.workflow;
  const declared = wf.secrets;
  if (ctx.dialect.dialect !== 'v1' || !Object.keys(declared).length) return [];
  const model = semanticModel(ctx);
  const tasks = wf.tasks;
  const n = tasks.length;
  // Per task by position (ids are unique in the IR): lookups by id were most of the pass.
  // The migration asks without a memo: it needs no other audit fact.
  const facts = ctx.memo ? auditFacts(ctx).flow.map((f) => f!) : tasks.map((t) => computeFlowFacts(ctx, t));
  const state: Array<TaskState | undefined> = new Array(n);
  // Effect-surface taint per task: which secret reaches it, through which island first.
  const effect: Array<Map<string, { path: Trail; span: Span }> | undefined> = new Array(n);
  let index: Map<string, number> | undefined;
  const indexOf = (id: string) => (index ??= new Map(tasks.map((t, i) => [t.id, i]))).get(id);
  const stateOf = (i: number): TaskState => (state[i] ??= { with: new Map() });

  // The first pass settles everything when no read sees a task before its turn (a cycle, a body
  // reading a task it does not wait for) and no binding reads what is computed after it.
  const done = new Uint8Array(n);
  let passing = false;
  let unsettled = false;
  const outOf = (id: string): Taint | undefined => {
    const j = indexOf(id);
    if (j === undefined) return undefined;
    if (passing && !done[j]) unsettled = true;
    return state[j]?.out;
  };
  const refTaint = (ref: Ref, i: number | undefined): Taint | undefined => {
    const first = ref.first;
    if (ref.root === 'secrets' && first && first in declared) return new Map([[first, start(`secrets.${first}`)]]);
    if (i === undefined) {
      if (ref.root === 'tasks' && first && !META.has(ref.second ?? 'output')) { const o = outOf(first); return o?.size ? hop(o, `tasks.${first}.output`) : undefined; }
      return undefined;
    }
    const st = state[i];
    if (ref.root === 'group' && first) {
      // A fold carries every member's record, outputs included.
      const all: Taint = new Map();
      for (const m of model.groups.get(first) ?? []) { const o = outOf(m); if (o?.size) merge(all, hop(o, `tasks.${m}.output`)); }
      return hop(all, `group.${first}`);
    }
    if (ref.root === 'with' && first) { const w = st?.with.get(first); return w?.size ? hop(w, `with.${first}`) : undefined; }
    if (ref.root === 'item') return hop(st?.item, 'item');
    if (ref.root === 'tasks' && first && !META.has(ref.second ?? 'output')) { const o = outOf(first); return o?.size ? hop(o, `tasks.${first}.output`) : undefined; }
    return undefined;
  };

  // Taint starts only at a secret read: when no task reads one, every task stays clean.
  if (facts.some((f) => f.readsSecret)) {
    // Producers first, so one pass settles acyclic graphs; a second pass covers what a cycle or a
    // binding that reads a later binding left behind (cycles are reported by the graph checks).
    // An empty taint merges nothing, so a part is only made when some taint arrives.
    const order = producersFirstOrder(tasks, model.deps);
    for (let pass = 0; pass < 2 && (pass === 0 || unsettled); pass++) {
      passing = pass === 0;
      for (const i of order) {
        const task = tasks[i];
        const r = facts[i];
        let changed = true;
        for (let again = 0; changed && again <= r.with.length; again++) {
          changed = false;
          for (const [k, rs] of r.with) {
            let t = state[i]?.with.get(k);
            const fresh = !t;
            for (const ref of rs) {
              if (ref.root === 'item') unsettled = true; // the item is computed after the bindings
              const add = refTaint(ref, i);
              if (!add?.size) continue;
              t ??= new Map();
              if (merge(t, add)) changed = true;
            }
            // Stored after its own references are read, as a binding's first round always was.
            if (t && fresh) stateOf(i).with.set(k, t);
          }
        }
        if (changed) unsettled = true;
        for (const ref of r.item) {
          const add = refTaint(ref, i);
          if (add?.size) merge((stateOf(i).item ??= new Map()), add);
        }
        let eff = effect[i];
        for (const s of r.body) {
          for (const ref of s.refs) {
            const add = refTaint(ref, i);
            if (!add) continue;
            for (const [secret, path] of add) {
              eff ??= effect[i] = new Map();
              if (!eff.has(secret)) eff.set(secret, { path, span: s.span });
            }
          }
        }
        // The model's reply is not a verbatim echo of its prompt: infer/agent outputs stay clean.
        if (eff && (task.verb === 'exec' || task.verb === 'invoke')) {
          for (const [secret, { path }] of eff) merge((stateOf(i).out ??= new Map()), new Map([[secret, path]]), `tasks.${task.id}.output`);
        }
        for (const ref of r.recover) {
          const add = refTaint(ref, i);
          if (add?.size) merge((stateOf(i).out ??= new Map()), add, `tasks.${task.id}.output`);
        }
        done[i] = 1;
      }
    }
    passing = false;
  }

  const flows: Flow[] = [];
  tasks.forEach((task, i) => {
    const eff = effect[i];
    if (!eff?.size) return;
    const sink = sinkOf(task);
    if (!sink) return;
    for (const [secret, { path, span }] of eff) {
      flows.push({ secret, sink, task: task.id, trail: path, span, sanctioned: sanctioned(ctx, declared[secret], sink, task, secret) });
    }
  });
  for (const site of outputSites(ctx)) {
    const name = String(site.path[1]);
    const seen = new Set<string>();
    for (const r of site.references) {
      for (const [secret, path] of refTaint(refOf(r), undefined) ?? []) {
        if (seen.has(secret)) continue;
        seen.add(secret);
        flows.push({ secret, sink: 'outputs', output: name, trail: path, span: site.span, sanctioned: (declared[secret]?.egress ?? []).some((e) => e.to === 'outputs') });
      }
    }
  }
  return flows;
}

/** The sites of the `outputs:` block, in document order. */
function outputSites(ctx: CheckContext): ExprSite[] {
  const sites = semanticModel(ctx).sites;
  if (!ctx.memo) return sites.filter((s) => s.surface === 'outputs');
  // The incremental analyzer lists the envelope's sites before and after the tasks' sites: only
  // those ends need a look (filtering every site of the document cost more than the taint pass).
  let head = 0;
  while (head < sites.length && !sites[head].task) head++;
  let tail = sites.length;
  while (tail > head && !sites[tail - 1].task) tail--;
  const out: ExprSite[] = [];
  for (let i = 0; i < head; i++) if (sites[i].surface === 'outputs') out.push(sites[i]);
  for (let i = tail; i < sites.length; i++) if (sites[i].surface === 'outputs') out.push(sites[i]);
  return out;
}

/** Tasks with every producer before its consumers (declaration order breaks ties and cycles). */
export function producersFirst(tasks: readonly Task[], deps: ReadonlyMap<string, ReadonlySet<string>>): Task[] {
  return producersFirstOrder(tasks, deps).map((i) => tasks[i]);
}

const NO_DEPS: ReadonlySet<string> = new Set();

/** `producersFirst` as positions in `tasks` (task ids are unique). */
export function producersFirstOrder(tasks: readonly Task[], deps: ReadonlyMap<string, ReadonlySet<string>>): number[] {
  const n = tasks.length;
  const byId = new Map<string, number>();
  tasks.forEach((t, i) => byId.set(t.id, i));
  const done = new Uint8Array(n);
  const visiting = new Uint8Array(n);
  const out: number[] = [];
  // Iterative depth-first walk: a long chain must not overflow the stack.
  const at: number[] = [];
  const its: Array<Iterator<string>> = [];
  for (let s = 0; s < n; s++) {
    if (done[s]) continue;
    visiting[s] = 1;
    at.push(s);
    its.push((deps.get(tasks[s].id) ?? NO_DEPS).values());
    while (at.length) {
      const top = at[at.length - 1];
      const next = its[its.length - 1].next();
      if (next.done) {
        at.pop();
        its.pop();
        visiting[top] = 0;
        if (!done[top]) { done[top] = 1; out.push(top); }
        continue;
      }
      const p = byId.get(next.value);
      if (p === undefined || done[p] || visiting[p]) continue;
      visiting[p] = 1;
      at.push(p);
      its.push((deps.get(tasks[p].id) ?? NO_DEPS).values());
    }
  }
  return out;
}

function hop(t: Taint | undefined, step: string): Taint | undefined {
  if (!t || t.size === 0) return undefined;
  const out: Taint = new Map();
  for (const [s, p] of t) out.set(s, p.step === step ? p : extend(p, step));
  return out;
}

function sinkOf(task: Task): string | undefined {
  const b = task.body;
  if (!b) return undefined;
  if (b.verb === 'invoke') return b.tool ?? b.workflow;
  return b.verb;
}

/** nika:hash signs with its `key:`: exactly `${{ secrets.X }}` there is the argument's purpose, not a leak. */
function exemptHashKey(task: Task, site: ExprSite): boolean {
  const p = site.path;
  return task.body?.verb === 'invoke' && task.body.tool === 'nika:hash' && p.length === 5 && p[2] === 'invoke' && p[3] === 'args' && p[4] === 'key' &&
    site.whole && /^secrets\.[A-Za-z_][A-Za-z0-9_]*$/.test(chainOf(site.ast) ?? '');
}

/** Host written literally in a URL's text (no island before the path), lower-cased. */
function literalHost(text: string): string | undefined {
  const m = /^\s*https?:\/\/([^/?#]*)/i.exec(text);
  if (!m || m[1].includes('${{')) return undefined;
  return hostOfUrl(text.replace(/\$\{\{[\s\S]*?\}\}/g, 'x'));
}

function sanctioned(ctx: CheckContext, decl: SecretDecl | undefined, sink: string, task: Task, secret: string): boolean {
  for (const e of decl?.egress ?? []) {
    if (e.to !== sink) continue;
    const b = task.body;
    const urlArg = b?.verb === 'invoke' ? (b.tool === 'nika:fetch' ? 'url' : b.tool === 'nika:notify' ? 'target' : undefined) : undefined;
    const url = urlArg && b?.verb === 'invoke' ? b.args[urlArg] : undefined;
    if (e.host !== undefined) {
      const host = typeof url === 'string' ? literalHost(url) : undefined;
      if (host && normalizeHost(String(e.host)) === host) return true;
      continue;
    }
    if (e.host_from_self !== undefined && (e.host_from_self as unknown) !== false) {
      // The secret is the destination itself: sanctioned only when the URL is exactly that secret.
      if (typeof url === 'string' && new RegExp(`^\\s*\\$\\{\\{\\s*secrets\\.${secret}\\s*\\}\\}\\s*$`).test(url)) return true;
      continue;
    }
    return true;
  }
  return false;
}

function sanctionFix(ctx: CheckContext, secret: string, sink: string) {
  const node = getNode(getNode(ctx.doc.root, 'secrets'), secret);
  if (!isMap(node)) return undefined;
  const item = `{ to: ${JSON.stringify(sink)} }`;
  const egress = getPair(node, 'egress');
  const edit = !egress ? appendToMap(ctx.doc, node as YAMLMap<unknown, unknown>, [['egress', `[${item}]`]])
    : isSeq(egress.value) ? appendToSeq(ctx.doc, egress.value as YAMLSeq<unknown>, item) : undefined;
  return edit ? { fixes: [{ title: `Sanction secrets.${secret} → ${sink} (egress)`, edits: [edit], preferred: false }] } : undefined;
}

