// The CLI as a user runs it: the bundled dist/cli.js in a child process.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { buildOnce } from '../support/processes.js';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gone, tempDir } from './helpers.js';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

before(() => {
  buildOnce();
});

function nika(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: opts.cwd ?? root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...opts.env }, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function writeWf(yaml: string): string {
  const dir = tempDir();
  const file = join(dir, 'wf.nika.yaml');
  writeFileSync(file, yaml);
  return file;
}

const BROKEN = 'nika: Bad_Name\ntasks:\n  a:\n    infer: { prompt: hi }\n    exec: { command: [echo] }\n';

test('check: 0 when clean, 2 with findings, and the JSON shape of the contract', () => {
  assert.equal(nika(['check', 'examples/hello.nika.yaml']).code, 0);
  const bad = writeWf(BROKEN);
  const r = nika(['check', bad]);
  assert.equal(r.code, 2);
  assert.match(r.out, /NIKA-PARSE-003/);
  const j = nika(['check', '--json', bad, 'examples/hello.nika.yaml']);
  assert.equal(j.code, 2);
  const parsed = JSON.parse(j.out) as { files: Array<{ path: string; dialect: string; diagnostics: Array<{ code: string; severity: string; message: string; range: { start: { line: number; character: number } } }> }> };
  assert.equal(parsed.files.length, 2);
  const d = parsed.files[0].diagnostics.find((x) => x.code === 'NIKA-PARSE-003')!;
  assert.equal(d.severity, 'error');
  assert.equal(d.range.start.line, 0);
  assert.equal(parsed.files[1].dialect, 'v1');
});

test('check: deprecation warnings of an older dialect fail only under --strict', () => {
  const r = nika(['check', 'examples/legacy.nika.yaml']);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /warning/);
  assert.equal(nika(['check', '--strict', 'examples/legacy.nika.yaml']).code, 2);
});

test('run: human output with task lines and outputs; --var reaches inputs', () => {
  const r = nika(['run', 'examples/hello.nika.yaml', '--model', 'mock/echo', '--var', 'name=Ada']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /✓ greet/);
  assert.match(r.out, /mock\(echo\) · Write a one-line greeting for Ada\./);
  assert.match(r.out, /✓ succeeded/);
  assert.match(r.out, /"banner": "\*\*\* mock\(echo\)/);
});

test('run --json prints one event per line, from workflow_started to workflow_completed', () => {
  const r = nika(['run', 'examples/hello.nika.yaml', '--json']);
  assert.equal(r.code, 0, r.err);
  const events = r.out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; run_id: string; ts: number });
  assert.equal(events[0].type, 'workflow_started');
  assert.equal(events.at(-1)!.type, 'workflow_completed');
  assert.ok(events.every((e) => e.run_id === events[0].run_id && typeof e.ts === 'number'));
});

test('run exit codes: 1 when the workflow fails, 2 when the check refuses it (naming the codes) or a --var is wrong', () => {
  const failing = writeWf('nika: t\npermits: { exec: true }\ntasks:\n  a:\n    exec: { shell: "exit 3" }\n');
  const f = nika(['run', failing]);
  assert.equal(f.code, 1);
  assert.match(f.out, /NIKA-EXEC-001/);
  const refused = nika(['run', writeWf(BROKEN)]);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /refused by check: .*NIKA-PARSE-003/);
  const badVar = nika(['run', 'examples/hello.nika.yaml', '--var', 'nope=1']);
  assert.equal(badVar.code, 2);
  assert.match(badVar.err, /'nope' is not declared/);
});

test('run --task runs the task and its upstream only', () => {
  const r = nika(['run', 'examples/hello.nika.yaml', '--task', 'banner', '--json']);
  assert.equal(r.code, 0, r.err);
  const started = r.out.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'task_started').map((e) => e.task_id);
  assert.deepEqual(started, ['greet', 'banner']);
});

test('secret values are never printed', () => {
  // The flows are sanctioned (egress), so the check passes and the run itself must mask the value.
  const file = writeWf('nika: t\nsecrets:\n  k: { source: env, key: CLI_TEST_SECRET, egress: [{ to: exec }, { to: outputs }] }\npermits: { exec: [echo] }\ntasks:\n  a:\n    exec: { command: [echo, "key=${{ secrets.k }}"] }\noutputs:\n  o: ${{ tasks.a.output }}\n');
  for (const mode of [[], ['--json']]) {
    const r = nika(['run', file, ...mode], { env: { CLI_TEST_SECRET: 'hunter2-very-secret' } });
    assert.equal(r.code, 0, r.err);
    assert.ok(!(r.out + r.err).includes('hunter2-very-secret'));
    assert.match(r.out, /key=\*\*\*/);
  }
});

test('SIGINT stops the run with exit 130 after its children are gone', async () => {
  const file = writeWf('nika: t\npermits: { exec: true }\ntasks:\n  long:\n    exec: { shell: "sleep 60 & echo $! > sleep.pid; echo $$ > sh.pid; wait" }\n');
  const dir = join(file, '..');
  const child = spawn(process.execPath, [cli, 'run', file, '--json'], { env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      try { readFileSync(join(dir, 'sleep.pid')); readFileSync(join(dir, 'sh.pid')); clearInterval(check); resolve(); } catch { /* not yet */ }
    }, 50);
  });
  child.kill('SIGINT');
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  assert.equal(code, 130);
  assert.match(out, /"type":"workflow_cancelled"/);
  for (const f of ['sleep.pid', 'sh.pid']) assert.ok(await gone(Number(readFileSync(join(dir, f), 'utf8'))), f);
});

test('init creates projects that check clean and run offline', () => {
  for (const template of ['basic', 'pipeline']) {
    const dir = join(tempDir(), 'proj');
    assert.equal(nika(['init', dir, '--template', template]).code, 0);
    const wf = join(dir, 'workflows', template === 'basic' ? 'hello.nika.yaml' : 'pipeline.nika.yaml');
    assert.equal(nika(['check', wf]).code, 0, template);
    const r = nika(['run', wf]);
    assert.equal(r.code, 0, `${template}: ${r.out}${r.err}`);
  }
  const agentDir = join(tempDir(), 'agent');
  assert.equal(nika(['init', agentDir, '--template', 'agent']).code, 0);
  assert.ok(JSON.parse(readFileSync(join(agentDir, '.mcp.json'), 'utf8')).mcpServers.everything);
  assert.equal(nika(['check', join(agentDir, 'workflows', 'agent.nika.yaml')]).code, 0);
});

test('mcp list shows servers and their tools; the MCP agent example runs against server-everything', () => {
  const cfg = join(tempDir(), 'mcp.json');
  writeFileSync(cfg, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
  const l = nika(['mcp', 'list', '--json', '--mcp-config', cfg], { cwd: tempDir() });
  assert.equal(l.code, 0, l.err);
  const listed = JSON.parse(l.out) as { servers: Array<{ name: string; status: string; tools: Array<{ name: string }> }> };
  assert.equal(listed.servers[0].status, 'connected');
  assert.ok(listed.servers[0].tools.some((t) => t.name === 'echo'));
  const r = nika(['run', 'examples/agent-mcp.nika.yaml']);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /mcp:everything\/echo/);
  assert.match(r.out, /Echo: /);
});

test('every example runs offline on mock/echo', () => {
  for (const f of ['hello', 'pipeline', 'files', 'draft', 'legacy']) {
    const r = nika(['run', `examples/${f}.nika.yaml`, '--model', 'mock/echo']);
    assert.equal(r.code, 0, `${f}: ${r.out}${r.err}`);
  }
});
