// The permits boundary at run time: the first effect outside it fails with NIKA-SEC-004.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runYaml, tempDir } from '../cli/helpers.js';

function project(): string {
  const root = tempDir();
  mkdirSync(join(root, 'wf', 'data'), { recursive: true });
  writeFileSync(join(root, 'wf', 'data', 'ok.txt'), 'inside');
  writeFileSync(join(root, 'secret.txt'), 'outside');
  symlinkSync(join(root, 'secret.txt'), join(root, 'wf', 'data', 'link.txt'));
  return join(root, 'wf');
}

const reads = (path: string) => `nika: t
permits:
  fs: { read: ["data/**"] }
  tools: ["nika:read"]
tasks:
  r:
    invoke: { tool: "nika:read", args: { path: "${path}" } }
`;

test('fs.read allows paths inside the grant and refuses .. and symlink escapes', async () => {
  const dir = project();
  assert.equal((await runYaml(reads('data/ok.txt'), { dir })).result.tasks.r.output, 'inside');
  for (const p of ['../secret.txt', 'data/../../secret.txt', 'data/link.txt']) {
    const r = (await runYaml(reads(p), { dir })).result.tasks.r;
    assert.equal(r.error?.code, 'NIKA-SEC-004', p);
  }
});

test('fs.write is its own grant', async () => {
  const dir = project();
  const { result } = await runYaml(`nika: t
permits:
  fs: { read: ["**"], write: ["out/**"] }
  tools: ["nika:write"]
tasks:
  ok:
    invoke: { tool: "nika:write", args: { path: out/a.txt, content: x, create_dirs: true } }
  no:
    invoke: { tool: "nika:write", args: { path: data/b.txt, content: x } }
`, { dir });
  assert.equal(result.tasks.ok.status, 'success');
  assert.equal(result.tasks.no.error?.code, 'NIKA-SEC-004');
});

test('exec: an allowlist checks argv[0] and refuses shell strings; absent exec grant refuses all', async () => {
  const { result } = await runYaml(`nika: t
permits:
  exec: [echo]
tasks:
  ok:
    exec: { command: [echo, hi] }
  other:
    exec: { command: [ls] }
  shell:
    exec: { shell: "echo hi" }
`);
  assert.equal(result.tasks.ok.output, 'hi');
  assert.equal(result.tasks.other.error?.code, 'NIKA-SEC-004');
  assert.equal(result.tasks.shell.error?.code, 'NIKA-SEC-004');
  const none = await runYaml(`nika: t\npermits: {}\ntasks:\n  x:\n    exec: { command: [echo, hi] }\n`);
  assert.equal(none.result.tasks.x.error?.code, 'NIKA-SEC-004');
});

test('tools: globs with negation decide which tools may be invoked', async () => {
  const { result } = await runYaml(`nika: t
permits:
  tools: ["nika:*", "!nika:uuid"]
tasks:
  ok:
    invoke: { tool: "nika:log", args: { message: hi } }
  denied:
    invoke: { tool: "nika:uuid", args: {} }
`);
  assert.equal(result.tasks.ok.status, 'success');
  assert.equal(result.tasks.denied.error?.code, 'NIKA-SEC-004');
});

test('env: exec.env names outside the floor need a permits.env grant', async () => {
  const { result } = await runYaml(`nika: t
permits:
  exec: true
  env: [GRANTED]
tasks:
  ok:
    exec: { command: [sh, -c, 'echo $GRANTED'], env: { GRANTED: yes } }
  no:
    exec: { command: [sh, -c, 'echo $OTHER'], env: { OTHER: no } }
`);
  assert.equal(result.tasks.ok.output, 'yes');
  assert.equal(result.tasks.no.error?.code, 'NIKA-SEC-004');
});

test('draft and legacy files predate permits and are not bounded', async () => {
  const { result } = await runYaml(`nika: v1
workflow: old
tasks:
  - name: x
    exec:
      command: "echo free"
`);
  assert.equal(result.tasks.x.output, 'free');
});
