// Shared by both in-host runners: the kit's modules (installed on demand), the workspace, and the
// loopback LLM server the agent test talks to.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { startLlm } from '../lib/llm-gate.mjs';
import { REPO, makeWorkspace } from '../lib/workspace.mjs';

export { REPO };
export const E2E_HOME = process.env.E2E_HOME || path.join(os.homedir(), '.cache/nika-e2e');
export const KIT = path.join(E2E_HOME, 'kit');
export const SUITE = path.join(REPO, 'test/e2e/electron/suite/index.cjs');

/** Requires a module from the kit, installing it there first when it is missing. */
export function kitRequire(name, spec) {
  const req = createRequire(path.join(KIT, 'package.json'));
  try {
    return req(name);
  } catch {
    fs.mkdirSync(KIT, { recursive: true });
    if (!fs.existsSync(path.join(KIT, 'package.json'))) fs.writeFileSync(path.join(KIT, 'package.json'), '{"private":true}\n');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', KIT, spec], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`could not install ${spec} into ${KIT}`);
    return req(name);
  }
}

export async function prepare(work) {
  kitRequire('mocha', 'mocha@11');
  const b = spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('npm run build failed');
  const ws = makeWorkspace(path.join(work, 'ws'), `intest-${process.pid}`);
  const llm = await startLlm({ repo: REPO, script: path.join(REPO, 'test/e2e/agent-script.json'), holdFrom: Infinity, log: () => undefined });
  const log = path.join(work, 'suite.log');
  fs.rmSync(log, { force: true });
  const env = {
    NIKA_E2E_KIT: KIT, NIKA_E2E_LOG: log,
    OPENAI_API_KEY: 'sk-e2e-loopback', OPENAI_BASE_URL: llm.openaiBaseUrl, NIKA_OPENAI_BASE_URL: llm.openaiBaseUrl,
  };
  return { ws, llm, env, log };
}
