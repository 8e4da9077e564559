// The secret taint pass visits producers first and settles most workflows in one round; what a
// task reads before its turn (a cycle, a body reading a later task, a binding reading the loop
// item, bindings reading later bindings) must still be found, exactly as two full rounds find it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import { traceSecrets } from '../../core/checks/audit/secrets.js';
import { EMPTY_CATALOG } from '../../core/catalog/mcp.js';

function flows(text: string): string[] {
  const a = analyze(text, { skipChecks: true });
  return traceSecrets({ doc: a.doc, dialect: a.dialectInfo, workflow: a.workflow, catalog: EMPTY_CATALOG })
    .map((f) => `${f.secret} ${f.sink} ${f.task ?? f.output} ${f.path.join(' > ')}${f.sanctioned ? ' ok' : ''}`);
}

const HEAD = `nika: passes
secrets:
  KEY: { source: env, key: K }
permits:
  tools: ["nika:log"]
  exec: [printf]
tasks:
`;

test('a cycle, a recover read of a later task, chained bindings and a loop item all carry the taint', () => {
  const text = HEAD + `  a:
    with: { x: "\${{ tasks.b.output }}" }
    invoke: { tool: "nika:log", args: { message: "\${{ with.x }}" } }
  b:
    with: { y: "\${{ tasks.a.output }}", k: "\${{ secrets.KEY }}" }
    invoke: { tool: "nika:log", args: { message: "\${{ with.k }} \${{ with.y }}" } }
  c:
    invoke: { tool: "nika:log", args: { message: "\${{ tasks.d.output }}" } }
  d:
    exec: { command: [printf, "\${{ secrets.KEY }}"] }
  e:
    for_each: { items: "\${{ tasks.d.output }}" }
    with: { v: "\${{ item }}" }
    exec: { command: [printf, "\${{ with.v }}"] }
  f:
    with: { p: "\${{ with.q }}", q: "\${{ with.r }}", r: "\${{ secrets.KEY }}" }
    exec: { command: [printf, "\${{ with.p }}"] }
  g:
    on_error: { recover: { value: "\${{ tasks.h.output }}" } }
    invoke: { tool: "nika:log", args: { message: "x" } }
  h:
    with: { z: "\${{ tasks.g.output }}" }
    exec: { command: [printf, "\${{ with.z }} \${{ secrets.KEY }}"] }
  i:
    with: { w: "\${{ tasks.g.output }}" }
    exec: { command: [printf, "\${{ with.w }}"] }
outputs:
  o: \${{ tasks.c.output }}
  q: \${{ tasks.i.output }}
`;
  assert.deepEqual(flows(text), [
    'KEY nika:log a secrets.KEY > with.k > tasks.b.output > with.x',
    'KEY nika:log b secrets.KEY > with.k',
    'KEY nika:log c secrets.KEY > tasks.d.output',
    'KEY exec d secrets.KEY',
    'KEY exec e secrets.KEY > tasks.d.output > item > with.v',
    'KEY exec f secrets.KEY > with.r > with.q > with.p',
    'KEY exec h secrets.KEY',
    'KEY exec i secrets.KEY > tasks.h.output > tasks.g.output > with.w',
    'KEY outputs o secrets.KEY > tasks.d.output > tasks.c.output',
    'KEY outputs q secrets.KEY > tasks.h.output > tasks.g.output > with.w > tasks.i.output',
  ]);
});

test('a binding reading the loop item alone needs the second round', () => {
  const text = HEAD + `  d:
    exec: { command: [printf, "\${{ secrets.KEY }}"] }
  e:
    for_each: { items: "\${{ tasks.d.output }}" }
    with: { v: "\${{ item }}" }
    exec: { command: [printf, "\${{ with.v }}"] }
`;
  assert.deepEqual(flows(text), ['KEY exec d secrets.KEY', 'KEY exec e secrets.KEY > tasks.d.output > item > with.v']);
});

test('a body reading a task declared after it alone needs the second round', () => {
  const text = HEAD + `  c:
    invoke: { tool: "nika:log", args: { message: "\${{ tasks.d.output }}" } }
  d:
    exec: { command: [printf, "\${{ secrets.KEY }}"] }
`;
  assert.deepEqual(flows(text), ['KEY nika:log c secrets.KEY > tasks.d.output', 'KEY exec d secrets.KEY']);
});

test('no secret read anywhere: no flow, even through outputs', () => {
  const text = HEAD + `  d:
    exec: { command: [printf, "x"] }
outputs:
  o: \${{ tasks.d.output }}
  s: \${{ secrets.KEY }}
`;
  assert.deepEqual(flows(text), ['KEY outputs s secrets.KEY']);
});
