// The audit checks keep per-task facts across keystrokes (effects, escapes, permit usage, order
// and taint facts) and some run on changed tasks only: edits to exactly what they read from other
// tasks or from the envelope must still give the findings of a full analysis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../core/analyze.js';
import { IncrementalAnalyzer } from '../../core/incremental/analyzer.js';
import { generateWorkflow } from '../../bench/generate.js';
import { diagKey, randomEdit as userEdit, rng } from './incremental-helpers.js';

/** What users type, with the audit's triggers (secrets, fetches, new exec tasks). */
const PIECES = ['x', ' ', '"', '\n', '${{ tasks.', ' }}', '${{ secrets.KEY }}', '${{ tasks.get.output }}', '\n    with: { a: "${{ tasks.step_0001.output }}" }', '\n  new_task:\n    exec: "echo hi"', '\n  f:\n    invoke: { tool: "nika:fetch", args: { url: "https://x.org/a.py" } }'];
const randomEdit = (text: string, r: () => number) => userEdit(text, r, PIECES);

function assertSame(inc: Analysis, text: string, label: string): void {
  assert.deepEqual(diagKey(inc), diagKey(analyze(text)), label);
}

// Every audit check has something to say here; `permits:` sits after `tasks:`, so quick fixes
// that edit it move when a task above it grows.
const BASE = `nika: audit-fixture
model: mock/echo
inputs:
  host: { type: string, default: "example.com" }
secrets:
  KEY: { source: env, key: KEY }
  TOKEN: { source: env, key: TOKEN, egress: [{ to: "nika:log" }] }
tasks:
  get:
    invoke:
      tool: "nika:fetch"
      args: { url: "https://example.com/data.json" }
  script:
    lift: [{ law: data-as-code, because: "kept as data" }]
    invoke:
      tool: "nika:fetch"
      args: { url: "https://example.com/run.sh" }
  local:
    invoke:
      tool: "nika:fetch"
      args: { url: "http://169.254.169.254/latest" }
  run:
    with: { page: "\${{ tasks.get.output }}" }
    exec:
      command: [printf, "%s", "\${{ with.page }}"]
  signed:
    with: { k: "\${{ secrets.KEY }}" }
    invoke:
      tool: "nika:log"
      args: { message: "\${{ with.k }}" }
  hashed:
    invoke:
      tool: "nika:hash"
      args: { key: "\${{ secrets.KEY }}", content: "x" }
  badhash:
    invoke:
      tool: "nika:hash"
      args: { key: "literal", content: "x" }
  downstream:
    with: { s: "\${{ tasks.signed.output }}" }
    exec:
      command: [curl, "\${{ with.s }}"]
  tokened:
    invoke:
      tool: "nika:log"
      args: { message: "\${{ secrets.TOKEN }}" }
  lifted:
    lift: [{ law: taint, from: inputs.nope, because: "reviewed" }]
    infer: { prompt: "Summarize \${{ inputs.host }}" }
  writer:
    with: { page: "\${{ tasks.get.output }}" }
    invoke:
      tool: "nika:write"
      args: { path: "/etc/out.txt", content: "\${{ with.page }}" }
  reader:
    invoke:
      tool: "nika:read"
      args: { path: "docs/readme.md" }
  agent:
    agent:
      prompt: "Go"
      tools: ["nika:fetch", "mcp:srv/*"]
outputs:
  leaked: \${{ tasks.signed.output }}
permits:
  fs: { read: ["docs/**", "unused/**"], write: ["./out/**"] }
  net: { http: ["example.com", "127.0.0.1", "*.example.org"] }
  exec: [printf]
  tools: ["nika:fetch", "nika:log", "nika:hash", "nika:write", "nika:read", "nika:jq", "mcp:srv/*"]
  env: [HOME, LD_PRELOAD]
`;

/** Stands for the whole permits block as it is at that step. */
const PERMITS = '<permits block>';

const EXPECTED = ['NIKA-SEC-015', 'NIKA-SEC-009', 'NIKA-SEC-004', 'NIKA-SEC-005', 'NIKA-SEC-006', 'NIKA-SEC-007', 'NIKA-AUTH-011', 'NIKA-AUTH-010', 'NIKA-AUTH-009', 'NIKA-DRIFT-001', 'NIKA-BUILTIN-001'];

test('the audit fixture exercises every audit finding', () => {
  const codes = new Set(analyze(BASE).diagnostics.map((d) => d.code));
  for (const c of EXPECTED) assert.ok(codes.has(c), `${c} in ${[...codes].join(', ')}`);
});

/** Replace the first occurrence of `from` (which must exist). */
function edit(text: string, from: string, to: string): string {
  if (from === PERMITS) return text.slice(0, text.indexOf('permits:\n')) + to;
  const at = text.indexOf(from);
  assert.ok(at >= 0, `edit target ${JSON.stringify(from)}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

test('targeted edits of what audit facts read from other tasks and the envelope agree with a full analysis', () => {
  const steps: Array<[string, string, string]> = [
    ['type in a prompt above the permits block', 'prompt: "Go', 'prompt: "Go on'],
    ['rename a network producer (its consumer now reads an unknown id)', '  get:\n', '  got:\n'],
    ['rename it back', '  got:\n', '  get:\n'],
    ['the producer stops talking to the network', '"nika:fetch"\n      args: { url: "https://example.com/data.json" }', '"nika:log"\n      args: { message: "https://example.com/data.json" }'],
    ['and talks again', '"nika:log"\n      args: { message: "https://example.com/data.json" }', '"nika:fetch"\n      args: { url: "https://example.com/data.json" }'],
    ['a consumer reads a secret-carrying output', 'with: { page: "${{ tasks.get.output }}" }', 'with: { page: "${{ tasks.downstream.output }}" }'],
    ['a binding reads a secret directly', 'with: { s: "${{ tasks.signed.output }}" }', 'with: { s: "${{ secrets.KEY }}" }'],
    ['the secret source stops carrying it', 'with: { k: "${{ secrets.KEY }}" }', 'with: { k: "plain" }'],
    ['a task reads a later one (a second taint pass)', 'args: { message: "${{ with.k }}" }', 'args: { message: "${{ tasks.tokened.output }}" }'],
    ['a code-bearing fetch loses its lift', 'lift: [{ law: data-as-code, because: "kept as data" }]\n', ''],
    ['a lift names a read binding', 'from: inputs.nope', 'from: inputs.host'],
    ['a gate appears in front of the writer', '  writer:\n', '  gate:\n    invoke:\n      tool: "nika:prompt"\n      args: { message: "ok?" }\n  writer:\n    after: { gate: success }\n'],
    ['an exec appears that uses the env grant', '  reader:\n', '  env:\n    exec:\n      command: [printf, "x"]\n      env: { A: "1" }\n  reader:\n'],
    ['a reader of the unused glob appears', 'path: "docs/readme.md"', 'path: "unused/a.md"'],
    ['the agent drops its whitelist', 'tools: ["nika:fetch", "mcp:srv/*"]', 'tools: []'],
    ['a task is deleted', '  badhash:\n    invoke:\n      tool: "nika:hash"\n      args: { key: "literal", content: "x" }\n', ''],
    ['permits change', 'exec: [printf]', 'exec: [printf, curl]'],
    ['the fs.read grant goes (no trifecta)', 'fs: { read: ["docs/**", "unused/**"], write: ["./out/**"] }', 'fs: { write: ["./out/**"] }'],
    ['the permits block goes (AUTH-006 over every task)', PERMITS, ''],
    ['a task gains an effect the inferred block must list', 'path: "unused/a.md"', 'path: "other/b.md"'],
  ];
  let text = BASE;
  const inc = new IncrementalAnalyzer();
  assertSame(inc.analyze(text), text, 'start');
  for (const [label, from, to] of steps) {
    text = edit(text, from, to);
    assertSame(inc.analyze(text), text, label);
    // Typing one character in a task afterwards reuses every other task's facts.
    const at = text.indexOf('prompt: "Go') + 'prompt: "'.length;
    text = text.slice(0, at) + 'x' + text.slice(at);
    assertSame(inc.analyze(text), text, `${label}, then typing`);
  }
});

/** Generated workflows that reach the audit's heavier paths: secrets, the trifecta, fetches, no permits. */
function variants(): Array<[string, string]> {
  const g = generateWorkflow(30);
  return [
    ['secrets', g.replace('permits:\n', 'secrets:\n  KEY: { source: env }\npermits:\n').replace(/message: "step (\d+)"/g, (m, n) => (Number(n) % 4 === 0 ? 'message: "${{ secrets.KEY }}"' : m))],
    ['trifecta', g.replace('permits:\n', 'permits:\n  fs: { read: ["./**"] }\n  net: { http: ["example.com"] }\n')],
    ['fetch', g.replace('permits:\n', 'permits:\n  fs: { read: ["./**"] }\n').replace(/tool: "nika:log"\n {6}args: \{ message: "step (\d+)", data: ("[^"]*") \}/g, (m, n, d) => (Number(n) % 3 === 0 ? `tool: "nika:fetch"\n      args: { url: "https://example.com/x", data: ${d} }` : m))],
    ['no permits', g.replace(/permits:\n {2}exec: \[printf, echo\]\n {2}tools: .*\n/, '')],
    ['audit fixture', BASE],
  ];
}

test('random edits on audit-heavy workflows agree with a full analysis', () => {
  const r = rng(2024);
  for (const [name, start] of variants()) {
    let text = start;
    const inc = new IncrementalAnalyzer();
    assertSame(inc.analyze(text), text, `${name}: start`);
    for (let step = 0; step < 40; step++) {
      text = randomEdit(text, r);
      assertSame(inc.analyze(text), text, `${name}, step ${step}: ${JSON.stringify(text)}`);
    }
  }
});
