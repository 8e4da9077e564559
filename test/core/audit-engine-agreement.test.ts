// The static audit and the engine's run-time boundary must give the same verdict on the same
// effect: a table of permits × effects, judged once by analyze() and once by engine/permits.ts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../core/analyze.js';
import { Boundary } from '../../engine/permits.js';

type Call = (b: Boundary) => void;
interface Row { permits: string; task: string; call: Call }

const exec = (argv0: string | undefined, shell = false): Call => (b) => b.exec(argv0, shell);
const tool = (id: string): Call => (b) => b.tool(id);
const read = (p: string): Call => (b) => { b.read(p); };
const write = (p: string): Call => (b) => { b.write(p); };
const host = (h: string): Call => (b) => b.host(h);

const inv = (id: string, args = '{}') => `invoke: { tool: "${id}", args: ${args} }`;

const ROWS: Row[] = [
  { permits: 'exec: [git]', task: 'exec: { command: [git, status] }', call: exec('git') },
  { permits: 'exec: [git]', task: 'exec: { command: [/usr/bin/git, status] }', call: exec('/usr/bin/git') },
  { permits: 'exec: [/usr/bin/git]', task: 'exec: { command: [git, status] }', call: exec('git') },
  { permits: 'exec: [git]', task: 'exec: { command: [curl, x] }', call: exec('curl') },
  { permits: 'exec: [git]', task: 'exec: { shell: "git status" }', call: exec(undefined, true) },
  { permits: 'exec: true', task: 'exec: { shell: "git status" }', call: exec(undefined, true) },
  { permits: 'exec: false', task: 'exec: { command: [ls] }', call: exec('ls') },
  { permits: 'tools: []', task: 'exec: { command: [ls] }', call: exec('ls') },
  { permits: 'tools: ["nika:jq"]', task: inv('nika:jq', '{ expression: "." }'), call: tool('nika:jq') },
  { permits: 'tools: []', task: inv('nika:jq', '{ expression: "." }'), call: tool('nika:jq') },
  { permits: 'tools: ["nika:*"]', task: inv('nika:log', '{ message: x }'), call: tool('nika:log') },
  { permits: 'tools: ["mcp:fs/*"]', task: inv('mcp:fs/read'), call: tool('mcp:fs/read') },
  { permits: 'tools: ["mcp:fs/*"]', task: inv('mcp:fs/a/b'), call: tool('mcp:fs/a/b') },
  { permits: 'tools: ["mcp:fs/**"]', task: inv('mcp:fs/a/b'), call: tool('mcp:fs/a/b') },
  { permits: 'tools: ["mcp:fs/*", "!mcp:fs/rm"]', task: inv('mcp:fs/rm'), call: tool('mcp:fs/rm') },
  { permits: 'tools: ["mcp:*/read"]', task: inv('mcp:web/read'), call: tool('mcp:web/read') },
  { permits: 'fs: { read: ["data/**"] }', task: inv('nika:read', '{ path: data/q3.csv }'), call: read('data/q3.csv') },
  { permits: 'fs: { read: ["data/**"] }', task: inv('nika:read', '{ path: data/../data/q3.csv }'), call: read('data/../data/q3.csv') },
  { permits: 'fs: { read: ["data/**"] }', task: inv('nika:read', '{ path: ../../etc/passwd }'), call: read('../../etc/passwd') },
  { permits: 'fs: { read: ["docs"] }', task: inv('nika:read', '{ path: docs/a/b.md }'), call: read('docs/a/b.md') },
  { permits: 'fs: { read: ["./docs/*.md"] }', task: inv('nika:read', '{ path: docs/a.md }'), call: read('docs/a.md') },
  { permits: 'fs: { read: ["docs/*.md"] }', task: inv('nika:read', '{ path: docs/sub/a.md }'), call: read('docs/sub/a.md') },
  { permits: 'fs: { read: ["/etc/hosts"] }', task: inv('nika:read', '{ path: /etc/hosts }'), call: read('/etc/hosts') },
  { permits: 'fs: { write: ["out/**"] }', task: inv('nika:write', '{ path: out/x.md, content: x }'), call: write('out/x.md') },
  { permits: 'fs: { write: ["out/*.md"] }', task: inv('nika:write', '{ path: out/sub/x.md, content: x }'), call: write('out/sub/x.md') },
  { permits: 'fs: { read: ["out/**"] }', task: inv('nika:write', '{ path: out/x.md, content: x }'), call: write('out/x.md') },
  { permits: 'net: { http: ["api.example.com"] }', task: inv('nika:fetch', '{ url: "https://API.example.com/x" }'), call: host('api.example.com') },
  { permits: 'net: { http: ["api.example.com"] }', task: inv('nika:fetch', '{ url: "https://evil.example.com/x" }'), call: host('evil.example.com') },
  { permits: 'net: { http: ["*"] }', task: inv('nika:fetch', '{ url: "https://anything.example.org/" }'), call: host('anything.example.org') },
  { permits: 'net: { http: [] }', task: inv('nika:fetch', '{ url: "https://a.example.org/" }'), call: host('a.example.org') },
];

/** The static verdict on the one effect a row is about (tool grants are judged separately from their targets). */
function staticRefuses(row: Row): boolean {
  const granted = /tools:/.test(row.permits) ? row.permits : `${row.permits}\n  tools: ["nika:read", "nika:write", "nika:fetch", "nika:jq", "nika:log"]`;
  const text = `nika: row\npermits:\n  ${granted}\ntasks:\n  t:\n    ${row.task}\n`;
  const a = analyze(text);
  return a.diagnostics.some((d) => d.code === 'NIKA-SEC-004' || d.code === 'NIKA-AUTH-008');
}

function engineRefuses(row: Row, dir: string): boolean {
  const a = analyze(`nika: row\npermits:\n  ${row.permits}\ntasks:\n  t:\n    ${row.task}\n`, { skipChecks: true });
  const b = Boundary.forWorkflow(a.workflow, dir);
  try {
    row.call(b);
    return false;
  } catch (e) {
    if ((e as { code?: string }).code === 'NIKA-SEC-004') return true;
    throw e;
  }
}

test('static audit ≡ run-time boundary on a table of effects', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nika-agree-'));
  const disagreements: string[] = [];
  for (const row of ROWS) {
    const s = staticRefuses(row);
    const r = engineRefuses(row, dir);
    if (s !== r) disagreements.push(`${row.permits} | ${row.task}: static ${s ? 'refuses' : 'allows'}, engine ${r ? 'refuses' : 'allows'}`);
  }
  assert.deepEqual(disagreements, []);
});

test('the table is not trivially one-sided', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nika-agree-'));
  const verdicts = ROWS.map((r) => engineRefuses(r, dir));
  assert.ok(verdicts.filter(Boolean).length >= 8 && verdicts.filter((v) => !v).length >= 8, String(verdicts));
});
