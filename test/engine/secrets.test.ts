// Secret values never appear in any event or in the run result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runYaml, tempDir } from '../cli/helpers.js';

const TOKEN = 'sk-test-4f9a8b7c6d5e';
const FILE_SECRET = 'file-secret-value-xyz';

test('env and file secrets are usable by tasks and masked in every event', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'key.txt'), FILE_SECRET + '\n');
  const { result, events } = await runYaml(`nika: t
model: mock/echo
secrets:
  token: { source: env, key: MY_TOKEN }
  other: { source: file, path: key.txt }
permits:
  exec: true
  tools: ["nika:log"]
tasks:
  show:
    exec: { command: [echo, "token=\${{ secrets.token }} other=\${{ secrets.other }}"] }
  think:
    infer: { prompt: "the key is \${{ secrets.token }}" }
  log:
    invoke: { tool: "nika:log", args: { message: "\${{ secrets.other }}" } }
  fail:
    exec: { shell: "echo \${{ secrets.token }} >&2; exit 1" }
  length:
    with: { n: "\${{ size(secrets.token) }}" }
    exec: { command: [echo, "\${{ with.n }}"] }
outputs:
  leaked: \${{ tasks.show.output }}
`, { dir, env: { ...process.env, MY_TOKEN: TOKEN } });
  const all = JSON.stringify(events) + JSON.stringify(result);
  assert.ok(!all.includes(TOKEN), 'env secret leaked');
  assert.ok(!all.includes(FILE_SECRET), 'file secret leaked');
  assert.equal(result.tasks.show.output, 'token=*** other=***');
  assert.equal(result.tasks.length.output, String(TOKEN.length), 'the task really saw the value');
  assert.match(result.tasks.fail.error!.message, /\*\*\*/);
});

test('an unavailable secret fails only the tasks that read it; vault is a clear run-time error', async () => {
  const { result } = await runYaml(`nika: t
secrets:
  missing: { source: env, key: NOT_SET_ANYWHERE_123 }
  v: { source: vault, key: x }
permits:
  exec: true
tasks:
  uses:
    exec: { command: [echo, "\${{ secrets.missing }}"] }
  vault:
    exec: { command: [echo, "\${{ secrets.v }}"] }
  free:
    exec: { command: [echo, fine] }
`, { env: { PATH: process.env.PATH } });
  assert.equal(result.tasks.uses.status, 'failure');
  assert.match(result.tasks.uses.error!.message, /NOT_SET_ANYWHERE_123 is not set/);
  assert.match(result.tasks.vault.error!.message, /vault is not supported/);
  assert.equal(result.tasks.free.output, 'fine');
});
