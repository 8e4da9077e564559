// The `infer:` verb: one model call. The body arrives interpolated from the scheduler.
import type { InferBody } from '../../core/ir.js';
import type { Usage, VerbContext } from '../contracts.js';
import { emitTask, numberField, resolveModel, structuredOutput } from './verb-support.js';

export async function runInfer(body: InferBody, ctx: VerbContext): Promise<{ output: unknown; usage?: Usage; model: string }> {
  const { model, name, provider } = resolveModel(body.model, ctx);
  const res = await provider.chat(
    {
      model: name,
      system: body.system,
      messages: [{ role: 'user', text: body.prompt }],
      temperature: numberField(body.temperature, 'temperature', { min: 0 }),
      maxTokens: numberField(body.maxTokens, 'max_tokens', { integer: true, min: 1 }),
      schema: body.schema,
    },
    { signal: ctx.signal, onText: (text) => emitTask(ctx, { type: 'infer_chunk', text }) },
  );
  const output = body.schema ? structuredOutput(res, body.schema, provider.id) : res.json !== undefined ? res.json : res.text;
  return { output, usage: res.usage, model };
}
