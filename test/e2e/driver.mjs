// The e2e driver: the packaged extension in a real VS Code (code-server, Node extension host),
// driven headless in Chromium with playwright-core. It starts the loopback LLM server, a trusted
// code-server for journeys 1–5 and an untrusted one for journey 6, runs each journey (one failing
// does not stop the others), keeps screenshots, stops everything it started, and exits 1 when a
// journey failed.
//   node test/e2e/driver.mjs      env: VSIX (required)  WORK (scratch dir)  E2E_HOME (the kit)
//     CHROME (/usr/bin/chromium)  TIMEOUT_MS (per wait, 90000)  ONLY (e.g. "1,3,6")
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLlm } from './lib/llm-gate.mjs';
import { processGroup, processesWithMark } from './lib/procs.mjs';
import { Ui } from './lib/ui.mjs';
import { makeWorkspace } from './lib/workspace.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const E2E_HOME = process.env.E2E_HOME || path.join(os.homedir(), '.cache/nika-e2e');
const WORK = path.resolve(process.env.WORK || path.join(os.tmpdir(), 'nika-e2e'));
const SHOTS = path.join(WORK, 'shots');
const VSIX = path.resolve(process.env.VSIX || path.join(REPO, 'nika-workflows.vsix'));
const TIMEOUT = Number(process.env.TIMEOUT_MS || 90_000);
const ONLY = process.env.ONLY ? new Set(process.env.ONLY.split(',').map((s) => s.trim())) : undefined;
// playwright-core lives in the kit, outside the repository (install.sh puts it there).
const { chromium } = createRequire(path.join(E2E_HOME, 'kit/package.json'))('playwright-core');

const t0 = Date.now();
const stamp = () => `[${String(((Date.now() - t0) / 1000).toFixed(1)).padStart(6)} s]`;
const log = (...a) => console.log(stamp(), ...a);

const JOURNEYS = [
  { n: 1, file: '1-diagnostic-quickfix.mjs', phase: 'trusted' },
  { n: 2, file: '2-mcp-completion.mjs', phase: 'trusted' },
  { n: 4, file: '4-mcp-explorer.mjs', phase: 'trusted' },
  { n: 3, file: '3-run-task.mjs', phase: 'trusted' },
  { n: 5, file: '5-agent-inline.mjs', phase: 'trusted' },
  { n: 6, file: '6-untrusted.mjs', phase: 'untrusted' },
].filter((j) => !ONLY || ONLY.has(String(j.n)));

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

function startCodeServer(name, ws, env) {
  const dir = path.join(WORK, name);
  return freePort().then((port) => {
    const r = spawnSync(path.join(HERE, 'start-code-server.sh'), [dir, String(port), ws, VSIX], {
      env: { ...process.env, E2E_HOME, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    });
    process.stdout.write(r.stdout);
    if (r.status !== 0) throw new Error(`code-server (${name}) did not start:\n${r.stdout}${r.stderr}`);
    const pgid = Number(fs.readFileSync(path.join(dir, 'cs.pid'), 'utf8'));
    return { dir, port, pgid, url: `http://127.0.0.1:${port}`, stop: () => execFileSync(path.join(HERE, 'stop-code-server.sh'), [dir]) };
  });
}

async function openWorkbench(page, cs, ws) {
  await page.goto(`${cs.url}/?folder=${encodeURIComponent(ws)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: Math.max(TIMEOUT, 180_000) });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'run.nika.yaml' }).first().waitFor({ timeout: Math.max(TIMEOUT, 180_000) });
  log(`workbench ready on ${cs.url} (${ws})`);
}

const results = [];
async function runJourney(j, page, extra) {
  const mod = await import(path.join(HERE, 'journeys', j.file));
  const ui = new Ui(page, log);
  let shotNo = 0;
  const shot = async (name) => {
    const file = path.join(SHOTS, `J${j.n}-${String(++shotNo).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file });
  };
  const check = (ok, msg) => {
    if (!ok) throw new Error(`check failed: ${msg}`);
    log(`  ok: ${msg}`);
  };
  const started = Date.now();
  log(`journey ${j.n}: ${mod.title}`);
  try {
    await mod.run({ ui, page, check, shot, ...extra });
    results.push({ n: j.n, title: mod.title, ok: true, seconds: (Date.now() - started) / 1000 });
    log(`journey ${j.n}: PASS`);
  } catch (e) {
    const base = path.join(SHOTS, `J${j.n}-FAILED`);
    await page.screenshot({ path: `${base}.png` }).catch(() => undefined);
    fs.writeFileSync(`${base}.html`, await page.content().catch(() => ''));
    results.push({ n: j.n, title: mod.title, ok: false, seconds: (Date.now() - started) / 1000, error: e.message.split('\n')[0], shot: `${base}.png` });
    log(`journey ${j.n}: FAIL — ${e.message}`);
    log(`  screenshot: ${base}.png (page HTML next to it)`);
  }
  // Leave a clean editor area for the next journey whatever happened.
  await ui.resetEditors().catch(async (e) => {
    log(`  (reset after journey ${j.n} failed: ${e.message.split('\n')[0]}; see J${j.n}-reset.png)`);
    await page.screenshot({ path: path.join(SHOTS, `J${j.n}-reset.png`) }).catch(() => undefined);
  });
}

async function main() {
  // Nothing from an earlier run may be mistaken for this one's (shots, code-server logs).
  for (const d of ['shots', 'cs-trusted', 'cs-untrusted']) fs.rmSync(path.join(WORK, d), { recursive: true, force: true });
  fs.mkdirSync(SHOTS, { recursive: true });
  if (!fs.existsSync(VSIX)) throw new Error(`no VSIX at ${VSIX} (npm run package)`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'nika-e2e-chrome-'));
  const cleanups = [() => fs.rmSync(profile, { recursive: true, force: true })];
  try {
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROME || '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1400, height: 900 },
    });
    cleanups.unshift(() => browser.close());
    browser.setDefaultTimeout(TIMEOUT);
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.on('pageerror', (e) => log('[pageerror]', e.message.split('\n')[0]));
    log('browser launched');

    const trusted = JOURNEYS.filter((j) => j.phase === 'trusted');
    if (trusted.length) {
      const mark = `trusted-${process.pid}`;
      const ws = makeWorkspace(path.join(WORK, 'ws-trusted'), mark);
      const gate = await startLlm({ repo: REPO, script: path.join(HERE, 'agent-script.json'), log });
      cleanups.unshift(() => gate.close());
      log(`loopback LLM server (gated) at ${gate.openaiBaseUrl}`);
      const cs = await startCodeServer('cs-trusted', ws, {
        TRUST: '1', OPENAI_API_KEY: 'sk-e2e-loopback', OPENAI_BASE_URL: gate.openaiBaseUrl, NIKA_OPENAI_BASE_URL: gate.openaiBaseUrl,
      });
      cleanups.unshift(() => cs.stop());
      await openWorkbench(page, cs, ws);
      for (const j of trusted) await runJourney(j, page, { gate, mark, processesWithMark, processGroup: () => processGroup(cs.pgid) });
      await page.goto('about:blank');
      cs.stop();
      await gate.close();
    }

    for (const j of JOURNEYS.filter((x) => x.phase === 'untrusted')) {
      const mark = `untrusted-${process.pid}`;
      const ws = makeWorkspace(path.join(WORK, 'ws-untrusted'), mark);
      const cs = await startCodeServer('cs-untrusted', ws, { TRUST: '0' });
      cleanups.unshift(() => cs.stop());
      await openWorkbench(page, cs, ws);
      await runJourney(j, page, { mark, processesWithMark, processGroup: () => processGroup(cs.pgid) });
      await page.goto('about:blank');
      cs.stop();
    }
  } finally {
    for (const c of cleanups) {
      try { await c(); } catch { /* already stopped */ }
    }
  }
}

let crashed;
try {
  await main();
} catch (e) {
  crashed = e;
  log(`e2e driver error: ${e.stack ?? e}`);
}
console.log('\n=== e2e journeys ===');
for (const r of results.sort((a, b) => a.n - b.n)) {
  console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.n}. ${r.title.padEnd(26)} ${r.seconds.toFixed(1).padStart(6)} s${r.ok ? '' : `  — ${r.error}\n      ${r.shot}`}`);
}
const failed = !!crashed || results.some((r) => !r.ok) || results.length !== JOURNEYS.length;
console.log(`screenshots: ${SHOTS}`);
console.log(`${failed ? 'FAILED' : 'PASSED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
fs.writeFileSync(path.join(WORK, 'results.json'), JSON.stringify({ ok: !failed, results }, null, 2));
process.exit(failed ? 1 : 0);
