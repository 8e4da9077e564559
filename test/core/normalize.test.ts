import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';

test('current v1: tasks map, with/after, permits, outputs', () => {
  const { workflow: wf, dialect } = analyze([
    'nika: summarize',
    'model: mock/echo',
    'inputs:',
    '  text: { type: string, default: "Hello" }',
    'const:',
    '  n: { type: integer, value: 3 }',
    '  plain: { type: custom }',
    'permits: {}',
    'tasks:',
    '  a:',
    '    infer: { prompt: "Summarize ${{ inputs.text }}" }',
    '  b:',
    '    with: { s: "${{ tasks.a.output }}" }',
    '    after: { a: success }',
    '    timeout: "1m30s"',
    '    exec: { command: [echo, "${{ with.s }}"] }',
    'outputs:',
    '  out: ${{ tasks.b.output }}',
  ].join('\n'));
  assert.equal(dialect, 'v1');
  assert.equal(wf.name, 'summarize');
  assert.deepEqual(wf.tasks.map((t) => t.id), ['a', 'b']);
  assert.equal(wf.const.n, 3);
  assert.deepEqual(wf.const.plain, { type: 'custom' });
  assert.equal(wf.inputs.text.default, 'Hello');
  const b = wf.tasks[1];
  assert.equal(b.verb, 'exec');
  assert.deepEqual(b.after, { a: 'success' });
  assert.equal(b.timeoutMs, 90_000);
  assert.deepEqual((b.body as { command: unknown[] }).command, ['echo', '${{ with.s }}']);
  assert.ok(wf.permits);
  assert.equal(wf.outputs.out.value, '${{ tasks.b.output }}');
});

test('v1 draft: list tasks with name, depends_on, string exec command, vars', () => {
  const { workflow: wf, dialect } = analyze([
    'nika: v1',
    'workflow: build-it',
    'vars: { target: release }',
    'tasks:',
    '  - name: build',
    '    exec:',
    '      command: cargo build --${{ vars.target }}',
    '  - name: report',
    '    depends_on: [build]',
    '    infer: { prompt: done }',
  ].join('\n'));
  assert.equal(dialect, 'v1-draft');
  assert.equal(wf.name, 'build-it');
  assert.deepEqual(wf.vars, { target: 'release' });
  assert.equal((wf.tasks[0].body as { shell?: string }).shell, 'cargo build --${{ vars.target }}');
  assert.deepEqual(wf.tasks[1].after, { build: 'success' });
});

test('legacy 0.x: use paths, {{use}} templates, flows, mcp invoke, agent mcp list', () => {
  const { workflow: wf, dialect } = analyze([
    'schema: "nika/workflow@0.4"',
    'workflow: multi-locale',
    'provider: claude',
    'model: claude-sonnet-4',
    'mcp:',
    '  novanet: { command: cargo, args: [run], env: { K: v } }',
    'tasks:',
    '  - id: get_entity',
    '    invoke: { mcp: novanet, tool: novanet_generate, params: { entity: qr } }',
    '  - id: gen',
    '    for_each: ["fr-FR", "en-US"]',
    '    as: locale',
    '    concurrency: 3',
    '    use: { entity: "get_entity.data.0 ?? \'none\'" }',
    '    agent:',
    '      prompt: "Write for {{use.locale}} using {{use.entity}}"',
    '      mcp: [novanet]',
    '      token_budget: 5000',
    '      stop_conditions: ["DONE"]',
    '  - id: save',
    '    exec: "echo saved"',
    'flows:',
    '  - { source: gen, target: [save] }',
  ].join('\n'));
  assert.equal(dialect, 'legacy');
  assert.equal(wf.model, 'anthropic/claude-sonnet-4');
  assert.equal(wf.mcp.novanet.command, 'cargo');
  const [get, gen, save] = wf.tasks;
  assert.equal((get.body as { tool?: string }).tool, 'mcp:novanet/novanet_generate');
  assert.deepEqual((get.body as { args: unknown }).args, { entity: 'qr' });
  assert.equal(gen.with.entity, "${{ has(tasks.get_entity.output.data[0]) ? tasks.get_entity.output.data[0] : 'none' }}");
  assert.deepEqual(gen.forEach, { items: ['fr-FR', 'en-US'], maxParallel: 3, failFast: true });
  const agent = gen.body as { prompt: string; tools: string[]; maxTokensTotal?: number; stopConditions?: string[] };
  assert.equal(agent.prompt, 'Write for ${{ item }} using ${{ with.entity }}');
  assert.deepEqual(agent.tools, ['mcp:novanet/*']);
  assert.equal(agent.maxTokensTotal, 5000);
  assert.deepEqual(agent.stopConditions, ['DONE']);
  assert.equal((save.body as { shell?: string }).shell, 'echo saved');
  assert.deepEqual(save.after, { gen: 'success' });
});

test('CRLF and unparsable documents still normalize what they can', () => {
  const { workflow: wf, diagnostics } = analyze('nika: x\r\ntasks:\r\n  a:\r\n    infer: { prompt: "hi"\r\n  b:\r\n    exec: { command: [ls] }\r\n');
  assert.ok(diagnostics.some((d) => d.code === 'NIKA-PARSE-001'));
  assert.ok(wf.tasks.some((t) => t.id === 'b' || t.id === 'a'));
});

test('large workflows are read whole: 3,000 chained tasks analyze clean', () => {
  const lines = ['nika: big', 'permits: { exec: [echo] }', 'tasks:'];
  for (let i = 0; i < 3000; i++) {
    lines.push(`  step_${i}:`);
    if (i) lines.push(`    with: { p: "\${{ tasks.step_${i - 1}.output }}" }`);
    lines.push(`    exec: { command: [echo, "\${{ ${i ? 'with.p' : "'x'"} }}"] }`);
  }
  const { workflow, diagnostics } = analyze(lines.join('\n'));
  assert.equal(workflow.tasks.length, 3000);
  assert.deepEqual(diagnostics.map((d) => d.code), []);
});
