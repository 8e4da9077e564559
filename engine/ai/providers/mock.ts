// The offline provider (reference, first section and §7). Everything it does is a pure function
// of the request, so tests and `--model mock/echo` rehearsals are reproducible.
//
// Models:
//   mock/echo               text `mock(echo) · <prompt>`, streamed as one chunk. <prompt> is the
//                           text of the last user message (in an agent: the agent's prompt).
//   mock/mock-streaming     the same text, streamed word by word (several onText chunks).
//   mock/mock-json          the JSON object {"model":"mock-json","prompt":<prompt>} (also as `json`).
//   mock/mock-deterministic `mock(deterministic) · <16 hex of sha256(system \n prompt)>`.
//   mock/mock-error         always fails: NIKA-INFER-001, not transient.
// With `schema:` every model but mock-error answers with the schema's zero value (object → each
//   property's zero, string "", number 0, boolean false, array [], enum → first, const → itself).
//
// With tools offered (the agent loop), on each turn:
//   1. no tool result yet in the conversation:
//        - call the first offered tool other than `nika__done` (offered order), with arguments
//          built from its inputSchema's *required* properties: `default` if given, else the first
//          enum value, else string → the prompt, number/integer → 0, boolean → false, array → [],
//          object → the same rule applied to its own required properties;
//        - if `nika__done` is the only tool, call it with {result: <echo text>}.
//   2. after a tool result (error or not):
//        - if `nika__done` is offered, call it with {result: <last tool result, JSON-parsed when it parses>};
//        - otherwise answer with the plain text (or schema zero value), which ends the loop.
//   The assistant text on tool-calling turns is the echo text, so it is the partial output of an
//   exhausted loop. Call ids are `mock_call_<n>` (n = assistant turn number).
// Hence offline: `max_turns: 1` with any tool exhausts (NIKA-AGENT-001); a tool error is fed back
// and visible in agent_tool_result before the loop ends on turn 2.
// Usage is ceil(chars/4) of everything sent (input) and of the answer (output), at least 1 each,
// so a small `max_tokens_total` exhausts deterministically.
import { createHash } from 'node:crypto';
import { MOCK_MODELS } from '../../../core/catalog/providers.js';
import { NikaError } from '../../contracts.js';
import { abortError } from '../errors.js';
import { zeroValue } from '../structured.js';
import { DONE_TOOL_NAME } from '../tool-names.js';
import type { ChatOptions, ChatProvider, ChatRequest, ChatResult, ChatTool, ToolCall } from '../types.js';


export const echoText = (prompt: string) => `mock(echo) · ${prompt}`;

function lastUserText(req: ChatRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]!;
    if (m.role === 'user') return m.text;
  }
  return '';
}

function argsFor(schema: unknown, prompt: string, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!schema || typeof schema !== 'object' || depth > 8) return out;
  const s = schema as { properties?: Record<string, Record<string, unknown>>; required?: unknown };
  const required = Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : [];
  for (const key of required) {
    const prop = s.properties?.[key] ?? {};
    out[key] = argValue(prop, prompt, depth);
  }
  return out;
}

function argValue(prop: Record<string, unknown>, prompt: string, depth: number): unknown {
  if ('default' in prop) return prop.default;
  if (Array.isArray(prop.enum) && prop.enum.length > 0) return prop.enum[0];
  const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
  if (type === 'string') return prompt;
  if (type === 'object') return argsFor(prop, prompt, depth + 1);
  return zeroValue(prop);
}

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function inputChars(req: ChatRequest): number {
  let n = (req.system ?? '').length;
  for (const m of req.messages) {
    n += m.text.length;
    if (m.role === 'assistant' && m.toolCalls) n += JSON.stringify(m.toolCalls).length;
  }
  for (const t of req.tools ?? []) n += t.name.length + t.description.length;
  return n;
}

function maybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toolTurn(req: ChatRequest, tools: ChatTool[], prompt: string, echo: string): ToolCall | undefined {
  const done = tools.find((t) => t.name === DONE_TOOL_NAME);
  const regular = tools.filter((t) => t.name !== DONE_TOOL_NAME);
  const results = req.messages.filter((m) => m.role === 'tool');
  const n = req.messages.filter((m) => m.role === 'assistant').length + 1;
  const id = `mock_call_${n}`;
  if (results.length === 0) {
    if (regular.length > 0) return { id, name: regular[0]!.name, args: argsFor(regular[0]!.inputSchema, prompt) };
    if (done) return { id, name: done.name, args: { result: echo } };
    return undefined;
  }
  if (done) return { id, name: done.name, args: { result: maybeJson(results[results.length - 1]!.text) } };
  return undefined;
}

async function stream(text: string, chunked: boolean, opts: ChatOptions): Promise<void> {
  if (!opts.onText || text === '') return;
  if (!chunked) return opts.onText(text);
  for (const piece of text.match(/\S+\s*/g) ?? [text]) {
    await new Promise((r) => setImmediate(r));
    if (opts.signal.aborted) throw abortError(opts.signal);
    opts.onText(piece);
  }
}

export class MockProvider implements ChatProvider {
  readonly id = 'mock';

  async chat(req: ChatRequest, opts: ChatOptions): Promise<ChatResult> {
    if (opts.signal.aborted) throw abortError(opts.signal);
    const model = req.model;
    if (!MOCK_MODELS.includes(model)) {
      throw new NikaError('NIKA-INFER-001', `unknown mock model "mock/${model}" (known: ${MOCK_MODELS.map((m) => 'mock/' + m).join(', ')})`);
    }
    if (model === 'mock-error') {
      throw new NikaError('NIKA-INFER-001', 'mock/mock-error: simulated provider failure');
    }
    const prompt = lastUserText(req);
    const echo = echoText(prompt);
    let text: string;
    let json: unknown;
    if (model === 'mock-deterministic') {
      text = `mock(deterministic) · ${createHash('sha256').update(`${req.system ?? ''}\n${prompt}`).digest('hex').slice(0, 16)}`;
    } else if (model === 'mock-json') {
      json = { model: 'mock-json', prompt };
      text = JSON.stringify(json);
    } else {
      text = echo;
    }

    const call = req.tools && req.tools.length > 0 ? toolTurn(req, req.tools, prompt, echo) : undefined;
    if (!call && req.schema) {
      json = zeroValue(req.schema);
      text = JSON.stringify(json);
    }
    if (call) text = echo;
    await stream(text, model === 'mock-streaming', opts);
    const toolCalls = call ? [call] : [];
    return {
      text,
      toolCalls,
      json: call ? undefined : json,
      stopReason: call ? 'tool_use' : 'end_turn',
      usage: { input_tokens: tokens(inputChars(req)), output_tokens: tokens(text.length + (call ? JSON.stringify(call).length : 0)) },
    };
  }
}
