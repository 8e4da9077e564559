// The 17 model providers of reference §7. Every non-Anthropic, non-mock provider speaks the OpenAI
// chat API, so an endpoint is just a base URL and a key variable. Endpoints and keys never live in
// a workflow; these are the defaults the engine falls back to.

export type ProviderKind = 'local' | 'cloud' | 'test';
export type ProviderProtocol = 'anthropic' | 'openai' | 'mock';

export interface ProviderSpec {
  id: string;
  kind: ProviderKind;
  protocol: ProviderProtocol;
  /** Default API base URL ('' for mock, which never talks to a network). */
  baseUrl: string;
  /** Conventional API-key variable; absent when no key is needed (local servers, mock). */
  keyEnv?: string;
  /** Conventional base-URL override variable. */
  baseUrlEnv?: string;
  /** Nika's own spellings, accepted too and checked first: NIKA_<ID>_API_KEY / NIKA_<ID>_BASE_URL. */
  nikaKeyEnv: string;
  nikaBaseUrlEnv: string;
  /** A few well-known model names, for completion. */
  exampleModels: readonly string[];
}

export const MOCK_MODELS: readonly string[] = ['echo', 'mock-deterministic', 'mock-error', 'mock-streaming', 'mock-json'];

type Def = Omit<ProviderSpec, 'nikaKeyEnv' | 'nikaBaseUrlEnv' | 'baseUrlEnv'> & { baseUrlEnv?: string };

const local = (id: string, baseUrl: string, exampleModels: string[]): Def => ({ id, kind: 'local', protocol: 'openai', baseUrl, exampleModels });
const cloud = (id: string, baseUrl: string, keyEnv: string, exampleModels: string[]): Def => ({ id, kind: 'cloud', protocol: 'openai', baseUrl, keyEnv, exampleModels });

const DEFS: Def[] = [
  local('ollama', 'http://localhost:11434/v1', ['llama3.2', 'qwen3:8b', 'gemma3:4b', 'mistral']),
  local('lmstudio', 'http://localhost:1234/v1', ['llama-3.2-3b-instruct', 'qwen2.5-7b-instruct']),
  local('llamacpp', 'http://localhost:8080/v1', ['default']),
  local('localai', 'http://localhost:8080/v1', ['llama-3.2-1b-instruct', 'phi-2']),
  local('vllm', 'http://localhost:8000/v1', ['meta-llama/Llama-3.1-8B-Instruct', 'Qwen/Qwen2.5-7B-Instruct']),
  cloud('mistral', 'https://api.mistral.ai/v1', 'MISTRAL_API_KEY', ['mistral-large-latest', 'mistral-small-latest', 'codestral-latest']),
  {
    id: 'anthropic', kind: 'cloud', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com', keyEnv: 'ANTHROPIC_API_KEY',
    exampleModels: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5', 'claude-3-5-haiku-latest'],
  },
  cloud('openai', 'https://api.openai.com/v1', 'OPENAI_API_KEY', ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o4-mini']),
  cloud('gemini', 'https://generativelanguage.googleapis.com/v1beta/openai/', 'GEMINI_API_KEY', ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash']),
  cloud('deepseek', 'https://api.deepseek.com/v1', 'DEEPSEEK_API_KEY', ['deepseek-chat', 'deepseek-reasoner']),
  cloud('xai', 'https://api.x.ai/v1', 'XAI_API_KEY', ['grok-4', 'grok-3', 'grok-3-mini']),
  cloud('groq', 'https://api.groq.com/openai/v1', 'GROQ_API_KEY', ['llama-3.3-70b-versatile', 'llama-3.1-8b-instant']),
  cloud('openrouter', 'https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY', ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4.5', 'meta-llama/llama-3.3-70b-instruct']),
  // HF_TOKEN is what the Hugging Face tooling itself reads.
  cloud('huggingface', 'https://router.huggingface.co/v1', 'HF_TOKEN', ['meta-llama/Llama-3.1-8B-Instruct', 'Qwen/Qwen2.5-72B-Instruct']),
  cloud('nvidia', 'https://integrate.api.nvidia.com/v1', 'NVIDIA_API_KEY', ['meta/llama-3.1-70b-instruct', 'nvidia/llama-3.1-nemotron-70b-instruct']),
  cloud('moonshot', 'https://api.moonshot.ai/v1', 'MOONSHOT_API_KEY', ['kimi-k2-0711-preview', 'moonshot-v1-8k']),
  { id: 'mock', kind: 'test', protocol: 'mock', baseUrl: '', exampleModels: MOCK_MODELS },
];

export const PROVIDERS: readonly ProviderSpec[] = DEFS.map((d) => {
  const ID = d.id.toUpperCase();
  return {
    ...d,
    baseUrlEnv: d.protocol === 'mock' ? undefined : `${ID}_BASE_URL`,
    nikaKeyEnv: `NIKA_${ID}_API_KEY`,
    nikaBaseUrlEnv: `NIKA_${ID}_BASE_URL`,
  };
});

export const PROVIDER_BY_ID: ReadonlyMap<string, ProviderSpec> = new Map(PROVIDERS.map((p) => [p.id, p]));

export function providerSpec(id: string): ProviderSpec | undefined {
  return PROVIDER_BY_ID.get(id);
}

/**
 * `<provider>/<name>`: the provider is everything before the first `/`, the name keeps any further
 * `/` and `:` (`openrouter/anthropic/claude-sonnet-4.5`, `ollama/qwen3:8b`). Undefined when either
 * side is empty. Whether the provider is one of the 17 is left to the caller.
 */
export function parseModel(s: string): { provider: string; name: string } | undefined {
  const slash = s.indexOf('/');
  if (slash <= 0 || slash === s.length - 1) return undefined;
  return { provider: s.slice(0, slash), name: s.slice(slash + 1) };
}

/** Legacy `provider:` values (era A: `provider: claude` + `model: …`) → current prefix. */
export const LEGACY_PROVIDER_NAMES: ReadonlyMap<string, string> = new Map([
  ['claude', 'anthropic'],
  ['openai', 'openai'],
  ['mock', 'mock'],
]);

/** A legacy `provider:` value mapped to a current prefix (known legacy name, or already current). */
export function resolveLegacyProvider(name: string): string | undefined {
  return LEGACY_PROVIDER_NAMES.get(name) ?? (PROVIDER_BY_ID.has(name) ? name : undefined);
}
