// The same in-host suite inside code-server's Node extension host, the way @vscode/test-electron
// does it with Electron: extensionDevelopmentPath + extensionTestsPath in the workbench URL's
// payload (honoured only with the enable-smoke-test-driver flag), and the exit code reported
// through window.codeAutomationExit. Proves the suite on machines that cannot download VS Code.
//   npm run test:e2e:incs        env: E2E_HOME  CHROME (/usr/bin/chromium)  TIMEOUT_MS (300000)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { E2E_HOME, REPO, SUITE, kitRequire, prepare } from './common.mjs';

const HERE = path.join(REPO, 'test/e2e');
const work = path.join(process.env.E2E_WORK || path.join(os.tmpdir(), 'nika-e2e'), 'in-host');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
const { chromium } = kitRequire('playwright-core', 'playwright-core@1');
const { ws, llm, env, log } = await prepare(work);
const port = await new Promise((r) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
const csDir = path.join(work, 'cs');
const start = spawnSync(path.join(HERE, 'start-code-server.sh'), [csDir, String(port), ws], {
  env: { ...process.env, E2E_HOME, ...env, TRUST: '1', CS_EXTRA_ARGS: '--vscode-option enable-smoke-test-driver' }, stdio: 'inherit',
});
let code = 'not started';
if (start.status === 0) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'nika-e2e-chrome-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME || '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    let done;
    const exited = new Promise((r) => (done = r));
    await page.exposeFunction('codeAutomationExit', (c) => done(c));
    const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
    const payload = JSON.stringify([['extensionDevelopmentPath', remote(REPO)], ['extensionTestsPath', remote(SUITE)]]);
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(payload)}`);
    let timer;
    code = await Promise.race([exited, new Promise((r) => { timer = setTimeout(() => r('timeout'), Number(process.env.TIMEOUT_MS || 300_000)); })]);
    clearTimeout(timer);
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
execFileSync(path.join(HERE, 'stop-code-server.sh'), [csDir]);
await llm.close();
if (fs.existsSync(log)) process.stdout.write(fs.readFileSync(log, 'utf8'));
console.log(`in-host suite: exit code ${code}${code === 0 ? '' : ` (code-server log: ${csDir}/cs.log)`}`);
process.exit(code === 0 ? 0 : 1);
