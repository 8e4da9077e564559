// Untrusted content (reference §3.2, §6, §8): exec downstream of the network (SEC-015), the
// lethal trifecta (SEC-009), code-bearing fetches (SEC-008) and the lift doors (AUTH-011).
import test from 'node:test';
import assert from 'node:assert/strict';
import { audit, findings } from './audit-helpers.js';

test('SEC-015: an exec downstream of nika:fetch through with/after edges, with the witness path', () => {
  const text = `nika: o
permits:
  net: { http: ["api.example.com"] }
  exec: [jq, date]
  tools: ["nika:fetch", "nika:log"]
tasks:
  page:
    invoke: { tool: "nika:fetch", args: { url: "https://api.example.com/x" } }
  log:
    after: { page: success }
    invoke: { tool: "nika:log", args: { message: done } }
  parse:
    after: { log: success }
    exec: { command: [jq, "."] }
  stamp:
    exec: { command: [date] }
`;
  const ds = findings(text, 'NIKA-SEC-015');
  assert.equal(ds.length, 1);
  assert.equal(text.slice(ds[0].span.start, ds[0].span.end), 'exec');
  assert.match(ds[0].message, /page → log → parse/);
});

test('SEC-009: private read + realized ingress + egress with no blocking human gate; a prompt without default on every path clears it', () => {
  const text = `nika: tri
permits:
  fs: { read: ["notes/**"], write: ["out/**"] }
  net: { http: ["api.example.com"] }
  tools: ["nika:read", "mcp:web/search", "nika:fetch", "nika:prompt"]
tasks:
  notes:
    invoke: { tool: "nika:read", args: { path: notes/today.md } }
  search:
    invoke: { tool: "mcp:web/search", args: { q: news } }
  send:
    with: { found: "\${{ tasks.search.output }}", mine: "\${{ tasks.notes.output }}" }
    invoke: { tool: "nika:fetch", args: { url: "https://api.example.com/post", method: POST, body: "\${{ with.found }} \${{ with.mine }}" } }
`;
  const ds = findings(text, 'NIKA-SEC-009');
  assert.equal(ds.length, 1);
  assert.match(ds[0].message, /untrusted content from 'search' reaches task 'send'/);
  // Dominance, not ancestry: the gate must stand on every path from the start, so it goes first.
  const gated = text.replace('tasks:\n  notes:\n    invoke:', `tasks:
  ok:
    invoke: { tool: "nika:prompt", args: { message: "Read notes and search the web, then post?" } }
  notes:
    after: { ok: success }
    invoke:`).replace('  search:\n    invoke:', '  search:\n    after: { ok: success }\n    invoke:');
  const bypass = gated.replace('  search:\n    after: { ok: success }\n', '  search:\n');
  assert.equal(findings(bypass, 'NIKA-SEC-009').length, 1);
  assert.deepEqual(findings(gated, 'NIKA-SEC-009'), []);
  // A prompt that answers itself (default:) is no human gate.
  assert.equal(findings(gated.replace('then post?" }', 'then post?", default: true }'), 'NIKA-SEC-009').length, 1);
  // Without the private-read leg the trifecta is incomplete.
  assert.deepEqual(findings(text.replace('read: ["notes/**"], ', ''), 'NIKA-SEC-009'), []);
});

test('SEC-008: a fetch of a code-bearing artifact needs lift data-as-code; the query string carries no verdict', () => {
  const text = `nika: c
permits:
  net: { http: ["models.example.com"] }
  tools: ["nika:fetch"]
tasks:
  model:
    invoke: { tool: "nika:fetch", args: { url: "https://models.example.com/m/legacy.PKL?x=1" } }
  script:
    invoke: { tool: "nika:fetch", args: { url: "https://models.example.com/install.sh" } }
  data:
    invoke: { tool: "nika:fetch", args: { url: "https://models.example.com/rows.csv?f=x.py" } }
`;
  assert.deepEqual(audit(text), ['NIKA-SEC-008@https://models.example.com/m/legacy.PKL?x=1', 'NIKA-SEC-008@https://models.example.com/install.sh']);
  const lifted = text.replace('legacy.PKL?x=1" } }', 'legacy.PKL?x=1" } }\n    lift: [{ law: data-as-code, because: "archived, never loaded" }]');
  assert.deepEqual(audit(lifted), ['NIKA-SEC-008@https://models.example.com/install.sh']);
});

test('AUTH-011: a lift that lifts nothing (unread binding, trusted const, inert fetch); live doors and deferred surfaces pass', () => {
  const text = `nika: l
inputs:
  p: { type: string, default: "vendor/q3.csv" }
const:
  q: "datasets/q3.csv"
permits:
  fs: { read: ["datasets/**", "vendor/**"] }
  net: { http: ["data.example.com"] }
  tools: ["nika:read", "nika:fetch"]
tasks:
  unused:
    invoke: { tool: "nika:read", args: { path: "\${{ const.q }}" } }
    lift: [{ law: taint, from: inputs.p, because: "author-baked" }]
  trusted:
    invoke: { tool: "nika:read", args: { path: "\${{ const.q }}" } }
    lift: [{ law: taint, from: const.q, because: "constant" }]
  live:
    invoke: { tool: "nika:read", args: { path: "\${{ inputs.p }}" } }
    lift: [{ law: taint, from: inputs.p, because: "vendor inventory path" }]
  inert:
    invoke: { tool: "nika:fetch", args: { url: "https://data.example.com/rows.csv" } }
    lift: [{ law: data-as-code, because: "inert csv" }]
  deferred:
    with: { x: "\${{ tasks.live.output }}" }
    invoke: { tool: "nika:read", args: { path: "\${{ with.x }}" } }
    lift: [{ law: taint, from: inputs.p, because: "run-time re-check" }]
`;
  const ds = findings(text, 'NIKA-AUTH-011');
  assert.deepEqual(ds.map((d) => d.message.match(/Task '(\w+)'/)![1]), ['unused', 'trusted', 'inert']);
  assert.ok(ds.every((d) => text.slice(d.span.start, d.span.end) === 'law'));
});
