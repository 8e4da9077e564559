// Runs every test/**/*.test.ts with node's test runner (through tsx). Usage:
//   node test/run.mjs [substring …]   only files whose path contains one of the substrings
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') continue;
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(relative(root, p));
  }
})(join(root, 'test'));
const chosen = files.filter((f) => filters.length === 0 || filters.some((s) => f.includes(s))).sort();
if (chosen.length === 0) { console.error('no test files matched'); process.exit(1); }
// Build the bundles once, before any test file runs: suites exercise dist/ as users run it.
const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
if (b.status !== 0) process.exit(b.status ?? 1);
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...chosen], {
  cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '', NIKA_TEST_BUILT: '1' },
});
process.exit(r.status ?? 1);
