// How editor-held secrets and settings reach the engine: as environment variables of the run
// (RunOptions.env), under both spellings the engine reads (NIKA_<ID>_API_KEY first, then the
// provider's conventional name). Nothing here is ever written to settings or logs.
import { PROVIDERS, providerSpec } from '../../core/catalog/providers.js';

/** Providers a key can be set for, in the catalog's order (mock needs none). */
export function keyedProviders(): Array<{ id: string; kind: string; keyEnv: string }> {
  return PROVIDERS.filter((p) => p.protocol !== 'mock').map((p) => ({ id: p.id, kind: p.kind, keyEnv: p.keyEnv ?? p.nikaKeyEnv }));
}

export function engineEnv(keys: Record<string, string>, baseUrls: Record<string, unknown>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [id, key] of Object.entries(keys)) {
    const p = providerSpec(id);
    if (!p || !key) continue;
    env[p.nikaKeyEnv] = key;
    if (p.keyEnv) env[p.keyEnv] = key;
  }
  for (const [id, url] of Object.entries(baseUrls ?? {})) {
    const p = providerSpec(id);
    if (!p || typeof url !== 'string' || url.trim() === '') continue;
    env[p.nikaBaseUrlEnv] = url.trim();
    if (p.baseUrlEnv) env[p.baseUrlEnv] = url.trim();
  }
  return env;
}

/** Secret values replaced by `***` in any text that might reach a log or a document. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out;
}
