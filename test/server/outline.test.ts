import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../../server/model.js';
import { documentSymbols } from '../../server/features/symbols.js';
import { foldingRanges } from '../../server/features/folding.js';
import { decodeTokens, semanticTokens } from '../../server/features/semanticTokens.js';
import { diagnostics } from '../../server/features/diagnostics.js';
import { SymbolKind } from 'vscode-languageserver';

const V1 = [
  'nika: demo',                                       // 0
  'inputs:',                                          // 1
  '  topic: { type: string }',                        // 2
  'tasks:',                                           // 3
  '  fetch_data:',                                    // 4
  '    invoke:',                                      // 5
  '      tool: nika:fetch',                           // 6
  '      args: { url: "https://example.com" }',       // 7
  '  summarize:',                                     // 8
  '    with: { raw: "${{ tasks.fetch_data.output }}" }', // 9
  '    when: ${{ size(with.raw) > 0 && inputs.topic.startsWith(\'a\') }}', // 10
  '    infer:',                                       // 11
  '      model: mock/echo',                           // 12
  '      prompt: |',                                  // 13
  '        About ${{ inputs.topic }}',                // 14
  '        and more',                                 // 15
  'outputs:',                                         // 16
  '  out: ${{ tasks.summarize.output }}',             // 17
].join('\n');

test('symbols: workflow → sections and tasks with their verb', () => {
  const [wf] = documentSymbols(buildModel(V1));
  assert.equal(wf.name, 'demo');
  assert.equal(wf.kind, SymbolKind.Module);
  const names = wf.children!.map((c) => c.name);
  assert.deepEqual(names, ['inputs', 'tasks', 'outputs']);
  const tasks = wf.children![1].children!;
  assert.deepEqual(tasks.map((t) => [t.name, t.detail]), [['fetch_data', 'invoke nika:fetch'], ['summarize', 'infer mock/echo']]);
  assert.equal(tasks[0].selectionRange.start.line, 4);
  assert.equal(tasks[0].range.end.line, 7);
  assert.equal(wf.children![0].children![0].detail, 'string');
});

test('symbols: list-dialect tasks are named by their id', () => {
  const [wf] = documentSymbols(buildModel('nika: v1\nworkflow: old\ntasks:\n  - id: a\n    exec: "echo"\n'));
  assert.equal(wf.name, 'old');
  assert.equal(wf.detail, 'v1 draft');
  assert.equal(wf.children![0].children![0].name, 'a');
});

test('folding: block collections and block scalars, from their key line', () => {
  const ranges = foldingRanges(buildModel(V1));
  const has = (s: number, e: number) => ranges.some((r) => r.startLine === s && r.endLine === e);
  assert.ok(has(3, 15), 'tasks');
  assert.ok(has(4, 7), 'fetch_data');
  assert.ok(has(5, 7), 'invoke');
  assert.ok(has(13, 15), 'prompt block scalar');
  assert.ok(has(16, 17), 'outputs');
  assert.ok(!ranges.some((r) => r.startLine === 2), 'flow map on one line does not fold');
});

test('semantic tokens: delimiters, roots, task ids, properties, functions, literals, operators', () => {
  const toks = decodeTokens(semanticTokens(buildModel(V1)).data);
  const lines = V1.split('\n');
  const at = (line: number, needle: string, nth = 0) => {
    let idx = -1;
    for (let i = 0; i <= nth; i++) idx = lines[line].indexOf(needle, idx + 1);
    return toks.find((t) => t.line === line && t.character === idx);
  };
  assert.equal(at(9, '${{')?.type, 'macro');
  assert.equal(at(9, '}}')?.type, 'macro');
  assert.equal(at(9, 'tasks')?.type, 'namespace');
  assert.equal(at(9, 'fetch_data')?.type, 'class');
  assert.equal(at(9, 'output')?.type, 'property');
  assert.equal(at(10, 'size')?.type, 'function');
  assert.equal(at(10, 'with')?.type, 'namespace');
  assert.equal(at(10, '>')?.type, 'operator');
  assert.equal(at(10, '0')?.type, 'number');
  assert.equal(at(10, '&&')?.type, 'operator');
  assert.equal(at(10, 'startsWith')?.type, 'function');
  assert.equal(at(10, "'a'")?.type, 'string');
  assert.equal(at(14, 'inputs')?.type, 'namespace', 'inside a literal block scalar');
  assert.equal(at(14, 'topic')?.type, 'property');
  assert.equal(at(14, 'topic')?.length, 5);
  // No token outside expressions.
  assert.ok(!toks.some((t) => t.line === 6 || t.line === 12));
});

test('diagnostics keep the Nika code, source and data', () => {
  const m = buildModel('nika: demo\ntasks:\n  a:\n    infer: { prompt: [unclosed\n');
  const ds = diagnostics(m);
  assert.ok(ds.length > 0);
  assert.ok(ds.every((d) => d.source === 'nika' && typeof d.code === 'string' && /^NIKA-/.test(String(d.code))));
  assert.ok(ds.some((d) => d.code === 'NIKA-PARSE-001'));
});
