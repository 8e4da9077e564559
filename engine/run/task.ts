// One task from admission to its settled record (reference §2.1, §2.4, §2.5): `with:`
// materialization → `when:` → verb (retry, per-attempt timeout) → on_error → extract. Binding
// and `when:` errors fail the task without consulting on_error, as the spec orders.
import { setMaxListeners } from 'node:events';
import type { Task } from '../../core/ir.js';
import { interpolateDeep, renderTemplate, type EvalScope } from '../../core/expr/index.js';
import { NikaError, type Usage } from '../contracts.js';
import type { ErrorInfo } from '../events.js';
import { sleep } from '../builtins/core.js';
import { jqAll, JqError } from '../jq.js';
import { backoffDelay, shouldRetry } from './backoff.js';
import { cancelError, codeMatches, errorInfo, toNikaError } from './errors.js';
import { rootsIn, type Settled } from './graph.js';
import type { TaskHost } from './host.js';
import { displayModel, runVerb } from './verbs.js';

export interface Outcome {
  status: Settled;
  output: unknown;
  error: NikaError | null;
  attempts: number;
  extracts: Record<string, unknown>;
  usage?: Usage;
  /** Why a task was skipped or cancelled, for the event. */
  reason?: string;
  /** The verb stage was entered (an unwind cleanup fires only for started producers). */
  started: boolean;
}

const UNWIND_DEFAULT_TIMEOUT_MS = 30_000;
const LOOP_LOCALS = ['item', 'index'];

export async function executeTask(host: TaskHost, task: Task, signal: AbortSignal, isUnwind: boolean): Promise<Outcome> {
  const base = host.baseScope();
  const emitBase = { task_id: task.id };
  const fail = (e: unknown, started = false): Outcome => ({ status: 'failure', output: null, error: toNikaError(e), attempts: 0, extracts: {}, started });

  if (!task.forEach) {
    let scope: EvalScope;
    try {
      scope = { ...base, with: materializeWith(task, base) };
      if (!evalWhen(task, scope)) return skipped('when: is false');
    } catch (e) {
      return fail(e);
    }
    return runUnit(host, task, scope, signal, undefined, isUnwind);
  }

  // for_each: the collection is evaluated once, without item/index in scope.
  let items: unknown;
  let whenOnce = true;
  let baseWith: Record<string, unknown>;
  try {
    baseWith = materializeWith(task, base, true);
    const s = { ...base, with: baseWith };
    items = typeof task.forEach.items === 'string' ? renderTemplate(task.forEach.items, s) : interpolateDeep(task.forEach.items, s);
    if (!Array.isArray(items)) {
      throw new NikaError('NIKA-VAR-006', `for_each.items must be a list, got ${items === null ? 'null' : typeof items}`);
    }
    if (items.length === 0) return skipped('for_each over an empty collection');
    whenOnce = !usesLoopLocals(task.when);
    if (whenOnce && !evalWhen(task, s)) return skipped('when: is false');
  } catch (e) {
    return fail(e);
  }

  const list = items;
  const maxPar = loopParallelism(task, { ...base, with: baseWith });
  const results: Outcome[] = new Array(list.length);
  const iter = new AbortController();
  // One listener per iteration in flight (their timeout wrappers): not a leak.
  setMaxListeners(0, iter.signal);
  const onParent = () => iter.abort(signal.reason);
  signal.addEventListener('abort', onParent, { once: true });
  let firstFailure: { index: number; error: NikaError } | undefined;
  let next = 0;
  host.emit({ type: 'task_started', ...emitBase, verb: task.verb ?? '', attempt: 1, model: displayModel(host, task), tool: toolOf(task) });

  const worker = async () => {
    while (next < list.length && !iter.signal.aborted) {
      const i = next++;
      const t0 = Date.now();
      let r: Outcome;
      try {
        const loop: EvalScope = { ...base, item: list[i], index: i, inLoop: true };
        const scope = { ...loop, with: materializeWith(task, loop) };
        r = !whenOnce && !evalWhen(task, scope) ? skipped('when: is false') : await runUnit(host, task, scope, iter.signal, i, isUnwind);
      } catch (e) {
        r = fail(e);
      }
      results[i] = r;
      emitFinal(host, task, r, i, Date.now() - t0);
      if (r.status === 'failure' && !firstFailure) {
        firstFailure = { index: i, error: r.error! };
        if (task.forEach!.failFast) iter.abort(cancelError(`fail_fast: iteration ${i} failed`));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(maxPar, list.length) }, worker));
  } finally {
    signal.removeEventListener('abort', onParent);
  }

  const done = results.filter(Boolean);
  const attempts = Math.max(1, ...done.map((r) => r.attempts));
  const usage = sumUsage(done.map((r) => r.usage));
  if (firstFailure) {
    const e = firstFailure.error;
    return { status: 'failure', output: null, attempts, extracts: {}, usage, started: true,
      error: new NikaError(e.code, `iteration ${firstFailure.index}: ${e.message}`, e.opts) };
  }
  if (signal.aborted) return { status: 'cancelled', output: null, error: cancelError(reasonText(signal)), attempts, extracts: {}, started: true, reason: reasonText(signal) };
  const extracts: Record<string, unknown> = {};
  for (const name of Object.keys(task.extract ?? {})) extracts[name] = results.map((r) => r?.extracts[name] ?? null);
  return { status: 'success', output: results.map((r) => (r?.status === 'success' ? r.output : null)), error: null, attempts, extracts, usage, started: true };
}

/** The verb stage of one task or one iteration: attempts, timeout, on_error, extract. */
async function runUnit(host: TaskHost, task: Task, scope: EvalScope, signal: AbortSignal, index: number | undefined, isUnwind: boolean): Promise<Outcome> {
  const ids = { task_id: task.id, ...(index !== undefined ? { index } : {}) };
  const timeoutMs = task.timeoutMs ?? (isUnwind ? UNWIND_DEFAULT_TIMEOUT_MS : undefined);
  let attempt = 0;
  let usage: Usage | undefined;
  let last: NikaError;
  for (;;) {
    attempt++;
    if (signal.aborted) return cancelled(signal, attempt - 1);
    host.emit({ type: 'task_started', ...ids, verb: task.verb ?? '', attempt, model: displayModel(host, task), tool: toolOf(task) });
    try {
      const r = await withTimeout(timeoutMs, task.timeout, signal, (s) => runVerb(host, task, scope, s, index));
      usage = r.usage;
      return await finish(task, r.output, attempt, usage);
    } catch (e) {
      last = toNikaError(e);
      if (signal.aborted && last.code !== 'NIKA-TIMEOUT-001') return cancelled(signal, attempt);
      if (!shouldRetry(task.retry, last, attempt)) break;
      const delay = backoffDelay(task.retry!, attempt);
      host.emit({ type: 'task_retrying', ...ids, attempt: attempt + 1, delay_ms: delay, error: errorInfo(last) });
      try { await sleep(delay, signal); } catch { return cancelled(signal, attempt); }
    }
  }
  const policy = task.onError;
  if (policy && codeMatches(policy.onCodes, last.code)) {
    if (policy.recover) {
      let value: unknown;
      try {
        value = interpolateDeep(policy.recover.value, { ...scope, tasks: host.baseScope().tasks });
      } catch (e) {
        return { status: 'failure', output: null, error: toNikaError(e), attempts: attempt, extracts: {}, usage, started: true };
      }
      host.emit({ type: 'task_recovered', ...ids, output: value, error: errorInfo(last) });
      return finish(task, value, attempt, usage, true);
    }
    if (policy.skip) return { status: 'skipped', output: null, error: last, attempts: attempt, extracts: {}, usage, started: true, reason: `on_error: skip (${last.code})` };
  }
  return { status: 'failure', output: null, error: last, attempts: attempt, extracts: {}, usage, started: true };
}

async function finish(task: Task, raw: unknown, attempts: number, usage?: Usage, recovered = false): Promise<Outcome> {
  let output = raw;
  if (task.parseOutputAsJson && typeof output === 'string' && !recovered) {
    try { output = JSON.parse(output); } catch {
      return { status: 'failure', output: null, error: new NikaError('NIKA-TYPE-101', `output is not JSON (output.format: json): ${(output as string).slice(0, 200)}`), attempts, extracts: {}, usage, started: true };
    }
  }
  const extracts: Record<string, unknown> = {};
  for (const [name, filter] of Object.entries(task.extract ?? {})) {
    try {
      const all = await jqAll(output, filter);
      if (all.length !== 1) throw new NikaError('NIKA-VAR-002', `extract '${name}' produced ${all.length} values; a binding must produce exactly one (wrap it in [ … ])`);
      extracts[name] = all[0];
    } catch (e) {
      const err = e instanceof JqError
        ? new NikaError(e.kind === 'runtime' ? 'NIKA-VAR-004' : 'NIKA-VAR-005', `extract '${name}': ${e.message}`)
        : toNikaError(e);
      return { status: 'failure', output: null, error: err, attempts, extracts: {}, usage, started: true };
    }
  }
  return { status: 'success', output, error: null, attempts, extracts, usage, started: true };
}

async function withTimeout<T>(ms: number | undefined, label: string | undefined, parent: AbortSignal, fn: (s: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const onParent = () => ac.abort(parent.reason);
  parent.addEventListener('abort', onParent, { once: true });
  const timer = ms ? setTimeout(() => ac.abort(new NikaError('NIKA-TIMEOUT-001', `timed out after ${label ?? `${ms}ms`}`)), ms) : undefined;
  const work = fn(ac.signal);
  work.catch(() => undefined);
  const aborted = new Promise<never>((_, reject) => ac.signal.addEventListener('abort', () => reject(ac.signal.reason), { once: true }));
  aborted.catch(() => undefined);
  try {
    return await Promise.race([work, aborted]);
  } catch (e) {
    if (ac.signal.aborted) {
      // Give the verb a moment to stop its children, so "failed" means "gone".
      await Promise.race([work.catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
      throw ac.signal.reason;
    }
    throw e;
  } finally {
    if (timer) clearTimeout(timer);
    parent.removeEventListener('abort', onParent);
  }
}

export function emitFinal(host: TaskHost, task: Task, o: Outcome, index?: number, durationMs = 0): void {
  const ids = { task_id: task.id, ...(index !== undefined ? { index } : {}) };
  switch (o.status) {
    case 'success':
      host.emit({ type: 'task_completed', ...ids, output: o.output, duration_ms: durationMs, attempts: o.attempts, ...(o.usage ? { usage: o.usage } : {}) });
      break;
    case 'failure':
      host.emit({ type: 'task_failed', ...ids, error: errorInfo(o.error!), duration_ms: durationMs, attempts: o.attempts });
      break;
    case 'skipped':
      host.emit({ type: 'task_skipped', ...ids, reason: o.reason ?? 'skipped', error: o.error ? errorInfo(o.error) : null });
      break;
    case 'cancelled':
      host.emit({ type: 'task_cancelled', ...ids, reason: o.reason ?? 'cancelled' });
      break;
  }
}

function materializeWith(task: Task, scope: EvalScope, skipLoopBound = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(task.with ?? {})) {
    if (skipLoopBound && usesLoopLocals(v)) continue;
    out[k] = interpolateDeep(v, scope);
  }
  return out;
}

function evalWhen(task: Task, scope: EvalScope): boolean {
  const w = task.when;
  if (w === undefined || w === true) return true;
  if (w === false) return false;
  const v = renderTemplate(w, scope);
  if (typeof v !== 'boolean') throw new NikaError('NIKA-VAR-006', `when: must be a boolean, got ${JSON.stringify(v)}`);
  return v;
}

function usesLoopLocals(v: unknown): boolean {
  const roots = rootsIn(v);
  return LOOP_LOCALS.some((r) => roots.has(r));
}

function loopParallelism(task: Task, scope: EvalScope): number {
  let mp = task.forEach?.maxParallel;
  if (typeof mp === 'string') mp = Number(renderTemplate(mp, scope));
  return typeof mp === 'number' && Number.isFinite(mp) && mp >= 1 ? Math.floor(mp) : Number.POSITIVE_INFINITY;
}

function toolOf(task: Task): string | undefined {
  return task.body?.verb === 'invoke' ? task.body.tool ?? (task.body.resource ? `mcp:${task.body.resource.server}/resource` : task.body.workflow) : undefined;
}

function skipped(reason: string): Outcome {
  return { status: 'skipped', output: null, error: null, attempts: 0, extracts: {}, reason, started: false };
}

function reasonText(signal: AbortSignal): string {
  const r = signal.reason;
  return r instanceof Error ? r.message : typeof r === 'string' ? r : 'cancelled';
}

function cancelled(signal: AbortSignal, attempts: number): Outcome {
  const why = reasonText(signal);
  return { status: 'cancelled', output: null, error: cancelError(why), attempts, extracts: {}, started: attempts > 0, reason: why };
}

function sumUsage(us: Array<Usage | undefined>): Usage | undefined {
  const present = us.filter((u): u is Usage => !!u);
  if (!present.length) return undefined;
  return present.reduce((a, b) => ({ input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens }));
}

export type { ErrorInfo };
