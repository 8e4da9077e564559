// Control and trace builtins: assert, log, emit, wait, prompt, done, inspect.
import { parseDuration } from '../../core/duration.js';
import { NikaError } from '../contracts.js';
import { argError, builtinError } from './errors.js';
import type { Builtin } from './types.js';

export const assert: Builtin = async (args) => {
  const c = args.condition;
  if (c === true) return true;
  if (c === false) {
    throw builtinError('assert', 1, typeof args.message === 'string' && args.message ? args.message : 'assertion failed');
  }
  throw argError('assert', `condition must be a boolean \${{ }} expression, got ${JSON.stringify(c)}`);
};

export const log: Builtin = async (args, ctx) => {
  ctx.emit({ type: 'task_log', task_id: ctx.taskId, index: ctx.index, level: String(args.level ?? 'info'), message: String(args.message), data: args.data });
  return null;
};

export const emit: Builtin = async (args, ctx) => {
  const t = String(args.event_type);
  if (!/^[a-z][a-z0-9_.-]*$/.test(t)) throw builtinError('emit', 1, `event_type '${t}' must match ^[a-z][a-z0-9_.-]*$`);
  // events.ts has no custom-event type; a task_log with level "event" carries it.
  ctx.emit({ type: 'task_log', task_id: ctx.taskId, index: ctx.index, level: 'event', message: t, data: args.payload ?? null });
  return null;
};

export const wait: Builtin = async (args, ctx) => {
  let ms: number;
  if (typeof args.duration === 'string') {
    const d = parseDuration(args.duration);
    if (!d.ok) throw builtinError('wait', 1, d.reason);
    ms = d.ms;
  } else {
    const until = Date.parse(String(args.until));
    if (Number.isNaN(until)) throw builtinError('wait', 2, `until '${String(args.until)}' is not an ISO 8601 timestamp`);
    ms = Math.max(0, until - Date.now());
    if (typeof args.timeout === 'string') {
      const t = parseDuration(args.timeout);
      if (!t.ok) throw builtinError('wait', 1, t.reason);
      if (ms > t.ms) throw builtinError('wait', 3, `until is ${Math.round(ms / 1000)}s away, beyond the timeout of ${args.timeout}`);
    }
  }
  await sleep(ms, ctx.signal);
  return null;
};

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(t); reject(signal.reason); };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const prompt: Builtin = async (args, ctx) => {
  const mode = (args.mode ?? 'confirm') as 'confirm' | 'input' | 'choice';
  const choices = Array.isArray(args.choices) ? args.choices.map(String) : undefined;
  if (mode === 'choice' && !choices?.length) throw argError('prompt', 'mode choice needs choices');
  const hasDefault = args.default !== undefined && args.default !== null;
  if (hasDefault) {
    const d = args.default;
    const ok = mode === 'confirm' ? typeof d === 'boolean' : mode === 'choice' ? choices!.includes(String(d)) : typeof d === 'string';
    if (!ok) throw builtinError('prompt', 2, `default ${JSON.stringify(d)} does not fit mode ${mode}`);
  }
  if (ctx.prompt) return ctx.prompt({ message: String(args.message), mode, default: args.default, choices, taskId: ctx.taskId });
  if (hasDefault) return args.default;
  throw builtinError('prompt', 1, `nobody can answer '${String(args.message)}' in a headless run and no default is given`);
};

export const done: Builtin = async (args, ctx) => {
  if (!ctx.inAgent) throw new NikaError('NIKA-BUILTIN-DONE-001', 'nika:done only works inside an agent (list it in agent.tools)');
  return { done: true, result: args.result ?? null };
};

export const inspect: Builtin = async (args, ctx) => {
  const view = String(args.view);
  if (!ctx.inspect) throw builtinError('inspect', 1, 'no run information is available here');
  const v = ctx.inspect(view);
  if (v === undefined) throw builtinError('inspect', 1, `unknown view '${view}'`);
  return v;
};
