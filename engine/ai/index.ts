// Public surface of the AI half of the engine (the scheduler and CLI import from here).
export { runInfer } from './infer.js';
export { runAgent } from './agent.js';
export { getProvider, MockProvider, AnthropicProvider, OpenAIProvider } from './providers/index.js';
export { parseModel, resolveEndpoint, providerInfo } from './catalog.js';
export { ToolNameMap, DONE_TOOL_ID, DONE_TOOL_NAME } from './tool-names.js';
export type { ChatProvider, ChatRequest, ChatResult, ChatOptions, ChatMessage, ChatTool, ToolCall, Env } from './types.js';
