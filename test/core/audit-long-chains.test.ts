// Long chains: the whole-graph audits (SEC-015 witnesses, SEC-009 gate dominance, secret trails)
// keep their verdicts and messages on thousands of tasks, where each once re-walked the graph per task.
import test from 'node:test';
import assert from 'node:assert/strict';
import { findings } from './audit-helpers.js';

function execChain(n: number, opts: { gateAt?: number; secret?: boolean } = {}): string {
  const lines = [
    'nika: long',
    ...(opts.secret ? ['secrets:', '  tok: { source: env, key: TOK }'] : []),
    'permits:',
    '  fs: { read: ["data/**"] }',
    '  net: { http: ["api.example.com"] }',
    '  exec: [printf]',
    '  tools: ["nika:fetch", "nika:prompt"]',
    'tasks:',
    '  t0:',
    `    invoke: { tool: "nika:fetch", args: { url: "https://api.example.com/${opts.secret ? '${{ secrets.tok }}' : 'x'}" } }`,
  ];
  for (let i = 1; i < n; i++) {
    lines.push(`  t${i}:`, `    with: { prev: "\${{ tasks.t${i - 1}.output }}" }`);
    // A side edge two back: dominance must come from the gate, not from a single-parent chain.
    if (i % 3 === 0 && i >= 2) lines.push(`    after: { t${i - 2}: success }`);
    lines.push(i === opts.gateAt ? '    invoke: { tool: "nika:prompt", args: { message: "go on with ${{ with.prev }}?" } }' : '    exec: { command: [printf, "${{ with.prev }}"] }');
  }
  return lines.join('\n') + '\n';
}

test('SEC-015 on a 2,000-task exec chain: every exec is reported, with a witness elided to its ends', () => {
  const ds = findings(execChain(2000), 'NIKA-SEC-015');
  assert.equal(ds.length, 1999);
  assert.match(ds[0].message, /exec task 't1' runs downstream of network task 't0' \(t0 → t1\)/);
  assert.match(ds[1998].message, /exec task 't1999' runs downstream of network task 't0' \(t0 → t1 → t2 → … → t1997 → t1998 → t1999\)/);
});

test('SEC-009 on a long chain: a prompt on every path silences every task after it and none before it', () => {
  const open = findings(execChain(1500), 'NIKA-SEC-009');
  assert.equal(open.length, 1499);
  const gated = findings(execChain(1500, { gateAt: 700 }), 'NIKA-SEC-009').map((d) => /task '(t\d+)'/.exec(d.message)?.[1]);
  assert.deepEqual(gated, Array.from({ length: 699 }, (_, i) => `t${i + 1}`));
});

test('A secret carried down a long exec chain is reported at each exec with its trail elided', () => {
  const ds = findings(execChain(1200, { secret: true }), 'NIKA-SEC-006');
  assert.equal(ds.length, 1200);
  assert.match(ds[1199].message, /\(secrets\.tok → tasks\.t0\.output → with\.prev → … → tasks\.t1198\.output → with\.prev → exec\)/);
});
