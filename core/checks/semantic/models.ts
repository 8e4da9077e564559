// Static model ids (reference §7): `<provider>/<name>` with the provider one of the 17. The spec
// allocates only the NIKA-PROVIDER namespace, no number; NIKA-PROVIDER-001 is the number this
// project uses for both shapes of mistake. `${{ }}` models are resolved at run time and skipped.
import { isMap, isScalar } from 'yaml';
import type { Scalar } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode } from '../../document.js';
import { PROVIDERS, PROVIDER_BY_ID, parseModel, resolveLegacyProvider, LEGACY_PROVIDER_NAMES } from '../../catalog/providers.js';
import { semanticModel } from './model.js';
import { closest, didYouMean, replaceFix } from './suggest.js';
import { valueSpan } from './tools.js';

export const PROVIDER_CODE = 'NIKA-PROVIDER-001';
const IDS = PROVIDERS.map((p) => p.id);

/** A provider for a bare model name, from the catalog's example models and well-known prefixes. */
function guessProvider(name: string): string | undefined {
  for (const p of PROVIDERS) if (p.id !== 'mock' && p.exampleModels.includes(name)) return p.id;
  if (/^claude/.test(name)) return 'anthropic';
  if (/^(gpt-|o\d)/.test(name)) return 'openai';
  if (/^gemini/.test(name)) return 'gemini';
  if (/^grok/.test(name)) return 'xai';
  if (/^(mistral|codestral)/.test(name)) return 'mistral';
  if (/^deepseek/.test(name)) return 'deepseek';
  if (name === 'echo') return 'mock';
  return undefined;
}

function checkModel(ctx: CheckContext, s: Scalar): NikaDiagnostic[] {
  if (typeof s.value !== 'string' || s.value.includes('${{')) return [];
  const value = s.value;
  const span = valueSpan(ctx.doc, s);
  const m = parseModel(value);
  if (!m) {
    const g = value.includes('/') ? undefined : guessProvider(value);
    return [diag(PROVIDER_CODE, `model '${value}' must be written <provider>/<name> (e.g. anthropic/claude-sonnet-4-5, ollama/llama3.2, mock/echo).${g ? ` Did you mean '${g}/${value}'?` : ''}`, span, 'error',
      g ? replaceFix(`Change to ${g}/${value}`, span, `${g}/${value}`) : undefined)];
  }
  if (PROVIDER_BY_ID.has(m.provider)) return [];
  const providerSpan = { start: span.start, end: span.start + m.provider.length };
  const s2 = LEGACY_PROVIDER_NAMES.get(m.provider) ?? closest(m.provider, IDS);
  return [diag(PROVIDER_CODE, `unknown model provider '${m.provider}' (providers: ${IDS.join(', ')}).${didYouMean(s2)}`, providerSpan, 'error',
    s2 ? replaceFix(`Change to ${s2}`, providerSpan, s2) : undefined)];
}

/** Era A: `provider:` (claude, openai, mock, or a current prefix) next to a bare `model:`. */
function checkLegacyPair(ctx: CheckContext, owner: unknown): NikaDiagnostic[] {
  const provider = getNode(owner, 'provider');
  const model = getNode(owner, 'model');
  if (isScalar(provider) && typeof provider.value === 'string' && !provider.value.includes('${{')) {
    if (resolveLegacyProvider(provider.value)) return [];
    const span = valueSpan(ctx.doc, provider);
    const s = closest(provider.value, [...LEGACY_PROVIDER_NAMES.keys(), ...IDS]);
    return [diag(PROVIDER_CODE, `unknown provider '${provider.value}'.${didYouMean(s)}`, span, 'error', s ? replaceFix(`Change to ${s}`, span, s) : undefined)];
  }
  // Without provider:, a bare model name meant the default provider; only a prefixed one is checkable.
  if (isScalar(model) && typeof model.value === 'string' && model.value.includes('/')) return checkModel(ctx, model);
  return [];
}

export function checkModels(ctx: CheckContext): NikaDiagnostic[] {
  const root = ctx.doc.root;
  if (!root) return [];
  const legacy = ctx.dialect.dialect !== 'v1';
  const out: NikaDiagnostic[] = [];
  const check = (owner: unknown) => {
    if (!isMap(owner)) return;
    if (legacy && (getNode(owner, 'provider') !== undefined || ctx.dialect.dialect === 'legacy')) { out.push(...checkLegacyPair(ctx, owner)); return; }
    const model = getNode(owner, 'model');
    if (isScalar(model)) out.push(...checkModel(ctx, model));
  };
  check(root);
  for (const task of ctx.workflow.tasks) {
    const node = semanticModel(ctx).taskNode(task);
    check(getNode(node, 'infer'));
    check(getNode(node, 'agent'));
  }
  return out;
}
