// Broken or hostile input must give findings, never an internal error from a semantic check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolCatalog } from '../../core/catalog/mcp.js';
import { diagnose, doc, one } from './semantic-helpers.js';

const CATALOG: ToolCatalog = { servers: [{ name: 's', status: 'connected', tools: [{ name: 't', inputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } }] }] };

const CASES = [
  '',
  'just a string',
  'nika: x\ntasks: 5',
  'nika: x\ntasks:\n  a:\n  b: null\n  c: [1, 2]',
  'nika: x\ntasks:\n  a:\n    invoke: null\n    after: [b]\n    with: "str"\n    when: 5',
  'nika: x\ntasks:\n  a:\n    invoke: { tool: "mcp:s/t", args: [1] }\n  b:\n    invoke: { tool: "mcp:s/t", args: { a: 1 } }',
  'nika: x\ntasks:\n  a:\n    infer: { prompt: "${{ }} ${{ ${{ }} }} ${{" }',
  'nika: x\ntasks:\n  a:\n    infer: { prompt: "${{ tasks[0].output }} ${{ tasks[\'a\'] }} ${{ item[index] }}" }',
  'nika: x\ntasks:\n  a:\n    agent: { prompt: p, tools: [1, null, "**", "!"] }',
  'nika: v1\ntasks:\n  - name: a\n    depends_on: 3\n  - 7\n  - name: [x]',
  'schema: "nika/workflow@0.3"\ntasks:\n  - id: a\n    use: { x: { from: 5 } }\n    for_each: "$x"\n    infer: "{{use.}} {{use.x.}}"\nflows: 3',
  'nika: x\ntasks:\n  a: &anchor\n    infer: { prompt: "x" }\n  b: *anchor',
];

test('no semantic check throws on broken documents', () => {
  for (const text of CASES) {
    const internal = diagnose(text, CATALOG).filter((d) => d.code === 'NIKA-IMPL-001');
    assert.deepEqual(internal.map((d) => d.message), [], `for: ${JSON.stringify(text)}`);
  }
});

test('envelope model: may read inputs/const only', () => {
  const t = doc('nika: x', 'model: "${{ tasks.a.output }}"', 'tasks:', '  a:', '    infer: { prompt: "x" }');
  const d = one(t, 'NIKA-VAR-021', 'tasks.a.output');
  assert.equal(d.data?.fixes, undefined);
  one(doc('nika: x', 'model: "${{ with.m }}"', 'tasks:', '  a:', '    infer: { prompt: "x" }'), 'NIKA-VAR-001', 'with');
});

test('agent.tools: unknown builtin ids are INVOKE-001 too; globs are left alone offline', () => {
  const t = doc('nika: x', 'tasks:', '  a:', '    agent: { prompt: p, tools: ["nika:reed", "nika:*", "mcp:gh/**"] }');
  one(t, 'NIKA-INVOKE-001', 'nika:reed');
});
