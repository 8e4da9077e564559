// The permits law of current v1 (reference §1.6): absent block, default deny per category,
// literal bounds, exec allowlists and the shell refusal, fs globs, exact hosts and the SSRF
// floor, tool globs and agent ceilings, env dead grants, drift.
import test from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import { applyFix, audit, findings, AUDIT_CODES } from './audit-helpers.js';

const NO_BLOCK = `nika: effects
inputs:
  topic: { type: string, default: tides }
tasks:
  notes:
    invoke:
      tool: nika:read
      args: { path: docs/notes.md }
  page:
    invoke:
      tool: "nika:fetch"
      args: { url: "https://api.example.com/v1/tides?q=1" }
  build:
    exec:
      command: [git, log, "-1"]
      env: { GIT_DIR: ".git", PATH: /usr/bin }
  save:
    with: { t: "\${{ tasks.notes.output }}" }
    invoke:
      tool: nika:write
      args: { path: out/summary.md, content: "\${{ with.t }}" }
`;

test('absent block + effects ⇒ one AUTH-006 on the nika: key, listing the effects', () => {
  const ds = findings(NO_BLOCK, AUDIT_CODES);
  assert.deepEqual(ds.map((d) => d.code), ['NIKA-AUTH-006']);
  const d = ds[0];
  assert.equal(NO_BLOCK.slice(d.span.start, d.span.end), 'nika');
  assert.match(d.message, /exec: git/);
  assert.match(d.message, /tools: nika:read, nika:fetch, nika:write/);
  assert.match(d.message, /fs\.read: docs\/notes\.md/);
  assert.match(d.message, /net\.http: api\.example\.com/);
});

test('the AUTH-006 fix inserts the inferred minimal block before tasks:, and the result checks clean', () => {
  const d = findings(NO_BLOCK, 'NIKA-AUTH-006')[0];
  const fixed = applyFix(NO_BLOCK, d);
  assert.ok(fixed.includes(`permits:
  fs:
    read: ["docs/notes.md"]
    write: ["out/summary.md"]
  net:
    http: ["api.example.com"]
  exec: [git]
  tools: ["nika:read", "nika:fetch", "nika:write"]
  env: [GIT_DIR]
tasks:
`), fixed);
  assert.deepEqual(audit(fixed), []);
  assert.deepEqual(analyze(fixed).diagnostics.filter((x) => x.severity === 'error'), []);
});

test('the inferred block: shell ⇒ exec: true, a runtime path is left as a comment, CRLF is kept', () => {
  const text = 'nika: s\r\ninputs:\r\n  p: { type: string }\r\ntasks:\r\n  a:\r\n    exec: { shell: "ls | wc -l" }\r\n  b:\r\n    invoke: { tool: "nika:read", args: { path: "${{ inputs.p }}" } }\r\n';
  const d = findings(text, 'NIKA-AUTH-006')[0];
  const fixed = applyFix(text, d);
  assert.ok(fixed.includes("# task b: nika:read path is known only at run time; add its fs.read glob\r\npermits:\r\n  exec: true\r\n  tools: [\"nika:read\"]\r\ntasks:\r\n"), JSON.stringify(fixed));
  // The runtime-only path is not an escape statically: the fixed file has no authority error.
  assert.deepEqual(audit(fixed).filter((x) => !x.startsWith('NIKA-SEC-004')), []);
});

test('no effect, no finding: an infer-only workflow needs no block; draft and legacy files predate the law', () => {
  assert.deepEqual(audit('nika: pure\ntasks:\n  a:\n    infer: { prompt: hi }\n'), []);
  assert.deepEqual(audit('nika: v1\nworkflow: w\ntasks:\n  - name: a\n    exec: { command: [rm, x] }\n'), []);
  assert.deepEqual(audit('schema: nika/workflow@0.4\ntasks:\n  - id: a\n    exec: "echo hi"\n'), []);
});

test('a pure builtin is an effect on the tools category (§11.5): absent block ⇒ AUTH-006; permits: {} ⇒ SEC-004 with a grant fix', () => {
  const absent = 'nika: j\ntasks:\n  a:\n    invoke: { tool: "nika:jq", args: { expression: ".", input: 1 } }\n';
  assert.deepEqual(audit(absent), ['NIKA-AUTH-006@nika']);
  const empty = absent.replace('tasks:', 'permits: {}\ntasks:');
  const [d] = findings(empty, 'NIKA-SEC-004');
  assert.equal(empty.slice(d.span.start, d.span.end), 'nika:jq');
  const fixed = applyFix(empty, d);
  assert.ok(fixed.includes('permits: { tools: ["nika:jq"] }'), fixed);
  assert.deepEqual(audit(fixed), []);
});

test('exec: allowlist checks argv[0] (bare names match a path\'s basename); shell: is refused under it', () => {
  const text = `nika: x
permits:
  exec: [git]
tasks:
  a:
    exec: { command: [/usr/bin/git, status] }
  b:
    exec: { command: [curl, "https://x"] }
  c:
    exec: { shell: "git status" }
`;
  assert.deepEqual(audit(text), ['NIKA-SEC-004@curl', 'NIKA-SEC-004@git status']);
  const [curl, shell] = findings(text, 'NIKA-SEC-004');
  assert.ok(applyFix(text, curl).includes('exec: [git, "curl"]'));
  assert.equal(shell.data?.fixes, undefined);
  assert.match(shell.message, /shell: command is refused under a permits.exec allowlist/);
});

test('exec absent or false in a present block ⇒ SEC-004; the fix turns false into the allowlist', () => {
  const text = 'nika: x\npermits:\n  exec: false\n  tools: []\ntasks:\n  a:\n    exec:\n      command:\n        - make\n        - all\n';
  const [d] = findings(text, 'NIKA-SEC-004');
  assert.equal(text.slice(d.span.start, d.span.end), 'make');
  assert.match(d.message, /permits.exec is false/);
  const fixed = applyFix(text, d);
  assert.ok(fixed.includes('exec: ["make"]'));
  assert.deepEqual(audit(fixed), []);
});

test('fs globs: gitignore-style coverage, .. resolved lexically, escapes land on the path with a grant fix', () => {
  const text = `nika: f
permits:
  fs:
    read: ["datasets/**", "docs"]
    write:
      - out/*.md
  tools: ["nika:read", "nika:write", "nika:glob", "nika:grep"]
tasks:
  a:
    invoke: { tool: "nika:read", args: { path: datasets/../datasets/q3.csv } }
  b:
    invoke: { tool: "nika:read", args: { path: ../../etc/passwd } }
  c:
    invoke: { tool: "nika:read", args: { path: docs/deep/inside.txt } }
  d:
    invoke: { tool: "nika:write", args: { path: out/sub/x.md, content: x } }
  e:
    invoke: { tool: "nika:glob", args: { pattern: "datasets/*.csv" } }
  f:
    invoke: { tool: "nika:grep", args: { pattern: x, path: secrets } }
`;
  assert.deepEqual(audit(text), ['NIKA-SEC-004@../../etc/passwd', 'NIKA-SEC-004@out/sub/x.md', 'NIKA-SEC-004@secrets']);
  const write = findings(text, 'NIKA-SEC-004')[1];
  const fixed = applyFix(text, write);
  assert.ok(fixed.includes('      - out/*.md\n      - "out/sub/x.md"\n'), fixed);
  assert.deepEqual(audit(fixed).filter((x) => x.includes('x.md')), []);
});

test('net: exact hosts, bare * admits all; *.x.com ⇒ AUTH-010; floor hosts in permits are dead grants (SEC-005)', () => {
  const text = `nika: n
permits:
  net:
    http: ["api.example.com", "*.github.com", "169.254.169.254", "10.0.0.7", "localhost"]
  tools: ["nika:fetch"]
tasks:
  a:
    invoke: { tool: "nika:fetch", args: { url: "https://API.example.com/x" } }
  b:
    invoke: { tool: "nika:fetch", args: { url: "https://raw.github.com/x" } }
  c:
    invoke: { tool: "nika:fetch", args: { url: "http://localhost:8080/health" } }
`;
  assert.deepEqual(audit(text), [
    'NIKA-SEC-004@https://raw.github.com/x',
    'NIKA-AUTH-010@*.github.com',
    'NIKA-SEC-005@169.254.169.254',
    'NIKA-SEC-005@10.0.0.7',
  ]);
  const star = text.replace('"api.example.com", "*.github.com", "169.254.169.254", "10.0.0.7", "localhost"', '"*", "localhost"');
  assert.deepEqual(audit(star), []);
});

test('SSRF floor on literal URLs: loopback needs its exact grant, private and metadata addresses never pass', () => {
  const text = `nika: s
permits:
  net: { http: ["*"] }
  tools: ["nika:fetch", "nika:notify"]
tasks:
  a:
    invoke: { tool: "nika:fetch", args: { url: "http://127.0.0.1:8787/x" } }
  b:
    invoke: { tool: "nika:fetch", args: { url: "http://169.254.169.254/latest/meta-data" } }
  c:
    invoke: { tool: "nika:notify", args: { channel: webhook, target: "http://192.168.1.20/hook", message: hi } }
  d:
    invoke: { tool: "nika:fetch", args: { url: "http://[::1]:9000/" } }
`;
  assert.deepEqual(audit(text), [
    'NIKA-SEC-005@http://127.0.0.1:8787/x',
    'NIKA-SEC-005@http://169.254.169.254/latest/meta-data',
    'NIKA-SEC-005@http://192.168.1.20/hook',
    'NIKA-SEC-005@http://[::1]:9000/',
  ]);
  // Every spelling of a floor address is judged as the address (IPv4 inside IPv6, decimal IPv4).
  const spelled = text.replace('http://127.0.0.1:8787/x', 'http://[::ffff:a9fe:a9fe]/x').replace('http://[::1]:9000/', 'http://2130706433/');
  assert.deepEqual(audit(spelled).map((x) => x.split('@')[0]), Array(4).fill('NIKA-SEC-005'));
  const granted = text.replace('http: ["*"]', 'http: ["*", "127.0.0.1", "::1"]');
  assert.deepEqual(audit(granted), ['NIKA-SEC-005@http://169.254.169.254/latest/meta-data', 'NIKA-SEC-005@http://192.168.1.20/hook']);
});

test('agent whitelists stay within permits.tools: ids and globs (* never admits **), negations respected', () => {
  const text = `nika: ag
permits:
  tools: ["mcp:fs/*", "nika:done", "mcp:web/**", "!mcp:web/admin"]
tasks:
  a:
    agent:
      prompt: go
      tools: ["mcp:fs/read", "mcp:fs/**", "nika:done", "nika:write", "mcp:web/*"]
  b:
    agent:
      prompt: go
      tools: ["mcp:web/*", "!mcp:web/admin"]
`;
  assert.deepEqual(audit(text), ['NIKA-SEC-004@mcp:fs/**', 'NIKA-SEC-004@nika:write', 'NIKA-SEC-004@mcp:web/*']);
});

test('dynamic targets: deferred under a populated category, refused when the category grants nothing', () => {
  const text = `nika: d
inputs:
  p: { type: string }
  u: { type: string }
permits:
  fs: { read: ["data/**"] }
  tools: ["nika:read", "nika:write", "nika:fetch"]
tasks:
  a:
    invoke: { tool: "nika:read", args: { path: "\${{ inputs.p }}" } }
  b:
    invoke: { tool: "nika:write", args: { path: "\${{ inputs.p }}", content: x } }
  c:
    invoke: { tool: "nika:fetch", args: { url: "\${{ inputs.u }}" } }
`;
  assert.deepEqual(audit(text), ['NIKA-SEC-004@${{ inputs.p }}', 'NIKA-SEC-004@${{ inputs.u }}']);
  assert.match(findings(text, 'NIKA-SEC-004')[0].message, /nika:write writes a path, but permits.fs.write grants none/);
});

test('AUTH-008: an input default that escapes the permit once resolved; a taint lift turns it into a plain SEC-004', () => {
  const text = `nika: t
inputs:
  p: { type: string, default: "../../etc/passwd" }
  ok: { type: string, default: "data/q3.csv" }
  prog: { type: string, default: rm }
permits:
  fs: { read: ["data/**"] }
  exec: [ls]
  tools: ["nika:read"]
tasks:
  a:
    invoke: { tool: "nika:read", args: { path: "\${{ inputs.p }}" } }
  b:
    invoke: { tool: "nika:read", args: { path: "\${{ inputs.ok }}" } }
  c:
    exec: { command: ["\${{ inputs.prog }}", "-rf", x] }
`;
  assert.deepEqual(audit(text), ['NIKA-AUTH-008@${{ inputs.p }}', 'NIKA-AUTH-008@${{ inputs.prog }}']);
  assert.match(findings(text, 'NIKA-AUTH-008')[0].message, /inputs\.p \(untrusted\) resolves to '\.\.\/\.\.\/etc\/passwd'/);
  const lifted = text.replace('args: { path: "${{ inputs.p }}" } }', 'args: { path: "${{ inputs.p }}" } }\n    lift: [{ law: taint, from: inputs.p, because: "reviewed path" }]');
  assert.deepEqual(audit(lifted), ['NIKA-SEC-004@${{ inputs.p }}', 'NIKA-AUTH-008@${{ inputs.prog }}']);
});

test('env: dangerous names are dead grants (AUTH-009); exec.env keys need no grant', () => {
  const text = 'nika: e\npermits:\n  exec: [node]\n  env: [CI_COMMIT_SHA, LD_PRELOAD, NODE_OPTIONS, DYLD_NEW_THING]\ntasks:\n  a:\n    exec:\n      command: [node, x.js]\n      env: { TOKEN_NAME: x }\n';
  assert.deepEqual(audit(text), ['NIKA-AUTH-009@LD_PRELOAD', 'NIKA-AUTH-009@NODE_OPTIONS', 'NIKA-AUTH-009@DYLD_NEW_THING']);
});

test('DRIFT-001: unused permit entries are faded hints; used ones, negations and runtime targets are not', () => {
  const text = `nika: dr
permits:
  fs: { read: ["docs/**", "unused/**"] }
  net: { http: ["api.example.com", "spare.example.com"] }
  exec: [git, make]
  tools: ["nika:read", "nika:fetch", "nika:jq", "!mcp:x/y"]
  env: [HOME_DIR]
tasks:
  a:
    invoke: { tool: "nika:read", args: { path: docs/a.md } }
  b:
    invoke: { tool: "nika:fetch", args: { url: "https://api.example.com/" } }
  c:
    exec: { command: [git, status] }
`;
  const drift = findings(text, 'NIKA-DRIFT-001');
  assert.deepEqual(drift.map((d) => text.slice(d.span.start, d.span.end)), ['unused/**', 'spare.example.com', 'make', 'nika:jq']);
  assert.ok(drift.every((d) => d.severity === 'hint' && d.tags?.includes('unnecessary')));
  const noExec = 'nika: t\npermits:\n  exec: true\n  tools: ["nika:log"]\ntasks:\n  a:\n    invoke: { tool: "nika:log", args: { message: hi } }\n';
  assert.deepEqual(findings(noExec, 'NIKA-DRIFT-001').map((d) => noExec.slice(d.span.start, d.span.end)), ['exec']);
});
