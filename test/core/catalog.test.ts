import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUILTINS, builtinInputSchema, builtinSpec, CEL_CALLABLES, CEL_FUNCTIONS, CEL_METHODS, EXPRESSION_ROOTS,
  FETCH_EXTRACT_MODES, LEGACY_PROVIDER_NAMES, MOCK_MODELS, parseModel, PROVIDER_BY_ID, PROVIDERS,
  RENAMED_BUILTINS, RESERVED_BINDING_NAMES, resolveLegacyProvider, TASK_PROJECTIONS,
} from '../../core/catalog/index.js';

describe('builtins', () => {
  it('is the closed set of 28', () => {
    assert.equal(BUILTINS.size, 28);
    for (const n of ['assert', 'chart', 'compose', 'convert', 'date', 'decide', 'done', 'edit', 'emit', 'fetch', 'glob', 'grep', 'hash',
      'image_fx', 'image_generate', 'inspect', 'jq', 'json_diff', 'json_merge_patch', 'log', 'notify', 'prompt', 'read', 'tts_generate',
      'uuid', 'validate', 'wait', 'write']) {
      assert.ok(BUILTINS.has(n), n);
      assert.equal(BUILTINS.get(n)!.id, `nika:${n}`);
    }
  });

  it('marks agent-only builtins and effects', () => {
    assert.deepEqual([...BUILTINS.values()].filter((b) => b.agentOnly).map((b) => b.name).sort(), ['compose', 'done']);
    assert.equal(BUILTINS.get('jq')!.effect, 'pure');
    assert.deepEqual(BUILTINS.get('read')!.effects, ['fs.read']);
    assert.deepEqual(BUILTINS.get('write')!.effects, ['fs.write']);
    assert.deepEqual(BUILTINS.get('fetch')!.effects, ['net']);
  });

  it('describes required args and enums', () => {
    const jq = BUILTINS.get('jq')!;
    assert.equal(jq.args.expression.required, true);
    assert.equal(jq.args.query, undefined, 'the exact name is `expression`');
    assert.equal(BUILTINS.get('write')!.args.content.required, true);
    assert.deepEqual(BUILTINS.get('wait')!.oneOf, [['duration', 'until']]);
    assert.ok(BUILTINS.get('fetch')!.args.mode.enum!.includes('markdown'));
    for (const b of BUILTINS.values()) {
      assert.ok(b.description.length > 0 && !b.description.includes('\n'), b.name);
      for (const [n, a] of Object.entries(b.args)) assert.ok(a.description, `${b.name}.${n}`);
    }
  });

  it('derives JSON Schemas', () => {
    const s = builtinInputSchema('nika:fetch')! as { required: string[]; properties: Record<string, { enum?: string[]; default?: unknown }> ; additionalProperties: boolean };
    assert.deepEqual(s.required, ['url']);
    assert.equal(s.additionalProperties, false);
    assert.equal(s.properties.mode.default, 'markdown');
    const wait = builtinInputSchema('wait')!;
    assert.deepEqual(wait.oneOf, [{ required: ['duration'] }, { required: ['until'] }]);
    assert.equal(wait.required, undefined);
    const done = builtinInputSchema('done')! as { properties: { result: Record<string, unknown> } };
    assert.equal(done.properties.result.type, undefined, "'any' leaves the type open");
    assert.equal(builtinInputSchema('nope'), undefined);
    assert.equal(builtinSpec('nika:read')?.name, 'read');
  });

  it('lists the 9 fetch modes and the renamed builtins', () => {
    assert.equal(FETCH_EXTRACT_MODES.length, 9);
    assert.ok(!FETCH_EXTRACT_MODES.includes('jsonpath'));
    assert.equal(RENAMED_BUILTINS.get('nika:sleep')?.replacement, 'nika:wait');
    assert.equal(RENAMED_BUILTINS.get('nika:complete')?.replacement, 'nika:done');
    assert.deepEqual(RENAMED_BUILTINS.get('nika:cost')?.args, { view: 'cost' });
    for (const [old, r] of RENAMED_BUILTINS) {
      assert.ok(!BUILTINS.has(old.slice(5)), `${old} must not be a live builtin`);
      if (r.replacement) assert.ok(BUILTINS.has(r.replacement.slice(5)), `${old} → ${r.replacement}`);
    }
  });
});

describe('providers', () => {
  it('has the 17 canonical prefixes by kind', () => {
    assert.equal(PROVIDERS.length, 17);
    const ids = (k: string) => PROVIDERS.filter((p) => p.kind === k).map((p) => p.id);
    assert.deepEqual(ids('local'), ['ollama', 'lmstudio', 'llamacpp', 'localai', 'vllm']);
    assert.equal(ids('cloud').length, 11);
    assert.deepEqual(ids('test'), ['mock']);
  });

  it('knows protocols, endpoints and key variables', () => {
    assert.equal(PROVIDER_BY_ID.get('anthropic')!.protocol, 'anthropic');
    assert.equal(PROVIDER_BY_ID.get('mock')!.protocol, 'mock');
    assert.equal(PROVIDERS.filter((p) => p.protocol === 'openai').length, 15);
    assert.equal(PROVIDER_BY_ID.get('ollama')!.baseUrl, 'http://localhost:11434/v1');
    assert.equal(PROVIDER_BY_ID.get('groq')!.baseUrl, 'https://api.groq.com/openai/v1');
    assert.equal(PROVIDER_BY_ID.get('openai')!.keyEnv, 'OPENAI_API_KEY');
    assert.equal(PROVIDER_BY_ID.get('openai')!.baseUrlEnv, 'OPENAI_BASE_URL');
    assert.equal(PROVIDER_BY_ID.get('mistral')!.nikaKeyEnv, 'NIKA_MISTRAL_API_KEY');
    assert.equal(PROVIDER_BY_ID.get('ollama')!.keyEnv, undefined);
    assert.equal(PROVIDER_BY_ID.get('mock')!.keyEnv, undefined);
    for (const p of PROVIDERS) {
      assert.ok(p.exampleModels.length > 0, p.id);
      if (p.kind === 'cloud') assert.match(p.baseUrl, /^https:\/\//, p.id);
      if (p.kind === 'local') assert.match(p.baseUrl, /^http:\/\/localhost:\d+\/v1$/, p.id);
    }
    assert.deepEqual(MOCK_MODELS, ['echo', 'mock-deterministic', 'mock-error', 'mock-streaming', 'mock-json']);
  });

  it('parses models at the first slash', () => {
    assert.deepEqual(parseModel('openrouter/anthropic/claude-sonnet-4.5'), { provider: 'openrouter', name: 'anthropic/claude-sonnet-4.5' });
    assert.deepEqual(parseModel('ollama/qwen3.5:4b'), { provider: 'ollama', name: 'qwen3.5:4b' });
    assert.equal(parseModel('gpt-4o'), undefined);
    assert.equal(parseModel('/x'), undefined);
    assert.equal(parseModel('mock/'), undefined);
  });

  it('maps legacy provider names', () => {
    assert.equal(LEGACY_PROVIDER_NAMES.get('claude'), 'anthropic');
    assert.equal(resolveLegacyProvider('claude'), 'anthropic');
    assert.equal(resolveLegacyProvider('groq'), 'groq');
    assert.equal(resolveLegacyProvider('cohere'), undefined);
  });
});

describe('cel catalog', () => {
  it('lists the closed callable set and the roots', () => {
    assert.deepEqual([...CEL_FUNCTIONS.keys()].sort(), ['has', 'size']);
    assert.deepEqual([...CEL_METHODS.keys()].sort(), ['contains', 'endsWith', 'size', 'startsWith']);
    assert.ok(CEL_CALLABLES.every((c) => c.signature && c.description));
    assert.deepEqual(EXPRESSION_ROOTS.map((r) => r.name), ['inputs', 'const', 'secrets', 'with', 'tasks', 'group', 'item', 'index']);
    assert.deepEqual(TASK_PROJECTIONS.map((p) => p.name), ['output', 'status', 'error', 'duration_ms', 'started_at', 'ended_at']);
    assert.ok(RESERVED_BINDING_NAMES.has('status'));
  });
});
