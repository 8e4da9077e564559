// The shipped JSON Schemas as a standalone product (yaml-language-server users get them from
// the yamlValidation contribution): they compile under a plain ajv, carry our own $ids, give
// hover text for every field, and agree with core on durations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parseDuration } from '../../core/duration.js';

const dir = join(__dirname, '..', '..', 'schemas');
const load = (n: string) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as Record<string, any>;
const names = ['workflow.schema.json', 'draft-workflow.schema.json', 'legacy-workflow.schema.json'];

test('each schema passes draft-07 meta-validation and has its own $id', () => {
  const ids = new Set<string>();
  for (const n of names) {
    const s = load(n);
    const ajv = new Ajv({ strict: false, validateSchema: true });
    assert.doesNotThrow(() => ajv.compile(s), n);
    assert.equal(s.$id, `https://nika-vscode.dev/schemas/${n}`);
    ids.add(s.$id);
  }
  assert.equal(ids.size, 3);
});

test('package.json points yamlValidation at the current schema', () => {
  const pkg = JSON.parse(readFileSync(join(dir, '..', 'package.json'), 'utf8'));
  assert.ok(pkg.contributes.yamlValidation.some((v: { url: string }) => v.url === './schemas/workflow.schema.json'));
});

test('every field of the current schema has hover text', () => {
  const s = load('workflow.schema.json');
  const missing: string[] = [];
  const defs = s.definitions as Record<string, any>;
  const described = (p: any): boolean => !!p && (typeof p.description === 'string' || (typeof p.$ref === 'string' && described(defs[p.$ref.split('/').pop()])));
  for (const defName of ['workflow', 'task', 'infer', 'exec', 'invoke', 'agent', 'retry', 'onError', 'forEach', 'secret', 'permits', 'input']) {
    for (const [k, p] of Object.entries(defs[defName].properties as Record<string, any>)) {
      if (!described(p)) missing.push(`${defName}.${k}`);
    }
  }
  assert.deepEqual(missing, []);
});

const v1 = new Ajv({ allErrors: true, strict: false }).compile(load('workflow.schema.json'));

test('standalone: the current schema accepts older dialects and rejects current mistakes', () => {
  assert.equal(v1({ schema: 'nika/workflow@0.2', tasks: [{ id: 'a', infer: 'x' }] }), true);
  assert.equal(v1({ nika: 'v1', tasks: [{ name: 'a', exec: { command: 'ls' } }] }), true);
  assert.equal(v1({ nika: 'v1', workflow: 'x', tasks: { a: { infer: { prompt: 'p' } } } }), true);
  assert.equal(v1({ nika: 'hello', tasks: { a: { infer: { prompt: 'p' } } } }), true);
  assert.equal(v1({ nika: 'hello', tasks: { a: { infer: { promt: 'p' } } } }), false);
  assert.equal(v1({ nika: 'hello', tasks: [{ name: 'a', exec: { shell: 'ls' } }] }), false);
  assert.equal(v1({ nika: 'hello', tasks: { a: { infer: { prompt: 'p' }, exec: { shell: 'ls' } } } }), false);
});

test('tool ids and models follow the reference grammars', () => {
  const task = (invoke: unknown) => ({ nika: 'x', tasks: { a: { invoke } } });
  for (const tool of ['nika:fetch', 'mcp:21st/create_component', 'mcp:browser/nav/go']) assert.equal(v1(task({ tool })), true, tool);
  for (const tool of ['mcp:postgres', 'x-vendor:thing', 'mcp:Pg/q', 'nika:Fetch', 'shell:run']) assert.equal(v1(task({ tool })), false, tool);
  const model = (m: string) => v1({ nika: 'x', model: m, tasks: { a: { infer: { prompt: 'p' } } } });
  for (const m of ['mock/echo', 'ollama/qwen3.5:4b', 'openrouter/anthropic/claude', '${{ inputs.model }}']) assert.equal(model(m), true, m);
  for (const m of ['gpt-4', 'OpenAI/gpt', '/x']) assert.equal(model(m), false, m);
});

test('the duration pattern and core/duration agree', () => {
  const timeout = (t: string) => v1({ nika: 'x', tasks: { a: { timeout: t, infer: { prompt: 'p' } } } });
  for (const t of ['30s', '1h30m', '250ms', '1.5s', '2h45m10s500ms', '10us', '10µs', '5ns', '0.5m', '24h', '100h', '0s', '0', '30', '30m1h', '1h1h', '2d', '1w', '', 's', '1ms5s', '1m5ms', '1.s']) {
    assert.equal(timeout(t), parseDuration(t).ok, t);
  }
});
