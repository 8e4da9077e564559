// The `agent:` verb: a bounded loop of model turns with native tool calling (reference §3.4).
//
// Ends with success on: a reply without tool calls (its text, or a parsed object with `schema:`);
// a `nika:done` call (its `result`, when whitelisted); a legacy stop condition in the text.
// Ends with failure on: `max_turns` turns without an end (NIKA-AGENT-001, details.partial_output
// = last assistant text); cumulative tokens reaching `max_tokens_total` while the model still asks
// for tools (NIKA-AGENT-002; a final answer that crosses the budget is still accepted, the work is
// done); a tool error whose code starts with NIKA-SEC (security errors fail the task); a call to a
// tool that was not offered (NIKA-SEC-002). Other tool errors go back to the model as error results.
// On the last allowed turn, tool calls other than `nika:done` are not executed: the loop could
// not use their results anyway.
import type { AgentBody } from '../../core/ir.js';
import { NikaError, type ToolSchema, type Usage, type VerbContext } from '../contracts.js';
import { abortError } from './errors.js';
import { DONE_TOOL_ID, ToolNameMap } from './tool-names.js';
import type { ChatMessage, ChatTool, ToolCall } from './types.js';
import { emitTask, numberField, resolveModel, structuredOutput } from './verb-support.js';

const DEFAULT_MAX_TURNS = 10;
/** Tool results beyond this are cut before going back to the model (they stay whole in events). */
const MAX_RESULT_CHARS = 100_000;

const DONE_SCHEMA: ToolSchema = {
  id: DONE_TOOL_ID,
  description: 'Call when the task is complete. `result` (any JSON value) becomes the task output.',
  inputSchema: { type: 'object', properties: { result: { description: 'The final result of the task.' } } },
};

/** `nika:done` is handled by the loop, so it is offered iff the whitelist names it (or the scheduler listed it). */
function withDone(schemas: ToolSchema[], patterns: string[]): ToolSchema[] {
  const rest = schemas.filter((s) => s.id !== DONE_TOOL_ID);
  const listed = rest.length !== schemas.length;
  const negated = patterns.some((p) => p.trim() === `!${DONE_TOOL_ID}`);
  const named = patterns.some((p) => p.trim() === DONE_TOOL_ID);
  return (listed || named) && !negated ? [...rest, DONE_SCHEMA] : rest;
}

function resultText(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return s.length > MAX_RESULT_CHARS ? `${s.slice(0, MAX_RESULT_CHARS)}\n…[truncated ${s.length - MAX_RESULT_CHARS} characters]` : s;
}

export async function runAgent(body: AgentBody, ctx: VerbContext): Promise<{ output: unknown; usage: Usage; turns: number }> {
  const { name: modelName, provider } = resolveModel(body.model, ctx);
  const maxTurns = numberField(body.maxTurns, 'max_turns', { integer: true, min: 1 }) ?? DEFAULT_MAX_TURNS;
  const maxTokensTotal = numberField(body.maxTokensTotal, 'max_tokens_total', { integer: true, min: 1 });
  const temperature = numberField(body.temperature, 'temperature', { min: 0 });

  const names = new ToolNameMap();
  const patterns = body.tools ?? [];
  const schemas = patterns.length > 0 ? withDone(await ctx.listToolSchemas(patterns), patterns) : [];
  const tools: ChatTool[] = schemas.map((s) => ({ name: names.add(s.id), description: s.description, inputSchema: s.inputSchema }));

  const messages: ChatMessage[] = [{ role: 'user', text: body.prompt }];
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let lastText = '';
  const finish = (output: unknown, turns: number) => ({ output, usage: { ...usage }, turns });
  const final = (res: { text: string; json?: unknown }) => (body.schema ? structuredOutput(res, body.schema, provider.id) : res.text);

  for (let turn = 1; ; turn++) {
    if (ctx.signal.aborted) throw abortError(ctx.signal);
    const res = await provider.chat(
      { model: modelName, system: body.system, messages, tools: tools.length ? tools : undefined, temperature, schema: body.schema },
      { signal: ctx.signal, onText: (text) => emitTask(ctx, { type: 'infer_chunk', text }) },
    );
    usage.input_tokens += res.usage.input_tokens;
    usage.output_tokens += res.usage.output_tokens;
    const tokensUsed = usage.input_tokens + usage.output_tokens;
    if (res.text.trim() !== '') lastText = res.text;
    emitTask(ctx, {
      type: 'agent_turn', turn, text: res.text, usage: res.usage, tokens_used: tokensUsed,
      max_turns: maxTurns, max_tokens_total: maxTokensTotal, stop_reason: res.stopReason,
    });
    messages.push({ role: 'assistant', text: res.text, toolCalls: res.toolCalls });

    if (res.toolCalls.length === 0) return finish(final(res), turn);
    if (body.stopConditions?.some((c) => c !== '' && res.text.includes(c))) return finish(res.text, turn);

    const budget = (code: string, why: string) =>
      new NikaError(code, `agent stopped: ${why}`, { details: { partial_output: lastText, turns: turn, tokens_used: tokensUsed } });
    const hasDone = res.toolCalls.some((c) => names.id(c.name) === DONE_TOOL_ID);
    if (!hasDone && turn >= maxTurns) throw budget('NIKA-AGENT-001', `max_turns (${maxTurns}) reached without a final answer`);
    if (!hasDone && maxTokensTotal !== undefined && tokensUsed >= maxTokensTotal) {
      throw budget('NIKA-AGENT-002', `max_tokens_total (${maxTokensTotal}) reached: ${tokensUsed} tokens used`);
    }

    for (const call of res.toolCalls) {
      const done = await runCall(call, turn);
      if (done) return finish(done.output, turn);
    }
  }

  async function runCall(call: ToolCall, turn: number): Promise<{ output: unknown } | undefined> {
    const id = names.id(call.name);
    emitTask(ctx, { type: 'agent_tool_call', turn, call_id: call.id, tool: id ?? call.name, args: call.args });
    if (!id) {
      throw new NikaError('NIKA-SEC-002', `the model called "${call.name}", which is not in this agent's tools whitelist`, { details: { tool: call.name } });
    }
    if (id === DONE_TOOL_ID) {
      const has = Object.prototype.hasOwnProperty.call(call.args, 'result');
      let output: unknown = has ? call.args.result : lastText;
      if (body.schema) output = structuredOutput({ json: output, text: '' }, body.schema, provider.id);
      emitTask(ctx, { type: 'agent_tool_result', turn, call_id: call.id, tool: id, result: output, is_error: false });
      return { output };
    }
    let result: unknown;
    let isError = false;
    try {
      result = await ctx.callTool(id, call.args);
    } catch (e) {
      if (ctx.signal.aborted) throw abortError(ctx.signal);
      if (e instanceof NikaError && e.code.startsWith('NIKA-SEC')) throw e;
      isError = true;
      result = e instanceof NikaError ? `${e.code}: ${e.message}` : String((e as Error)?.message ?? e);
    }
    emitTask(ctx, { type: 'agent_tool_result', turn, call_id: call.id, tool: id, result, is_error: isError });
    messages.push({ role: 'tool', callId: call.id, name: call.name, text: resultText(result), isError });
    return undefined;
  }
}
