// The provider-neutral chat shape both SDK adapters and the mock translate from/to. The agent
// loop and infer only ever see these types, so a provider can be swapped without touching them.
import type { Usage } from '../contracts.js';

export type { Usage };

export interface ToolCall {
  /** Provider-assigned id, echoed back with the result. */
  id: string;
  /** The name the model saw (sanitized, e.g. `mcp__everything__echo`). */
  name: string;
  args: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; callId: string; name: string; text: string; isError: boolean };

/** A tool as offered to a model: `name` already matches `^[a-zA-Z0-9_-]{1,64}$`. */
export interface ChatTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  /** The model name after the provider prefix (`claude-sonnet-4-5`, `qwen3.5:4b`, `echo`). */
  model: string;
  system?: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  temperature?: number;
  maxTokens?: number;
  /** JSON Schema of the expected answer (structured output). */
  schema?: Record<string, unknown>;
}

/** Normalized across providers: `end_turn`, `tool_use`, `max_tokens`, or the provider's own word. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | string;

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  stopReason: StopReason;
  /** Set when the provider produced a structured value itself (forced tool, mock schema defaults, mock-json). */
  json?: unknown;
}

export interface ChatOptions {
  signal: AbortSignal;
  onText?(delta: string): void;
}

export interface ChatProvider {
  /** Catalog id: `mock`, `anthropic`, `openai`, `ollama`, … */
  readonly id: string;
  chat(req: ChatRequest, opts: ChatOptions): Promise<ChatResult>;
}

export type Env = Record<string, string | undefined>;
