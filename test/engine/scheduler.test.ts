// The scheduler as a user sees it: what runs, in which order, with which outcome.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventsOf, gone, runYaml } from '../cli/helpers.js';

const V1 = (body: string, permits = 'permits:\n  exec: true\n  tools: ["nika:*"]\n') => `nika: t\nmodel: mock/echo\n${permits}${body}`;

test('independent tasks run at the same time (each waits for the other to have started)', async () => {
  const { result } = await runYaml(V1(`tasks:
  a:
    timeout: "20s"
    exec: { shell: "touch a.flag; while [ ! -e b.flag ]; do sleep 0.05; done; echo a" }
  b:
    timeout: "20s"
    exec: { shell: "touch b.flag; while [ ! -e a.flag ]; do sleep 0.05; done; echo b" }
  c:
    with: { a: "\${{ tasks.a.output }}", b: "\${{ tasks.b.output }}" }
    exec: { command: [echo, "\${{ with.a }}+\${{ with.b }}"] }
`));
  assert.equal(result.state, 'success');
  assert.equal(result.tasks.c.output, 'a+b');
});

test('with: edges order tasks and pass values; outputs are evaluated at the end', async () => {
  const { result, events } = await runYaml(V1(`tasks:
  first:
    infer: { prompt: "one" }
  second:
    with: { x: "\${{ tasks.first.output }}" }
    exec: { command: [echo, "got \${{ with.x }}"] }
outputs:
  final: \${{ tasks.second.output }}
`));
  assert.equal(result.state, 'success');
  assert.deepEqual(result.outputs, { final: 'got mock(echo) · one' });
  const order = events.filter((e) => e.type === 'task_completed').map((e) => (e as { task_id: string }).task_id);
  assert.deepEqual(order, ['first', 'second']);
  assert.deepEqual(eventsOf(events, 'task_scheduled', 'second')[0].dependencies, ['first']);
  assert.equal(events[0].type, 'workflow_started');
  assert.equal(events.at(-1)!.type, 'workflow_completed');
});

test('after: predicates admit or cancel, and cancellation propagates', async () => {
  const { result } = await runYaml(V1(`tasks:
  boom:
    exec: { shell: "exit 4" }
  on_fail:
    after: { boom: failure }
    exec: { command: [echo, handled] }
  on_ok:
    after: { boom: success }
    exec: { command: [echo, never] }
  after_on_ok:
    after: { on_ok: success }
    exec: { command: [echo, never] }
  always:
    after: { boom: terminal }
    exec: { command: [echo, always] }
  reads_value:
    with: { v: "\${{ tasks.boom.output }}" }
    exec: { command: [echo, never] }
`));
  assert.equal(result.state, 'failure');
  assert.equal(result.tasks.boom.error?.code, 'NIKA-EXEC-001');
  assert.equal(result.tasks.on_fail.status, 'success');
  assert.equal(result.tasks.on_ok.status, 'cancelled');
  assert.equal(result.tasks.after_on_ok.status, 'cancelled');
  assert.equal(result.tasks.always.output, 'always');
  assert.equal(result.tasks.reads_value.status, 'cancelled');
});

test('when: false skips; a skipped producer admits value readers with null', async () => {
  const { result } = await runYaml(V1(`inputs:
  go: { type: bool, default: false }
tasks:
  maybe:
    when: \${{ inputs.go == true }}
    exec: { command: [echo, ran] }
  next:
    with: { v: "\${{ tasks.maybe.output }}" }
    exec: { command: [echo, "v=\${{ with.v }}"] }
  only_if_skipped:
    after: { maybe: skipped }
    exec: { command: [echo, yes] }
`));
  assert.equal(result.tasks.maybe.status, 'skipped');
  assert.equal(result.tasks.next.output, 'v=null');
  assert.equal(result.tasks.only_if_skipped.output, 'yes');
  assert.equal(result.state, 'success');
});

test('for_each: item and index in scope, output in input order, empty list skips', async () => {
  const { result, events } = await runYaml(V1(`tasks:
  loop:
    for_each: { items: ["c", "a", "b"], max_parallel: 2 }
    exec: { shell: "sleep 0.\${{ 3 == index ? 0 : index }}; echo \${{ item }}\${{ index }}" }
  empty:
    for_each: { items: [] }
    exec: { command: [echo, x] }
`));
  assert.deepEqual(result.tasks.loop.output, ['c0', 'a1', 'b2']);
  assert.equal(result.tasks.empty.status, 'skipped');
  assert.deepEqual(eventsOf(events, 'task_completed', 'loop').map((e) => e.index).filter((i) => i !== undefined).sort(), [0, 1, 2]);
});

test('for_each fail_fast stops the loop at the first failure; without it every item runs', async () => {
  const yaml = (ff: boolean) => V1(`tasks:
  loop:
    for_each: { items: [1, 2, 3, 4], max_parallel: 1, fail_fast: ${ff} }
    exec: { shell: "test \${{ item }} -ne 2 && echo ok\${{ item }}" }
`);
  const fast = await runYaml(yaml(true));
  assert.equal(fast.result.tasks.loop.status, 'failure');
  assert.match(fast.result.tasks.loop.error!.message, /iteration 1/);
  assert.equal(eventsOf(fast.events, 'task_started', 'loop').filter((e) => e.index !== undefined).length, 2);
  const slow = await runYaml(yaml(false));
  assert.equal(slow.result.tasks.loop.status, 'failure');
  assert.equal(eventsOf(slow.events, 'task_completed', 'loop').filter((e) => e.index !== undefined).length, 3);
});

test('retry: on_codes makes a non-transient error retryable; task_retrying says so', async () => {
  const { result, events } = await runYaml(V1(`tasks:
  flaky:
    retry: { max_attempts: 3, backoff_ms: 10, backoff_strategy: fixed, jitter: false, on_codes: ["NIKA-EXEC-.*"] }
    exec: { shell: "n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; [ $n -ge 3 ] && echo third" }
  plain:
    retry: { max_attempts: 3, backoff_ms: 10 }
    exec: { shell: "exit 1" }
`));
  assert.equal(result.tasks.flaky.output, 'third');
  assert.equal(result.tasks.flaky.attempts, 3);
  assert.equal(eventsOf(events, 'task_retrying', 'flaky').length, 2);
  assert.equal(result.tasks.plain.attempts, 1, 'exit codes are not transient without on_codes');
});

test('timeout fails with NIKA-TIMEOUT-001, is never retried, and kills the process tree', async () => {
  const { result, dir } = await runYaml(V1(`tasks:
  slow:
    timeout: "1s"
    retry: { max_attempts: 3, backoff_ms: 10, on_codes: ["NIKA-TIMEOUT-001"] }
    exec: { shell: "sleep 30 & echo $! > grandchild.pid; echo $$ > shell.pid; wait" }
`), { killGraceMs: 300 });
  assert.equal(result.tasks.slow.status, 'failure');
  assert.equal(result.tasks.slow.error?.code, 'NIKA-TIMEOUT-001');
  assert.equal(result.tasks.slow.attempts, 1);
  for (const f of ['shell.pid', 'grandchild.pid']) {
    const pid = Number(readFileSync(join(dir, f), 'utf8'));
    assert.ok(await gone(pid), `${f} (${pid}) should be gone`);
  }
});

test('on_error recover replaces the output (task_recovered); skip keeps the error; on_codes filters', async () => {
  const { result, events } = await runYaml(V1(`tasks:
  rec:
    on_error: { recover: { fallback: true } }
    extract: { flag: ".fallback" }
    exec: { shell: "exit 2" }
  skp:
    on_error: { skip: true }
    exec: { shell: "exit 2" }
  filtered:
    on_error: { recover: x, on_codes: ["NIKA-TIMEOUT-001"] }
    exec: { shell: "exit 2" }
  reader:
    with: { f: "\${{ tasks.rec.flag }}", e: "\${{ tasks.skp.error.code }}" }
    exec: { command: [echo, "\${{ with.f }} \${{ with.e }}"] }
`));
  assert.equal(result.tasks.rec.status, 'success');
  assert.deepEqual(result.tasks.rec.output, { fallback: true });
  assert.equal(eventsOf(events, 'task_recovered', 'rec').length, 1);
  assert.equal(result.tasks.skp.status, 'skipped');
  assert.equal(result.tasks.skp.error?.code, 'NIKA-EXEC-001');
  assert.equal(result.tasks.filtered.status, 'failure');
  assert.equal(result.tasks.reader.output, 'true NIKA-EXEC-001');
});

test('extract: jq bindings over the output are readable as tasks.X.<name>', async () => {
  const { result } = await runYaml(V1(`tasks:
  data:
    exec: { command: [echo, '{"items": [{"n": 1}, {"n": 2}]}'], decode: json }
    extract:
      total: "[.items[].n] | add"
      first: ".items[0].n"
  use:
    with: { t: "\${{ tasks.data.total }}", f: "\${{ tasks.data.first }}" }
    exec: { command: [echo, "\${{ with.t }}/\${{ with.f }}"] }
  many:
    exec: { command: [echo, "[1,2]"], decode: json }
    extract: { each: ".[]" }
`));
  assert.equal(result.tasks.use.output, '3/1');
  assert.equal(result.tasks.many.error?.code, 'NIKA-VAR-002');
});

test('unwind cleanup runs after its producer fails, and its own failure does not fail the run', async () => {
  const { result } = await runYaml(V1(`tasks:
  work:
    on_error: { skip: true }
    exec: { shell: "exit 1" }
  cleanup:
    after: { work: unwind }
    exec: { command: [echo, "status=\${{ tasks.work.status }}"] }
  bad_cleanup:
    after: { cleanup: unwind }
    exec: { shell: "exit 9" }
`));
  assert.equal(result.tasks.cleanup.output, 'status=skipped');
  assert.equal(result.tasks.bad_cleanup.status, 'failure');
  assert.equal(result.state, 'success');
});

test('cancel stops running children, cancels the rest, and ends with workflow_cancelled', async () => {
  let pidFile = '';
  const { result, events, dir } = await runYaml(V1(`tasks:
  long:
    exec: { shell: "sleep 60 & echo $! > sleep.pid; wait" }
  later:
    with: { x: "\${{ tasks.long.output }}" }
    exec: { command: [echo, never] }
`), {
    killGraceMs: 300,
    onEvent: (e, cancel) => { if (e.type === 'task_started' && e.task_id === 'long') setTimeout(() => cancel('test'), 300); },
  });
  pidFile = join(dir, 'sleep.pid');
  assert.equal(result.state, 'cancelled');
  assert.equal(events.at(-1)!.type, 'workflow_cancelled');
  assert.equal(result.tasks.long.status, 'cancelled');
  assert.equal(result.tasks.later.status, 'cancelled');
  assert.ok(await gone(Number(readFileSync(pidFile, 'utf8'))));
});

test('inputs: undeclared keys and missing required inputs are refused; strings are coerced', async () => {
  const yaml = V1(`inputs:
  n: { type: integer, required: true }
  flag: { type: bool, default: false }
tasks:
  t:
    when: \${{ inputs.n == 3 && inputs.flag == true }}
    exec: { command: [echo, "n is \${{ inputs.n }}"] }
`);
  const ok = await runYaml(yaml, { inputs: { n: '3', flag: 'true' } });
  assert.equal(ok.result.tasks.t.output, 'n is 3');
  const missing = await runYaml(yaml, { inputs: {} });
  assert.equal(missing.result.state, 'failure');
  assert.match(missing.result.error!.message, /required input 'n'/);
  const extra = await runYaml(yaml, { inputs: { n: '3', nope: '1' } });
  assert.match(extra.result.error!.message, /'nope' is not declared/);
  const bad = await runYaml(yaml, { inputs: { n: 'three' } });
  assert.equal(bad.result.error!.code, 'NIKA-TYPE-101');
});

test('only: runs the task and its upstream; reused records stand in for upstream when given', async () => {
  const yaml = V1(`tasks:
  up:
    exec: { command: [echo, fresh] }
  target:
    with: { v: "\${{ tasks.up.output }}" }
    exec: { command: [echo, "saw \${{ with.v }}"] }
  other:
    exec: { command: [echo, other] }
`);
  const a = await runYaml(yaml, { only: { task: 'target', withUpstream: true } });
  assert.deepEqual(Object.keys(a.result.tasks).sort(), ['target', 'up']);
  assert.equal(a.result.tasks.target.output, 'saw fresh');
  const reuse = { up: { status: 'success' as const, output: 'cached', error: null, attempts: 1, duration_ms: 1 } };
  const b = await runYaml(yaml, { only: { task: 'target', withUpstream: false }, reuse });
  assert.equal(b.result.tasks.target.output, 'saw cached');
  assert.equal(eventsOf(b.events, 'task_started', 'up').length, 0);
  const c = await runYaml(yaml, { only: { task: 'target', withUpstream: true }, reuse });
  assert.equal(c.result.tasks.target.output, 'saw fresh');
});

test('group fan-in gives member records in declaration order', async () => {
  const { result } = await runYaml(V1(`tasks:
  a:
    group: legs
    exec: { command: [echo, A] }
  b:
    group: legs
    exec: { shell: "exit 1" }
  join:
    with: { legs: "\${{ group.legs }}" }
    invoke:
      tool: "nika:jq"
      args: { expression: "map(.id + \\":\\" + .status)", input: "\${{ with.legs }}" }
`));
  assert.deepEqual(result.tasks.join.output, ['a:success', 'b:failure']);
});
