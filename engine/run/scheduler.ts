// A run: admission of tasks as their producers settle (GATE-v2, reference §2.1), bounded
// parallelism, cancellation, workflow outputs, and the event stream with secrets masked.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { basename } from 'node:path';
import type { Workflow } from '../../core/ir.js';
import { interpolateDeep, renderTemplate, type EvalScope, type TaskRecord } from '../../core/expr/index.js';
import type { EventInput } from '../builtins/types.js';
import { NikaError, type McpClientPool, type Usage } from '../contracts.js';
import type { ErrorInfo, NikaEvent, RunState, TaskStatus, TaskSummary } from '../events.js';
import { Boundary } from '../permits.js';
import type { ToolCallContext } from '../tools.js';
import { EventChannel } from './channel.js';
import { cancelError, errorInfo, toNikaError } from './errors.js';
import { planWorkflow, selectTasks, type Settled, type TaskPlan } from './graph.js';
import type { TaskHost } from './host.js';
import { resolveInputs } from './inputs.js';
import { Redactor } from './redact.js';
import { loadSecrets } from './secrets.js';
import { emitFinal, executeTask, type Outcome } from './task.js';
import type { RunOptions, RunResult } from './types.js';

interface TaskState {
  plan: TaskPlan;
  status: TaskStatus;
  output: unknown;
  error: ErrorInfo | null;
  attempts: number;
  durationMs: number;
  startedAt?: number;
  endedAt?: number;
  started: boolean;
  extracts: Record<string, unknown>;
  usage?: Usage;
}

export type PoolFactory = (servers: NonNullable<RunOptions['mcpServers']>) => McpClientPool;

export class Run implements TaskHost {
  readonly runId = randomUUID();
  readonly channel = new EventChannel();
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
  readonly boundary: Boundary;
  readonly modelOverride?: string;
  readonly killGraceMs?: number;
  defaultModel?: string;
  private readonly redactor = new Redactor();
  private readonly plans: Map<string, TaskPlan>;
  private readonly states = new Map<string, TaskState>();
  private readonly records: Record<string, TaskRecord> = {};
  private readonly cancelCtl = new AbortController();
  private readonly hardCtl = new AbortController();
  private scopeBase: EvalScope = {};
  private pool?: McpClientPool;
  private ownsPool = false;
  private readonly t0 = Date.now();
  private readonly hasGroups: boolean;

  constructor(readonly wf: Workflow, readonly opts: RunOptions, private readonly poolFactory?: PoolFactory) {
    this.cwd = opts.cwd;
    this.env = opts.env ?? process.env;
    this.boundary = Boundary.forWorkflow(wf, opts.cwd);
    this.modelOverride = opts.modelOverride;
    this.killGraceMs = opts.killGraceMs;
    this.plans = planWorkflow(wf);
    this.hasGroups = wf.tasks.some((t) => t.group);
    // Every running task listens on these two (its timeout wrapper): dozens at once is the
    // design, not a leak, so Node's "11 abort listeners" warning must not fire on big fan-outs.
    setMaxListeners(0, this.cancelCtl.signal, this.hardCtl.signal);
    if (opts.signal) {
      if (opts.signal.aborted) this.cancel('cancelled by the caller');
      else opts.signal.addEventListener('abort', () => this.cancel('cancelled by the caller'), { once: true });
    }
  }

  cancel(reason = 'cancelled'): void {
    if (this.cancelCtl.signal.aborted) this.hardCtl.abort(cancelError(reason));
    else this.cancelCtl.abort(cancelError(reason));
  }

  emit(e: EventInput): void {
    const stamped = { ...e, ts: Date.now(), run_id: this.runId } as NikaEvent;
    if (this.redactor.active && 'task_id' in stamped) {
      // Streamed text is masked across chunk boundaries; the task's next event ends its stream.
      const key = `${stamped.task_id}#${stamped.index ?? ''}`;
      if (stamped.type === 'infer_chunk') {
        const text = this.redactor.stream(key, stamped.text);
        if (text) this.channel.push({ ...stamped, text });
        return;
      }
      const rest = this.redactor.flush(key);
      if (rest) {
        const { task_id, index, ts, run_id } = stamped;
        this.channel.push({ type: 'infer_chunk', task_id, ...(index !== undefined ? { index } : {}), ts, run_id, text: rest });
      }
    }
    this.channel.push(this.redactor.deep(stamped));
  }

  baseScope(): EvalScope {
    return { ...this.scopeBase, tasks: this.records, group: this.groups() };
  }

  toolContext(o: { taskId: string; index?: number; signal: AbortSignal; inAgent: boolean; timeoutMs?: number }): ToolCallContext {
    return {
      runId: this.runId,
      taskId: o.taskId,
      index: o.index,
      cwd: this.cwd,
      boundary: this.boundary,
      signal: o.signal,
      inAgent: o.inAgent,
      timeoutMs: o.timeoutMs,
      emit: (e) => this.emit(e),
      prompt: this.opts.prompt,
      inspect: (view) => this.inspect(view),
      host: { pool: () => this.getPool() },
    };
  }

  async execute(): Promise<RunResult> {
    let failure: NikaError | undefined;
    let outputs: Record<string, unknown> = {};
    const reused = new Set(Object.entries(this.opts.reuse ?? {}).filter(([, s]) => isSettled(s.status)).map(([id]) => id));
    if (this.opts.only && !this.plans.has(this.opts.only.task)) {
      failure = new NikaError('NIKA-DAG-002', `no task '${this.opts.only.task}' in this workflow`);
    }
    const { run, seeded } = selectTasks(this.wf, this.plans, this.opts.only, reused);
    this.emit({ type: 'workflow_started', workflow: this.wf.name ?? (this.opts.file ? basename(this.opts.file).replace(/\.nika\.ya?ml$/, '') : 'workflow'), file: this.opts.file, task_count: failure ? 0 : run.size, dialect: this.wf.dialect });
    try {
      if (!failure) {
        this.prepare();
        this.seed(seeded);
        for (const t of this.wf.tasks) {
          if (!run.has(t.id)) continue;
          const plan = this.plans.get(t.id)!;
          this.states.set(t.id, { plan, status: 'pending', output: null, error: null, attempts: 0, durationMs: 0, started: false, extracts: {} });
          this.emit({ type: 'task_scheduled', task_id: t.id, dependencies: plan.dependencies });
        }
        await this.loop();
        if (!this.cancelCtl.signal.aborted) {
          try { outputs = this.evalOutputs(); } catch (e) { failure = toNikaError(e); }
        }
      }
    } catch (e) {
      failure = toNikaError(e);
    } finally {
      if (this.ownsPool && this.pool) await this.pool.close().catch(() => undefined);
    }

    const tasks: Record<string, TaskSummary> = {};
    for (const [id, st] of this.states) {
      tasks[id] = { status: st.status, output: st.output, error: st.error, attempts: st.attempts, duration_ms: st.durationMs };
    }
    const failedTask = [...this.states.values()].find((s) => s.status === 'failure' && s.plan.unwindOf.length === 0);
    const state: RunState = this.cancelCtl.signal.aborted ? 'cancelled' : failure || failedTask ? 'failure' : 'success';
    const error = failure ? errorInfo(failure) : failedTask?.error ?? (state === 'cancelled' ? errorInfo(this.cancelCtl.signal.reason as NikaError) : undefined);
    const type = state === 'success' ? 'workflow_completed' : state === 'failure' ? 'workflow_failed' : 'workflow_cancelled';
    const duration_ms = Date.now() - this.t0;
    this.emit({ type, state, tasks, outputs, duration_ms, ...(error ? { error } : {}) });
    this.channel.close();
    return this.redactor.deep({ run_id: this.runId, state, tasks, outputs, duration_ms, ...(error ? { error } : {}) });
  }

  private prepare(): void {
    const { inputs, vars } = resolveInputs(this.wf, this.opts.inputs);
    const secrets = loadSecrets(this.wf.secrets, this.env, this.cwd, this.redactor);
    const draft = this.wf.dialect !== 'v1';
    this.scopeBase = { inputs, const: this.wf.const, secrets, ...(draft ? { vars, env: this.wf.env } : {}) };
    if (this.wf.model) {
      const m = renderTemplate(this.wf.model, this.scopeBase);
      this.defaultModel = typeof m === 'string' ? m : String(m);
    }
  }

  private seed(ids: Set<string>): void {
    for (const id of ids) {
      const s = this.opts.reuse![id];
      const plan = this.plans.get(id)!;
      this.states.set(id, { plan, status: s.status, output: s.output, error: s.error, attempts: s.attempts, durationMs: s.duration_ms, started: true, extracts: {} });
      this.records[id] = { status: s.status, output: s.output, error: s.error, duration_ms: s.duration_ms };
    }
  }

  private async loop(): Promise<void> {
    const max = this.opts.maxParallel && this.opts.maxParallel > 0 ? this.opts.maxParallel : Number.POSITIVE_INFINITY;
    let pending = [...this.states.values()].filter((s) => s.status === 'pending');
    let running = 0;
    // Woken by every task that settles, so the next one starts as soon as a slot frees.
    let wake: (() => void) | undefined;
    let broken: unknown;
    const onSettled = () => {
      running--;
      const w = wake;
      wake = undefined;
      w?.();
    };
    for (;;) {
      let progressed = true;
      while (progressed) {
        progressed = false;
        // One pass in declaration order: settle what can no longer run, start what may while
        // there are free slots, keep the rest (in order) for the next pass.
        const keep: TaskState[] = [];
        for (const st of pending) {
          const d = this.admission(st);
          if (d === 'wait') { keep.push(st); continue; }
          if (d !== 'run') {
            this.settle(st, d.status === 'cancelled'
              ? { status: 'cancelled', output: null, error: null, attempts: 0, extracts: {}, reason: d.reason, started: false }
              : { status: 'skipped', output: null, error: null, attempts: 0, extracts: {}, reason: d.reason, started: false }, 0);
            progressed = true;
            continue;
          }
          if (running >= max) { keep.push(st); continue; }
          running++;
          void this.start(st).then(onSettled, (e) => { broken ??= e; onSettled(); });
          progressed = true;
        }
        pending = keep;
      }
      if (running === 0) break;
      await new Promise<void>((r) => { wake = r; });
      if (broken !== undefined) throw broken;
    }
    // Anything still pending waits on itself: a cycle the checker would have refused.
    for (const st of pending) {
      this.settle(st, { status: 'cancelled', output: null, error: null, attempts: 0, extracts: {}, reason: 'dependency cycle (NIKA-DAG-001)', started: false }, 0);
    }
  }

  private admission(st: TaskState): 'wait' | 'run' | { status: 'cancelled' | 'skipped'; reason: string } {
    const { plan } = st;
    const isUnwind = plan.unwindOf.length > 0;
    if (this.cancelCtl.signal.aborted && !isUnwind) return { status: 'cancelled', reason: 'run cancelled' };
    let waiting = false;
    for (const [producer, admits] of plan.gates) {
      const p = this.states.get(producer);
      if (!p) continue;
      if (!isSettled(p.status)) { waiting = true; continue; }
      if (!admits.has(p.status as Settled)) {
        return { status: 'cancelled', reason: `${producer} ended ${p.status}, which does not admit this task (needs ${[...admits].join(' or ') || 'an impossible outcome'})` };
      }
    }
    if (isUnwind) {
      for (const producer of plan.unwindOf) {
        const p = this.states.get(producer);
        if (p && !isSettled(p.status)) return 'wait';
        // Cleanups of one producer run one after another, in declaration order.
        for (const other of this.states.values()) {
          if (other === st) break;
          if (other.plan.unwindOf.includes(producer) && !isSettled(other.status)) return 'wait';
        }
      }
      if (waiting) return 'wait';
      if (!plan.unwindOf.some((id) => this.states.get(id)?.started)) return { status: 'skipped', reason: 'nothing to clean up: the producer never started' };
      return this.hardCtl.signal.aborted ? { status: 'cancelled', reason: 'run cancelled' } : 'run';
    }
    return waiting ? 'wait' : 'run';
  }

  private async start(st: TaskState): Promise<void> {
    const task = st.plan.task;
    st.status = 'running';
    st.startedAt = Date.now();
    const isUnwind = st.plan.unwindOf.length > 0;
    let o: Outcome;
    try {
      o = await executeTask(this, task, isUnwind ? this.hardCtl.signal : this.cancelCtl.signal, isUnwind);
    } catch (e) {
      o = { status: 'failure', output: null, error: toNikaError(e), attempts: 0, extracts: {}, started: true };
    }
    this.settle(st, o, Date.now() - st.startedAt);
  }

  private settle(st: TaskState, o: Outcome, durationMs: number): void {
    const id = st.plan.task.id;
    st.status = o.status;
    st.output = o.output;
    st.error = o.error ? errorInfo(o.error) : null;
    st.attempts = o.attempts;
    st.durationMs = durationMs;
    st.endedAt = Date.now();
    st.started = st.started || o.started;
    st.extracts = o.extracts;
    st.usage = o.usage;
    this.records[id] = {
      ...o.extracts,
      status: o.status,
      output: o.output,
      error: st.error,
      duration_ms: durationMs,
      started_at: st.startedAt ? new Date(st.startedAt).toISOString() : undefined,
      ended_at: new Date(st.endedAt).toISOString(),
    };
    emitFinal(this, st.plan.task, o, undefined, durationMs);
  }

  private groups(): Record<string, unknown[]> {
    const out: Record<string, unknown[]> = {};
    // Most workflows have no groups: skip the walk over every task for each task started.
    if (!this.hasGroups) return out;
    for (const t of this.wf.tasks) {
      if (!t.group) continue;
      const st = this.states.get(t.id);
      if (!st) continue;
      (out[t.group] ??= []).push({ id: t.id, status: st.status, output: st.output, duration_ms: st.durationMs, error: st.error });
    }
    return out;
  }

  private evalOutputs(): Record<string, unknown> {
    const scope = { ...this.scopeBase, tasks: this.records };
    const out: Record<string, unknown> = {};
    for (const [name, decl] of Object.entries(this.wf.outputs)) {
      try {
        out[name] = interpolateDeep(decl.value, scope);
      } catch (e) {
        // A partial run (`only`) has no records for the tasks it left out: leave those outputs unset.
        if (this.opts.only) continue;
        const err = toNikaError(e);
        throw new NikaError(err.code, `output '${name}': ${err.message}`);
      }
    }
    return out;
  }

  private getPool(): McpClientPool | undefined {
    if (this.opts.mcpPool) return this.opts.mcpPool;
    if (!this.pool) {
      const servers = this.opts.mcpServers ?? this.wf.mcp;
      if (!this.poolFactory || Object.keys(servers).length === 0) return undefined;
      this.pool = this.poolFactory(servers);
      this.ownsPool = true;
    }
    return this.pool;
  }

  private inspect(view: string): unknown {
    switch (view) {
      case 'records': return structuredClone(this.records);
      case 'dag_info': return {
        tasks: [...this.states.keys()],
        edges: [...this.states.values()].flatMap((s) => [
          ...[...s.plan.gates.keys()].map((from) => ({ from, to: s.plan.task.id, kind: 'precedence' })),
          ...s.plan.unwindOf.map((from) => ({ from, to: s.plan.task.id, kind: 'finally' })),
        ]),
      };
      case 'cost': {
        let input = 0, output = 0;
        for (const s of this.states.values()) { input += s.usage?.input_tokens ?? 0; output += s.usage?.output_tokens ?? 0; }
        return { input_tokens: input, output_tokens: output };
      }
      case 'threads': return [];
      default: return undefined;
    }
  }
}

function isSettled(s: TaskStatus): boolean {
  return s === 'success' || s === 'failure' || s === 'skipped' || s === 'cancelled';
}
