// npm run test:e2e:electron — the in-host suite (suite/*.test.cjs) in a real desktop VS Code
// downloaded by @vscode/test-electron. Needs a machine that can download VS Code, and a display
// (on a headless Linux box: xvfb-run -a npm run test:e2e:electron). Not run in CI here: CI cannot
// download VS Code; npm run test:e2e:incs runs the same suite inside code-server instead.
//   env: VSCODE_VERSION (stable)  E2E_HOME (~/.cache/nika-e2e, where @vscode/test-electron goes)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO, SUITE, kitRequire, prepare } from './common.mjs';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nika-e2e-electron-'));
const { runTests } = kitRequire('@vscode/test-electron', '@vscode/test-electron@2');
const { ws, llm, env, log } = await prepare(work);
let code = 1;
try {
  code = await runTests({
    version: process.env.VSCODE_VERSION || 'stable',
    extensionDevelopmentPath: REPO,
    extensionTestsPath: SUITE,
    extensionTestsEnv: env,
    launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--user-data-dir', path.join(work, 'ud')],
  }).then(() => 0, (e) => { console.error(String(e)); return 1; });
} finally {
  await llm.close();
  if (fs.existsSync(log)) process.stdout.write(fs.readFileSync(log, 'utf8'));
}
process.exit(code);
