// Lints (reference §8.2, warnings with the rule id as code): native-first/001…006 on exec
// programs that have a builtin, with mechanical fixes; one-obvious-way/011 on infer schema:.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, doc, fixed, none, one } from './semantic-helpers.js';

const head = ['nika: t', 'permits: {}', 'tasks:', '  a:'];

test('native-first rules are numbered by family, on the program word', () => {
  const cases: Array<[string, string]> = [
    ['curl', 'native-first/001'], ['wget', 'native-first/001'], ['cat', 'native-first/002'], ['cp', 'native-first/002'],
    ['jq', 'native-first/003'], ['sed', 'native-first/003'], ['sleep', 'native-first/004'], ['date', 'native-first/004'],
    ['uuidgen', 'native-first/005'], ['sha256sum', 'native-first/005'], ['yq', 'native-first/006'], ['grep', 'native-first/006'], ['find', 'native-first/006'],
  ];
  for (const [program, rule] of cases) {
    const d = one(doc(...head, `    exec: { command: [${program}, x], cwd: /tmp }`), rule, program);
    assert.equal(d.severity, 'warning');
  }
  one(doc(...head, '    exec: { command: [/usr/bin/curl, "https://x.org"], cwd: /tmp }'), 'native-first/001', '/usr/bin/curl');
  none(doc(...head, '    exec: { command: [git, status] }'), 'native-first/001');
});

test('native-first fixes: sleep, cat, curl, uuidgen become the builtin invoke', () => {
  const t1 = doc(...head, '    exec: { command: [sleep, "5"] }');
  assert.equal(fixed(t1, one(t1, 'native-first/004', 'sleep')), doc(...head, '    invoke: { tool: "nika:wait", args: { duration: "5s" } }'));
  const t2 = doc(...head, '    exec:', '      command: [cat, README.md]', '  b:', '    exec: { command: [ls] }');
  assert.equal(fixed(t2, one(t2, 'native-first/002', 'cat')), doc(...head, '    invoke: { tool: "nika:read", args: { path: "README.md" } }', '  b:', '    exec: { command: [ls] }'));
  const t3 = doc(...head, '    exec: { command: [curl, -fsSL, "https://nika.sh/x.json"] }');
  assert.equal(fixed(t3, one(t3, 'native-first/001', 'curl')), doc(...head, '    invoke: { tool: "nika:fetch", args: { url: "https://nika.sh/x.json", mode: "raw" } }'));
  const t4 = doc(...head, '    exec: { command: [uuidgen] }');
  assert.equal(fixed(t4, one(t4, 'native-first/005', 'uuidgen')), doc(...head, '    invoke: { tool: "nika:uuid", args: { version: "v4" } }'));
});

test('no fix when the rewrite would lose meaning', () => {
  // Other exec fields (cwd, env, capture …) or flags that change the request.
  assert.equal(one(doc(...head, '    exec: { command: [sleep, "5"], cwd: /tmp }'), 'native-first/004', 'sleep').data, undefined);
  assert.equal(one(doc(...head, '    exec: { command: [curl, -X, POST, "https://x.org"] }'), 'native-first/001', 'curl').data, undefined);
  assert.equal(one(doc(...head, '    exec: { command: [cat, a, b] }'), 'native-first/002', 'cat').data, undefined);
});

test('shell: a simple command is linted, a pipeline is not', () => {
  one(doc(...head, '    exec: { shell: "curl -s https://x.org" }'), 'native-first/001', 'curl');
  none(doc(...head, '    exec: { shell: "curl -s https://x.org | grep ok" }'), 'native-first/001');
});

test('one-obvious-way/011: infer schema: prefers returns:', () => {
  const text = doc(...head, '    infer: { prompt: hi, schema: { type: object } }');
  assert.equal(one(text, 'one-obvious-way/011', 'schema').severity, 'warning');
  // With returns: too, it is NIKA-TYPE-003 instead.
  const both = doc(...head, '    infer: { prompt: hi, schema: { type: object } }', '    returns: string');
  none(both, 'one-obvious-way/011');
  one(both, 'NIKA-TYPE-003', 'schema');
});

test('lints are current-v1 only', () => {
  const text = doc('nika: v1', 'vars:', '  x: 1', 'tasks:', '  - name: a', '    exec: { command: [sleep, "1"] }');
  assert.deepEqual(diagnose(text).filter((d) => d.code.startsWith('native-first')), []);
});
