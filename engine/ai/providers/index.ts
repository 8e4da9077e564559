// `<provider>/<name>` → a ChatProvider. Keys and base URLs come from `env` (never the workflow).
import { NikaError } from '../../contracts.js';
import { PROVIDERS, parseModel, providerInfo, resolveEndpoint } from '../catalog.js';
import type { ChatProvider, Env } from '../types.js';
import { AnthropicProvider } from './anthropic.js';
import { MockProvider } from './mock.js';
import { OpenAIProvider } from './openai.js';

export { MockProvider } from './mock.js';
export { AnthropicProvider } from './anthropic.js';
export { OpenAIProvider } from './openai.js';

const mock = new MockProvider();

/** Resolves the provider part of `model`; the caller passes the name part as `ChatRequest.model`. */
export function getProvider(model: string, env: Env): ChatProvider {
  const { provider } = parseModel(model);
  const info = providerInfo(provider);
  if (!info) {
    throw new NikaError('NIKA-INFER-001', `unknown provider "${provider}" in model "${model}" (known: ${PROVIDERS.map((x) => x.id).join(', ')})`);
  }
  if (info.protocol === 'mock') return mock;
  const endpoint = resolveEndpoint(info, env);
  return info.protocol === 'anthropic' ? new AnthropicProvider(info, endpoint) : new OpenAIProvider(info, endpoint);
}
