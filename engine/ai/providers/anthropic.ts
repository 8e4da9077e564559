// `anthropic/*` through the official SDK: streamed messages with native tool_use / tool_result
// blocks. Structured output uses a forced tool when no other tools are offered (the model must
// answer through it), and a JSON instruction otherwise (an agent still needs its real tools).
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageCreateParamsStreaming, MessageParam, RawMessageStreamEvent, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { NikaError } from '../../contracts.js';
import type { Endpoint, ProviderInfo } from '../catalog.js';
import { abortError, cutStream, providerError } from '../errors.js';
import { parseJsonText } from '../structured.js';
import type { ChatMessage, ChatOptions, ChatProvider, ChatRequest, ChatResult, ToolCall } from '../types.js';

const OUTPUT_TOOL = 'structured_output';
const DEFAULT_MAX_TOKENS = 4096;

function toWire(messages: ChatMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  let results: ToolResultBlockParam[] | undefined;
  for (const m of messages) {
    if (m.role === 'tool') {
      // Every result of one assistant turn goes back in a single user message.
      if (!results) {
        results = [];
        out.push({ role: 'user', content: results });
      }
      results.push({ type: 'tool_result', tool_use_id: m.callId, content: m.text, ...(m.isError ? { is_error: true } : {}) });
      continue;
    }
    results = undefined;
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else {
      const blocks: ContentBlockParam[] = [];
      if (m.text !== '') blocks.push({ type: 'text', text: m.text });
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
      out.push({ role: 'assistant', content: blocks.length > 0 ? blocks : '' });
    }
  }
  return out;
}

/** input_schema must be an object schema; other shapes are wrapped in {value: …} and unwrapped after. */
function outputTool(schema: Record<string, unknown>): { tool: Tool; wrapped: boolean } {
  const wrapped = schema.type !== 'object';
  const input_schema = (wrapped ? { type: 'object', properties: { value: schema }, required: ['value'] } : schema) as Tool['input_schema'];
  return { tool: { name: OUTPUT_TOOL, description: 'Give the final answer as structured data matching the schema.', input_schema }, wrapped };
}

const STOP: Record<string, string> = { end_turn: 'end_turn', tool_use: 'tool_use', max_tokens: 'max_tokens', stop_sequence: 'end_turn' };

export class AnthropicProvider implements ChatProvider {
  readonly id = 'anthropic';
  private readonly client: Anthropic;

  constructor(readonly info: ProviderInfo, private readonly endpoint: Endpoint) {
    this.client = new Anthropic({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseUrl,
      maxRetries: 0,
      logLevel: 'off',
      timeout: 120_000,
    });
  }

  async chat(req: ChatRequest, opts: ChatOptions): Promise<ChatResult> {
    const what = `anthropic/${req.model}`;
    const secrets = [this.endpoint.apiKey];
    const tools: Tool[] = (req.tools ?? []).map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Tool['input_schema'] }));
    let system = req.system;
    let forced: { wrapped: boolean } | undefined;
    const params: MessageCreateParamsStreaming = {
      model: req.model,
      max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS,
      messages: toWire(req.messages),
      stream: true,
    };
    if (req.schema && tools.length === 0) {
      const o = outputTool(req.schema);
      tools.push(o.tool);
      forced = { wrapped: o.wrapped };
      params.tool_choice = { type: 'tool', name: OUTPUT_TOOL };
    } else if (req.schema) {
      const rule = `When you give your final answer (without calling a tool), reply with only a JSON value matching this JSON Schema, no prose:\n${JSON.stringify(req.schema)}`;
      system = system ? `${system}\n\n${rule}` : rule;
    }
    if (system) params.system = system;
    if (tools.length > 0) params.tools = tools;
    // This API version has no sampling temperature (it is not in MessageCreateParams); `temperature:` is ignored.

    let text = '';
    let stop: string | undefined;
    let stopped = false;
    const usage = { input_tokens: 0, output_tokens: 0 };
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    try {
      const stream = await this.client.messages.create(params, { signal: opts.signal });
      for await (const ev of stream as AsyncIterable<RawMessageStreamEvent>) {
        switch (ev.type) {
          case 'message_start':
            usage.input_tokens = ev.message.usage?.input_tokens ?? 0;
            usage.output_tokens = ev.message.usage?.output_tokens ?? 0;
            break;
          case 'content_block_start':
            if (ev.content_block.type === 'tool_use') {
              blocks.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' });
            } else if (ev.content_block.type === 'text' && ev.content_block.text) {
              text += ev.content_block.text;
              opts.onText?.(ev.content_block.text);
            }
            break;
          case 'content_block_delta':
            if (ev.delta.type === 'text_delta') {
              text += ev.delta.text;
              opts.onText?.(ev.delta.text);
            } else if (ev.delta.type === 'input_json_delta') {
              const b = blocks.get(ev.index);
              if (b) b.json += ev.delta.partial_json;
            }
            break;
          case 'message_delta':
            if (ev.delta.stop_reason) stop = ev.delta.stop_reason;
            if (ev.usage?.output_tokens != null) usage.output_tokens = ev.usage.output_tokens;
            if (ev.usage?.input_tokens != null) usage.input_tokens = ev.usage.input_tokens;
            break;
          case 'message_stop':
            stopped = true;
            break;
        }
      }
    } catch (err) {
      if (opts.signal.aborted) throw abortError(opts.signal);
      throw providerError(err, what, opts.signal, secrets);
    }
    if (opts.signal.aborted) throw abortError(opts.signal);
    if (!stopped) throw cutStream(what);

    const toolCalls: ToolCall[] = [];
    for (const [, b] of [...blocks.entries()].sort((a, c) => a[0] - c[0])) {
      let args: unknown;
      try {
        args = b.json.trim() === '' ? {} : JSON.parse(b.json);
      } catch {
        throw new NikaError('NIKA-INFER-003', `${what}: tool_use ${b.name} input is not JSON: ${b.json.slice(0, 200)}`);
      }
      toolCalls.push({ id: b.id, name: b.name, args: (args ?? {}) as Record<string, unknown> });
    }
    const result: ChatResult = { text, toolCalls, usage, stopReason: STOP[stop ?? ''] ?? stop ?? 'end_turn' };
    if (forced) {
      const call = toolCalls.find((c) => c.name === OUTPUT_TOOL);
      if (call) result.json = forced.wrapped ? call.args.value : call.args;
      else result.json = parseJsonText(text);
      result.toolCalls = toolCalls.filter((c) => c.name !== OUTPUT_TOOL);
      result.text = text !== '' ? text : JSON.stringify(result.json);
      result.stopReason = 'end_turn';
    } else if (req.schema && toolCalls.length === 0) {
      result.json = parseJsonText(text);
    }
    return result;
  }
}
