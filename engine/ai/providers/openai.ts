// `openai/*` and every OpenAI-compatible provider, through the official SDK's chat.completions
// with streaming, native function calling and `response_format: json_schema`.
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { NikaError } from '../../contracts.js';
import type { Endpoint, ProviderInfo } from '../catalog.js';
import { abortError, cutStream, providerError } from '../errors.js';
import { parseJsonText } from '../structured.js';
import type { ChatMessage, ChatOptions, ChatProvider, ChatRequest, ChatResult, ToolCall } from '../types.js';

function toWire(system: string | undefined, messages: ChatMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.callId, content: m.isError ? `ERROR: ${m.text}` : m.text });
    else {
      const calls = m.toolCalls ?? [];
      out.push({
        role: 'assistant',
        content: m.text === '' && calls.length > 0 ? null : m.text,
        ...(calls.length > 0
          ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.args) } })) }
          : {}),
      });
    }
  }
  return out;
}

const STOP: Record<string, string> = { stop: 'end_turn', tool_calls: 'tool_use', function_call: 'tool_use', length: 'max_tokens' };

export class OpenAIProvider implements ChatProvider {
  private readonly client: OpenAI;

  constructor(readonly info: ProviderInfo, private readonly endpoint: Endpoint) {
    this.client = new OpenAI({
      apiKey: endpoint.apiKey ?? 'not-needed',
      baseURL: endpoint.baseUrl,
      maxRetries: 0,
      logLevel: 'off',
      // Cloud calls have a 30 s default deadline; local models may think for minutes (reference §7).
      timeout: info.kind === 'local' ? 600_000 : 120_000,
    });
  }

  get id(): string {
    return this.info.id;
  }

  async chat(req: ChatRequest, opts: ChatOptions): Promise<ChatResult> {
    const what = `${this.info.id}/${req.model}`;
    const secrets = [this.endpoint.apiKey];
    const tools: ChatCompletionTool[] | undefined = req.tools?.length
      ? req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }))
      : undefined;
    const params: ChatCompletionCreateParamsStreaming = {
      model: req.model,
      messages: toWire(req.system, req.messages),
      stream: true,
      stream_options: { include_usage: true },
      ...(tools ? { tools } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      // OpenAI's reasoning models refuse max_tokens; compatible servers mostly only know max_tokens.
      ...(req.maxTokens !== undefined ? (this.info.id === 'openai' ? { max_completion_tokens: req.maxTokens } : { max_tokens: req.maxTokens }) : {}),
      ...(req.schema
        ? { response_format: { type: 'json_schema', json_schema: { name: 'output', schema: req.schema, strict: false } } }
        : {}),
    };

    let text = '';
    let finish: string | undefined;
    const usage = { input_tokens: 0, output_tokens: 0 };
    const partial = new Map<number, { id: string; name: string; args: string }>();
    try {
      const stream = await this.client.chat.completions.create(params, { signal: opts.signal });
      for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
        if (chunk.usage) {
          usage.input_tokens = chunk.usage.prompt_tokens ?? 0;
          usage.output_tokens = chunk.usage.completion_tokens ?? 0;
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta ?? {};
        if (typeof delta.content === 'string' && delta.content !== '') {
          text += delta.content;
          opts.onText?.(delta.content);
        }
        for (const tc of delta.tool_calls ?? []) {
          const slot = partial.get(tc.index) ?? { id: '', name: '', args: '' };
          if (tc.id) slot.id = tc.id;
          if (tc.function?.name) slot.name += tc.function.name;
          if (tc.function?.arguments) slot.args += tc.function.arguments;
          partial.set(tc.index, slot);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    } catch (err) {
      if (opts.signal.aborted) throw abortError(opts.signal);
      throw providerError(err, what, opts.signal, secrets);
    }
    if (opts.signal.aborted) throw abortError(opts.signal);
    if (finish === undefined) throw cutStream(what);

    const toolCalls: ToolCall[] = [];
    for (const [index, slot] of [...partial.entries()].sort((a, b) => a[0] - b[0])) {
      let args: unknown;
      try {
        args = slot.args.trim() === '' ? {} : JSON.parse(slot.args);
      } catch {
        throw new NikaError('NIKA-INFER-003', `${what}: tool call ${slot.name || index} has arguments that are not JSON: ${slot.args.slice(0, 200)}`);
      }
      if (!args || typeof args !== 'object' || Array.isArray(args)) {
        throw new NikaError('NIKA-INFER-003', `${what}: tool call ${slot.name} arguments are not an object`);
      }
      toolCalls.push({ id: slot.id || `call_${index}`, name: slot.name, args: args as Record<string, unknown> });
    }
    const result: ChatResult = { text, toolCalls, usage, stopReason: STOP[finish] ?? finish };
    if (req.schema && toolCalls.length === 0) result.json = parseJsonText(text);
    return result;
  }
}
