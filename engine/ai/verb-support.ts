// Small pieces infer and agent share: model resolution, numeric fields that may arrive as
// strings after interpolation, task-scoped events, and finishing structured output.
import { NikaError, type VerbContext } from '../contracts.js';
import { parseModel } from './catalog.js';
import { getProvider } from './providers/index.js';
import { checkAgainstSchema, parseJsonText } from './structured.js';
import type { ChatProvider, ChatResult } from './types.js';

export function resolveModel(bodyModel: string | undefined, ctx: VerbContext): { model: string; name: string; provider: ChatProvider } {
  const model = ctx.modelOverride ?? bodyModel ?? ctx.defaultModel;
  if (!model || model.trim() === '') {
    throw new NikaError('NIKA-INFER-001', 'no model: set `model:` on the task or at the top of the workflow, or run with --model (e.g. --model mock/echo)');
  }
  const { name } = parseModel(model);
  return { model, name, provider: getProvider(model, ctx.env) };
}

/** `undefined` stays undefined; numbers and numeric strings pass; anything else is refused. */
export function numberField(value: unknown, field: string, opts: { integer?: boolean; min?: number } = {}): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (!Number.isFinite(n) || (opts.integer && !Number.isInteger(n)) || (opts.min !== undefined && n < opts.min)) {
    throw new NikaError('NIKA-VAR-006', `${field} must be ${opts.integer ? 'an integer' : 'a number'}${opts.min !== undefined ? ` ≥ ${opts.min}` : ''}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** Emits an event for the current task (and for_each index); the scheduler stamps ts/run_id. */
export function emitTask(ctx: VerbContext, event: { type: string } & Record<string, unknown>): void {
  const e: { type: string } & Record<string, unknown> = { ...event, task_id: ctx.taskId };
  if (ctx.index !== undefined) e.index = ctx.index;
  ctx.emit(e as Parameters<VerbContext['emit']>[0]);
}

/** The value of a `schema:` answer, checked against the schema (the mock's zero values are trusted as is). */
export function structuredOutput(res: Pick<ChatResult, 'json' | 'text'>, schema: Record<string, unknown>, providerId: string): unknown {
  let value = res.json !== undefined ? res.json : parseJsonText(res.text);
  if (typeof value === 'string' && schema.type !== 'string') value = parseJsonText(value);
  if (providerId !== 'mock') checkAgainstSchema(value, schema);
  return value;
}
