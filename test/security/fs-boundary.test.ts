// The permits fs boundary through the CLI, as an attacker-controlled workflow would try it: `..`,
// absolute paths and symlinks (file and directory) with every file builtin and exec's cwd.
// Paths arrive through --var so the static check cannot see them: the run-time boundary must hold.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOnce, runCli, tempDir, writeWorkflow } from '../support/processes.js';

before(buildOnce);

const SECRET = 'TOP-SECRET-outside-the-workspace';

function layout() {
  const root = tempDir('nika-fs-');
  const outside = join(root, 'outside');
  const ws = join(root, 'ws');
  for (const d of [outside, join(ws, 'data'), join(ws, 'out')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  writeFileSync(join(ws, 'data', 'ok.txt'), 'inside');
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'data', 'link.txt'));
  symlinkSync(outside, join(ws, 'data', 'linkdir'));
  symlinkSync(outside, join(ws, 'out', 'linkdir'));
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'out', 'linkfile.txt'));
  return { root, outside, ws };
}

const VARS = ['dotdot', 'abs', 'wdotdot', 'wabs', 'cwd_up', 'cwd_abs', 'globup'];

test('file builtins and exec cwd refuse .., absolute paths and symlink escapes with NIKA-SEC-004', { timeout: 60_000 }, async () => {
  const { outside, ws } = layout();
  const file = writeWorkflow(`nika: escape
model: mock/echo
inputs:
${VARS.map((v) => `  ${v}: { type: string }`).join('\n')}
permits:
  fs: { read: ["data/**", "out/**"], write: ["out/**"] }
  exec: [pwd, cat]
  tools: ["nika:read", "nika:write", "nika:edit", "nika:glob", "nika:grep"]
tasks:
  read_ok:       { invoke: { tool: "nika:read", args: { path: data/ok.txt } } }
  read_dotdot:   { invoke: { tool: "nika:read", args: { path: "\${{ inputs.dotdot }}" } } }
  read_abs:      { invoke: { tool: "nika:read", args: { path: "\${{ inputs.abs }}" } } }
  read_link:     { invoke: { tool: "nika:read", args: { path: data/link.txt } } }
  read_linkdir:  { invoke: { tool: "nika:read", args: { path: data/linkdir/secret.txt } } }
  write_dotdot:  { invoke: { tool: "nika:write", args: { path: "\${{ inputs.wdotdot }}", content: pwned } } }
  write_abs:     { invoke: { tool: "nika:write", args: { path: "\${{ inputs.wabs }}", content: pwned } } }
  write_linkdir: { invoke: { tool: "nika:write", args: { path: out/linkdir/planted.txt, content: pwned } } }
  write_link:    { invoke: { tool: "nika:write", args: { path: out/linkfile.txt, content: pwned } } }
  edit_link:     { invoke: { tool: "nika:edit", args: { path: out/linkfile.txt, find: TOP, replace: PWNED } } }
  glob_up:       { invoke: { tool: "nika:glob", args: { pattern: "\${{ inputs.globup }}" } } }
  glob_abs:      { invoke: { tool: "nika:glob", args: { pattern: "\${{ inputs.abs }}" } } }
  glob_through:  { invoke: { tool: "nika:glob", args: { pattern: "data/**" } } }
  grep_up:       { invoke: { tool: "nika:grep", args: { pattern: TOP, path: "\${{ inputs.dotdot }}" } } }
  grep_through:  { invoke: { tool: "nika:grep", args: { pattern: TOP, path: data } } }
  exec_cwd_up:   { exec: { command: [pwd], cwd: "\${{ inputs.cwd_up }}" } }
  exec_cwd_abs:  { exec: { command: [pwd], cwd: "\${{ inputs.cwd_abs }}" } }
  exec_cwd_link: { exec: { command: [cat, secret.txt], cwd: data/linkdir } }
`, {}, ws);
  const vars = {
    dotdot: '../outside/secret.txt', abs: join(outside, 'secret.txt'), wdotdot: 'out/../../outside/planted.txt',
    wabs: join(outside, 'planted2.txt'), cwd_up: '..', cwd_abs: outside, globup: '../outside/*',
  };
  const r = await runCli(['run', file, '--json', ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`])], { cwd: ws });
  const last = r.events.at(-1);
  assert.ok(last?.tasks, `exit ${r.code}\n${r.out}${r.err}`);
  const tasks = last.tasks as Record<string, { status: string; output?: unknown; error?: { code: string; message: string } }>;
  assert.equal(tasks.read_ok!.status, 'success', JSON.stringify(tasks.read_ok));
  assert.equal(tasks.read_ok!.output, 'inside');
  const refused = ['read_dotdot', 'read_abs', 'read_link', 'read_linkdir', 'write_dotdot', 'write_abs', 'write_linkdir', 'write_link', 'edit_link', 'glob_up', 'glob_abs', 'grep_up', 'exec_cwd_up', 'exec_cwd_abs', 'exec_cwd_link'];
  const wrong = refused.filter((t) => tasks[t]?.error?.code !== 'NIKA-SEC-004').map((t) => `${t}: ${JSON.stringify(tasks[t])}`);
  assert.deepEqual(wrong, [], 'every escape is refused with NIKA-SEC-004');
  // Walking a granted folder does not follow a symlink out of it.
  for (const t of ['glob_through', 'grep_through']) {
    const out = JSON.stringify(tasks[t]);
    assert.ok(!/secret\.txt|TOP-SECRET/.test(out), `${t} reached outside: ${out}`);
  }
  // Nothing outside changed, and the secret was never printed.
  assert.deepEqual(readdirSync(outside), ['secret.txt']);
  assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), SECRET);
  assert.ok(!(r.out + r.err).includes(SECRET));
});

test('the same escapes written as literals are refused before the run by the check (exit 2, NIKA-SEC-004)', { timeout: 60_000 }, async () => {
  const { outside, ws } = layout();
  const file = writeWorkflow(`nika: literal-escape
model: mock/echo
permits:
  fs: { read: ["data/**"], write: ["out/**"] }
  tools: ["nika:read", "nika:write", "nika:glob"]
tasks:
  up:   { invoke: { tool: "nika:read", args: { path: ../outside/secret.txt } } }
  abs:  { invoke: { tool: "nika:write", args: { path: ${JSON.stringify(join(outside, 'x.txt'))}, content: x } } }
  glob: { invoke: { tool: "nika:glob", args: { pattern: "../outside/*" } } }
`, {}, ws);
  const r = await runCli(['run', file], { cwd: ws });
  assert.equal(r.code, 2, r.out + r.err);
  assert.equal((r.err.match(/NIKA-SEC-004/g) ?? []).length >= 3, true, r.err);
  assert.deepEqual(readdirSync(outside), ['secret.txt']);
});
