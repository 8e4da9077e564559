// The engine's view of the provider table (core/catalog/providers.ts, reference §7): a parseModel
// that throws a run-time error, and where a provider's base URL and key come from.
import { NikaError } from '../contracts.js';
import { PROVIDERS, parseModel as parseModelSpec, providerSpec, type ProviderSpec } from '../../core/catalog/providers.js';
import type { Env } from './types.js';

export type ProviderInfo = ProviderSpec;
export { PROVIDERS };

export function providerInfo(id: string): ProviderInfo | undefined {
  return providerSpec(id);
}

/** `<provider>/<name>`: the provider is everything before the first `/`; the name keeps further `/` and `:`. */
export function parseModel(model: string): { provider: string; name: string } {
  const parsed = parseModelSpec(model);
  if (!parsed) {
    throw new NikaError('NIKA-INFER-001', `model "${model}" is not of the form <provider>/<name> (e.g. openai/gpt-4o-mini, mock/echo)`);
  }
  return parsed;
}

export interface Endpoint { baseUrl: string; apiKey?: string; keyVar?: string }

/**
 * Base URL: `NIKA_<ID>_BASE_URL`, then `<ID>_BASE_URL`, then the catalog default.
 * Key: `NIKA_<ID>_API_KEY`, then the conventional variable. A cloud provider without a key is an
 * error naming both variables (never their values); local servers get a placeholder key because
 * the SDKs refuse to run without one.
 */
export function resolveEndpoint(info: ProviderInfo, env: Env): Endpoint {
  const nonEmpty = (k?: string) => (k && env[k] && env[k]!.trim() !== '' ? env[k]!.trim() : undefined);
  const baseUrl = nonEmpty(info.nikaBaseUrlEnv) ?? nonEmpty(info.baseUrlEnv) ?? info.baseUrl;
  const apiKey = nonEmpty(info.nikaKeyEnv) ?? nonEmpty(info.keyEnv);
  if (apiKey) return { baseUrl, apiKey, keyVar: nonEmpty(info.nikaKeyEnv) ? info.nikaKeyEnv : info.keyEnv };
  if (info.kind === 'local' || !info.keyEnv) return { baseUrl, apiKey: 'not-needed' };
  throw new NikaError(
    'NIKA-INFER-001',
    `no API key for provider "${info.id}": set ${info.keyEnv} (or ${info.nikaKeyEnv}) in the environment`,
    { details: { provider: info.id, env_vars: [info.keyEnv, info.nikaKeyEnv] } },
  );
}
