// Local copy of the provider table (reference §7) with the fields core/catalog/providers.ts is
// meant to export ({id, kind, protocol, baseUrl, keyEnv, baseUrlEnv}). It exists because that
// module was not there yet when the engine needed it; once it lands, this file should re-export it
// and keep only `resolveEndpoint`.
import { NikaError } from '../contracts.js';
import type { Env } from './types.js';

export interface ProviderInfo {
  id: string;
  kind: 'local' | 'cloud' | 'test';
  protocol: 'anthropic' | 'openai' | 'mock';
  baseUrl: string;
  /** Conventional key variable; `NIKA_<ID>_API_KEY` is always accepted too. Absent ⇒ no key needed. */
  keyEnv?: string;
  /** Conventional base-URL variable; `NIKA_<ID>_BASE_URL` is always accepted too. */
  baseUrlEnv?: string;
}

const p = (id: string, kind: ProviderInfo['kind'], protocol: ProviderInfo['protocol'], baseUrl: string, keyEnv?: string): ProviderInfo =>
  ({ id, kind, protocol, baseUrl, keyEnv, baseUrlEnv: protocol === 'mock' ? undefined : `${id.toUpperCase()}_BASE_URL` });

export const PROVIDERS: readonly ProviderInfo[] = [
  p('ollama', 'local', 'openai', 'http://localhost:11434/v1'),
  p('lmstudio', 'local', 'openai', 'http://localhost:1234/v1'),
  p('llamacpp', 'local', 'openai', 'http://localhost:8080/v1'),
  p('localai', 'local', 'openai', 'http://localhost:8080/v1'),
  p('vllm', 'local', 'openai', 'http://localhost:8000/v1'),
  p('mistral', 'cloud', 'openai', 'https://api.mistral.ai/v1', 'MISTRAL_API_KEY'),
  p('anthropic', 'cloud', 'anthropic', 'https://api.anthropic.com', 'ANTHROPIC_API_KEY'),
  p('openai', 'cloud', 'openai', 'https://api.openai.com/v1', 'OPENAI_API_KEY'),
  p('gemini', 'cloud', 'openai', 'https://generativelanguage.googleapis.com/v1beta/openai/', 'GEMINI_API_KEY'),
  p('deepseek', 'cloud', 'openai', 'https://api.deepseek.com/v1', 'DEEPSEEK_API_KEY'),
  p('xai', 'cloud', 'openai', 'https://api.x.ai/v1', 'XAI_API_KEY'),
  p('groq', 'cloud', 'openai', 'https://api.groq.com/openai/v1', 'GROQ_API_KEY'),
  p('openrouter', 'cloud', 'openai', 'https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY'),
  p('huggingface', 'cloud', 'openai', 'https://router.huggingface.co/v1', 'HF_TOKEN'),
  p('nvidia', 'cloud', 'openai', 'https://integrate.api.nvidia.com/v1', 'NVIDIA_API_KEY'),
  p('moonshot', 'cloud', 'openai', 'https://api.moonshot.ai/v1', 'MOONSHOT_API_KEY'),
  p('mock', 'test', 'mock', ''),
];

const byId = new Map(PROVIDERS.map((x) => [x.id, x]));

export function providerInfo(id: string): ProviderInfo | undefined {
  return byId.get(id);
}

/** `<provider>/<name>`: the provider is everything before the first `/`; the name keeps further `/` and `:`. */
export function parseModel(model: string): { provider: string; name: string } {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw new NikaError('NIKA-INFER-001', `model "${model}" is not of the form <provider>/<name> (e.g. openai/gpt-4o-mini, mock/echo)`);
  }
  return { provider: model.slice(0, slash), name: model.slice(slash + 1) };
}

export interface Endpoint { baseUrl: string; apiKey?: string; keyVar?: string }

/**
 * Base URL: `NIKA_<ID>_BASE_URL`, then `<ID>_BASE_URL`, then the catalog default.
 * Key: `NIKA_<ID>_API_KEY`, then the conventional variable. A cloud provider without a key is an
 * error naming both variables (never their values); local servers get a placeholder key because
 * the SDKs refuse to run without one.
 */
export function resolveEndpoint(info: ProviderInfo, env: Env): Endpoint {
  const ID = info.id.toUpperCase();
  const nonEmpty = (k?: string) => (k && env[k] && env[k]!.trim() !== '' ? env[k]!.trim() : undefined);
  const baseUrl = nonEmpty(`NIKA_${ID}_BASE_URL`) ?? nonEmpty(info.baseUrlEnv) ?? info.baseUrl;
  const nikaKey = `NIKA_${ID}_API_KEY`;
  const apiKey = nonEmpty(nikaKey) ?? nonEmpty(info.keyEnv);
  if (apiKey) return { baseUrl, apiKey, keyVar: nonEmpty(nikaKey) ? nikaKey : info.keyEnv };
  if (info.kind === 'local' || !info.keyEnv) return { baseUrl, apiKey: 'not-needed' };
  throw new NikaError(
    'NIKA-INFER-001',
    `no API key for provider "${info.id}": set ${info.keyEnv} (or ${nikaKey}) in the environment`,
    { details: { provider: info.id, env_vars: [info.keyEnv, nikaKey] } },
  );
}
