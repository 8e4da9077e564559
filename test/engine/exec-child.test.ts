// exec on bare child_process.spawn (engine/exec/child.ts): what execa used to give us and the
// fixes that came with the switch; and the scheduler starting a task as soon as a slot frees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventsOf, gone, runYaml, tempDir } from '../cli/helpers.js';

const wf = (tasks: string, extra = '') => `nika: t\npermits:\n  exec: true\n${extra}tasks:\n${tasks}`;

test('stdin a child never reads does not fail it; an empty stdin is still written and closed', async () => {
  const { result } = await runYaml(wf(`  ignores:
    exec: { command: [true], stdin: "${'x'.repeat(1000)}" }
  empty:
    exec: { command: [cat], stdin: "" }
  none:
    exec: { command: [cat] }
`));
  assert.equal(result.tasks.ignores.status, 'success', JSON.stringify(result.tasks.ignores.error));
  assert.equal(result.tasks.empty.output, '');
  assert.equal(result.tasks.none.output, '', 'without stdin: the child reads /dev/null, it does not hang');
});

test('large output is kept whole across many chunks; combined keeps both streams', async () => {
  const { result } = await runYaml(wf(`  big:
    exec: { shell: "head -c 3000000 /dev/zero | tr '\\\\0' a" }
  both:
    exec: { shell: "printf 'o1\\\\n'; printf 'e1\\\\n' >&2; printf 'o2\\\\n'", capture: combined }
`));
  assert.equal((result.tasks.big.output as string).length, 3_000_000);
  assert.deepEqual((result.tasks.both.output as string).split('\n').sort(), ['e1', 'o1', 'o2']);
});

test('a signal-killed child is NIKA-EXEC-001 naming the signal; a bad cwd or program is NIKA-EXEC-002', async () => {
  const { result } = await runYaml(wf(`  killed:
    exec: { shell: "kill -TERM $$" }
  nowhere:
    exec: { command: [definitely-not-a-program-xyz] }
`));
  assert.equal(result.tasks.killed.error?.code, 'NIKA-EXEC-001');
  assert.match(result.tasks.killed.error!.message, /SIGTERM/);
  assert.equal(result.tasks.nowhere.error?.code, 'NIKA-EXEC-002');
  assert.match(result.tasks.nowhere.error!.message, /ENOENT/);
});

test('cancel stops the group even when an escaped process keeps the output pipe open', { timeout: 30_000 }, async () => {
  // `setsid` moves the grandchild out of the task's process group (it escapes the group kill)
  // while it still holds stdout: the run must settle anyway, and promptly.
  const dir = tempDir();
  const read = (f: string) => Number(readFileSync(join(dir, f), 'utf8'));
  let cancelledAt = 0;
  const { result } = await runYaml(wf(`  stuck:
    exec: { shell: "setsid sh -c 'echo $$ > escaped.pid; exec sleep 30' & echo $$ > shell.pid; wait" }
`), {
    dir,
    killGraceMs: 500,
    onEvent: (e, cancel) => {
      if (e.type !== 'task_started') return;
      const poll = setInterval(() => {
        try { read('escaped.pid'); read('shell.pid'); } catch { return; }
        clearInterval(poll);
        cancelledAt = Date.now();
        cancel('test cancel');
      }, 20);
    },
  });
  const escaped = read('escaped.pid');
  try {
    assert.equal(result.state, 'cancelled');
    assert.ok(Date.now() - cancelledAt < 5_000, `settled ${Date.now() - cancelledAt} ms after cancel`);
    assert.ok(await gone(read('shell.pid')), "the task's own shell is gone");
  } finally {
    try { process.kill(escaped, 'SIGKILL'); } catch { /* gone */ }
  }
});

test('max_parallel: the next task starts as soon as any slot frees, not after the slowest', { timeout: 30_000 }, async () => {
  const { result, events } = await runYaml(wf(`  slow:
    exec: { command: [sleep, "1.5"] }
  q1:
    exec: { command: [sleep, "0.1"] }
  q2:
    exec: { command: [sleep, "0.1"] }
  q3:
    exec: { command: [sleep, "0.1"] }
  q4:
    exec: { command: [sleep, "0.1"] }
`), { maxParallel: 2 });
  assert.equal(result.state, 'success');
  const completed = (id: string) => eventsOf(events, 'task_completed', id)[0].ts;
  // q1…q4 run one after another in the second slot while `slow` holds the first.
  assert.ok(completed('q4') < completed('slow'), `q4 at ${completed('q4')}, slow at ${completed('slow')}`);
});
