// The extension's activation stays cheap (issue 7): the engine, the core analysis and the language
// client live in bundles of their own, loaded on first use, and the glue that loads them keeps the
// engine's error class the one the engine recognises.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NikaError } from '../../engine/contracts.js';
import { MultiPool } from '../../client/mcp/multiPool.js';
import { loadAnalysis, loadEngine } from '../../client/lazy.js';

const root = join(__dirname, '..', '..');
const dist = (f: string) => join(root, 'dist', f);

test('activation loads none of the lazy bundles and stays small', () => {
  for (const f of ['extension.js', 'engine.js', 'analysis.js', 'languageClient.js']) assert.ok(existsSync(dist(f)), `dist/${f} is built`);
  const r = spawnSync(process.execPath, [join(root, 'bench', 'activation.cjs'), root], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(out.error, undefined, 'activate() ran under the stand-in vscode');
  assert.deepEqual(out.loadedByActivation, [], 'nothing heavy is required during activation');
  assert.deepEqual(out.loadedAfter, ['languageClient.js'], 'the language client follows right after; engine and analysis wait for use');
  // The bundle itself (the tests build it unminified, so esbuild's per-module path comments are
  // there): none of the engine, its SDKs, the checks or the client library.
  const ext = readFileSync(dist('extension.js'), 'utf8');
  assert.ok(ext.includes('// client/extension.ts'), 'unminified build with module comments');
  for (const dir of ['engine/', 'core/checks/', 'core/analyze.ts', 'node_modules/@modelcontextprotocol/sdk/', 'node_modules/openai/', 'node_modules/@anthropic-ai/sdk/', 'node_modules/execa/', 'node_modules/jq-wasm/', 'node_modules/ajv/', 'node_modules/vscode-languageclient/']) {
    assert.ok(!ext.includes(`// ${dir}`), `dist/extension.js bundles nothing from ${dir}`);
  }
  assert.ok(ext.length < 300_000, `dist/extension.js is ${ext.length} bytes`);
});

test('each lazy bundle requires only its own sibling file', () => {
  const ext = readFileSync(dist('extension.js'), 'utf8');
  const local = [...ext.matchAll(/require\("(\.[^"]+)"\)/g)].map((m) => m[1]).sort();
  assert.deepEqual([...new Set(local)], ['./analysis.js', './engine.js', './languageClient.js']);
});

test('an unknown MCP server in a run is the engine\'s own NikaError', async () => {
  const pool = new MultiPool(() => []);
  await assert.rejects(async () => pool.listTools('nope'), (e: unknown) => {
    assert.ok(e instanceof NikaError, 'instanceof the engine\'s class, so the engine reports it as such');
    assert.equal((e as NikaError).code, 'NIKA-MCP-001');
    return true;
  });
  assert.equal(loadEngine().NikaError, NikaError);
});

test('the lazy analysis is the core analysis', () => {
  const a = loadAnalysis().analyze('nika: v1\ntasks:\n  a:\n    exec: echo hi\n', {});
  assert.deepEqual(a.workflow.tasks.map((t) => t.id), ['a']);
});
