// Structure checks on current v1 documents: code, exact range (0-based line:character, UTF-16)
// and what the message tells the user, for every code the checks emit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import { applyFix, only, structure } from './structure-helpers.js';

const doc = (...lines: string[]) => lines.join('\n') + '\n';

test('a clean current workflow has no structure finding at all', () => {
  const r = structure(doc(
    'nika: hello',
    'tasks:',
    '  greet:',
    '    infer: { prompt: "Say hello" }',
  ));
  assert.deepEqual(r.all, []);
});

test('PARSE-005 unknown key: on the key, with a did-you-mean fix that applies', () => {
  const text = doc('nika: hello', 'tasks:', '  greet:', '    infer:', '      promt: "Say hello"');
  const r = structure(text);
  const d = only(r.errors, 'NIKA-PARSE-005');
  assert.equal(d.range, '4:6-4:11');
  assert.equal(d.message, 'Unknown key "promt" in infer (task "greet"). Did you mean "prompt"?');
  assert.deepEqual(structure(applyFix(text, d.d)).all, []);
});

test('PARSE-005 lists what is allowed when nothing is close', () => {
  const r = structure(doc('nika: hello', 'tasks:', '  greet:', '    retry: { max_attempts: 2, zzz: 1 }', '    infer: { prompt: p }'));
  const d = only(r.errors, 'NIKA-PARSE-005');
  assert.equal(d.text, 'zzz');
  assert.match(d.message, /Allowed here: max_attempts, backoff_ms/);
});

test('PARSE-002: missing nika: and missing tasks: point at the first key, not the whole file', () => {
  const r = structure(doc('# comment', 'model: mock/echo', 'inputs: {}'));
  const ds = r.errors.filter((e) => e.code === 'NIKA-PARSE-002');
  assert.equal(ds.length, 2);
  for (const d of ds) assert.equal(d.range, '1:0-1:5');
  assert.ok(ds.some((d) => d.message.includes('"nika:"')) && ds.some((d) => d.message.includes('"tasks:"')));
});

test('PARSE-002: an empty document and empty tasks', () => {
  const empty = structure('');
  assert.deepEqual(empty.errors.map((e) => e.code), ['NIKA-PARSE-002', 'NIKA-PARSE-002']);
  const r = structure(doc('nika: x', 'tasks:'));
  const d = only(r.errors, 'NIKA-PARSE-002');
  assert.equal(d.range, '1:0-1:5');
  assert.match(d.message, /tasks: is empty/);
});

test('PARSE-003: bad nika: name on the value, with a kebab-case fix', () => {
  const text = doc('nika: My_Flow', 'tasks:', '  a:', '    infer: { prompt: p }');
  const d = only(structure(text).errors, 'NIKA-PARSE-003');
  assert.equal(d.range, '0:6-0:13');
  assert.match(d.message, /kebab-case/);
  assert.equal(applyFix(text, d.d).split('\n')[0], 'nika: my-flow');
});

test('nika: v1 in a current-shape file is only a warning that explains the name', () => {
  const r = structure(doc('nika: v1', 'tasks:', '  a:', '    infer: { prompt: p }'));
  assert.equal(r.errors.length, 0);
  const w = only(r.all, 'NIKA-PARSE-003');
  assert.equal(w.severity, 'warning');
  assert.equal(w.range, '0:6-0:8');
  assert.match(w.message, /workflow's name/);
});

test('PARSE-006: task id grammar on the key, with a snake_case suggestion', () => {
  const text = doc('nika: x', 'tasks:', '  fetch-docs:', '    infer: { prompt: p }');
  const d = only(structure(text).errors, 'NIKA-PARSE-006');
  assert.equal(d.range, '2:2-2:12');
  assert.match(d.message, /snake_case/);
  assert.equal(d.d.data?.fixes?.[0].edits[0].newText, 'fetch_docs');
});

test('PARSE-008: no verb, on the task key', () => {
  const d = only(structure(doc('nika: x', 'tasks:', '  lonely:', '    when: true')).errors, 'NIKA-PARSE-008');
  assert.equal(d.range, '2:2-2:8');
  assert.match(d.message, /infer:, exec:, invoke:, agent:/);
});

test('PARSE-009: several verbs, on each verb after the first one written', () => {
  const r = structure(doc('nika: x', 'tasks:', '  busy:', '    exec: { shell: ls }', '    agent: { prompt: p }', '    infer: { prompt: p }'));
  const ds = r.errors.filter((e) => e.code === 'NIKA-PARSE-009');
  assert.deepEqual(ds.map((d) => d.text), ['agent', 'infer']);
  assert.equal(ds[0].range, '4:4-4:9');
});

test('PARSE-010: timeouts (unquoted number, ascending units, days, zero)', () => {
  const base = (t: string) => doc('nika: x', 'tasks:', '  a:', `    timeout: ${t}`, '    infer: { prompt: p }');
  const n = only(structure(base('30')).errors, 'NIKA-PARSE-010');
  assert.equal(n.range, '3:13-3:15');
  assert.match(n.message, /quoted duration/);
  assert.equal(applyFix(base('30'), n.d), base('"30s"'));
  assert.match(only(structure(base('"30m1h"')).errors, 'NIKA-PARSE-010').message, /larger to smaller/);
  assert.match(only(structure(base('"2d"')).errors, 'NIKA-PARSE-010').message, /days and weeks/);
  assert.match(only(structure(base('"0s"')).errors, 'NIKA-PARSE-010').message, /positive/);
  assert.equal(structure(base('"1h30m15.5s"')).errors.length, 0);
});

test('PARSE-011 / PARSE-012: retry and on_error shapes', () => {
  const r = structure(doc('nika: x', 'tasks:', '  a:', '    retry: { backoff_strategy: random }', '    on_error: { on_codes: [] }', '    infer: { prompt: p }'));
  const retry = r.errors.filter((e) => e.code === 'NIKA-PARSE-011');
  assert.deepEqual(retry.map((e) => e.text).sort(), ['random', 'retry']);
  assert.ok(retry.some((e) => /max_attempts/.test(e.message)));
  assert.ok(retry.some((e) => /fixed, linear, exponential/.test(e.message)));
  const onErr = r.errors.filter((e) => e.code === 'NIKA-PARSE-012');
  assert.ok(onErr.some((e) => e.text === 'on_error' && /recover: <value> or skip: true/.test(e.message)));
  assert.ok(onErr.some((e) => e.text === '[]' && /at least 1 item/.test(e.message)));
});

test('PARSE-012: legacy fallback: is refused with a rename to recover:', () => {
  const text = doc('nika: x', 'tasks:', '  a:', '    on_error: { fallback: "none" }', '    infer: { prompt: p }');
  const r = structure(text);
  const d = r.errors.find((e) => e.text === 'fallback')!;
  assert.equal(d.code, 'NIKA-PARSE-012');
  assert.match(d.message, /renamed recover:/);
  assert.deepEqual(structure(applyFix(text, d.d)).errors, []);
});

test('PARSE-013: reserved names in with: and extract:', () => {
  const r = structure(doc('nika: x', 'tasks:', '  a:', '    with: { output: 1 }', '    extract: { duration_ms: ".x" }', '    infer: { prompt: p }'));
  const ds = r.errors.filter((e) => e.code === 'NIKA-PARSE-013');
  assert.deepEqual(ds.map((d) => `${d.range} ${d.text}`), ['3:12-3:18 output', '4:15-4:26 duration_ms']);
  assert.match(ds[0].message, /reserved/);
});

test('PARSE-014: inline secret value and missing source', () => {
  const r = structure(doc('nika: x', 'secrets:', '  api: sk-123', '  db: { key: DB_PASS }', 'tasks:', '  a:', '    infer: { prompt: p }'));
  const ds = r.errors.filter((e) => e.code === 'NIKA-PARSE-014');
  assert.deepEqual(ds.map((d) => d.range), ['2:7-2:13', '3:2-3:4']);
  assert.match(ds[0].message, /never write the value/);
  assert.match(ds[1].message, /source:/);
});

test('PARSE-017: duplicate keys at any level, on the second key', () => {
  const r = structure(doc('nika: x', 'tasks:', '  a:', '    infer: { prompt: p, prompt: q }', '  a:', '    exec: { shell: ls }'));
  const ds = r.errors.filter((e) => e.code === 'NIKA-PARSE-017');
  assert.deepEqual(ds.map((d) => d.range), ['3:24-3:30', '4:2-4:3']);
  assert.match(ds[1].message, /Duplicate task id "a" \(first on line 3\)/);
});

test('PARSE-018: missing required verb fields', () => {
  const r = structure(doc('nika: x', 'tasks:', '  a:', '    infer: { system: s }', '  b:', '    exec: { cwd: /tmp }', '  c:', '    invoke: { args: {} }', '  d:', '    agent: { tools: [] }'));
  const ds = r.errors.filter((e) => e.code === 'NIKA-PARSE-018');
  assert.deepEqual(ds.map((d) => d.text), ['infer', 'exec', 'invoke', 'agent']);
  assert.match(ds[1].message, /command: or shell:/);
  assert.match(ds[2].message, /tool: or workflow:/);
});

test('PARSE-019: wrong shapes (string command with a shell: fix, after as a list, bad tool id, bad enum)', () => {
  const text = doc('nika: x', 'tasks:', '  a:', '    exec: { command: "ls -l | wc" }', '  b:', '    after: [a]', '    invoke: { tool: "mcp:postgres" }', '  c:', '    exec: { command: [ls], capture: everything }');
  const r = structure(text);
  const cmd = r.errors.find((e) => e.text === '"ls -l | wc"')!;
  assert.equal(cmd.code, 'NIKA-PARSE-019');
  assert.deepEqual(structure(applyFix(text, cmd.d)).errors.filter((e) => e.range.startsWith('3:')), []);
  assert.match(r.errors.find((e) => e.text === '[a]')!.message, /map of task id/);
  // Tool ids are judged by the semantic tool check alone: one finding on the token, not two.
  const full = analyze(text).diagnostics.filter((d) => text.slice(d.span.start, d.span.end) .replace(/"/g, '') === 'mcp:postgres');
  assert.equal(full.length, 1);
  assert.equal(full[0].code, 'NIKA-PARSE-019');
  assert.match(full[0].message, /mcp:<server>\/<tool>/);
  assert.equal(r.errors.find((e) => e.text === 'everything')!.message, '"capture" must be one of stdout, stderr, combined, structured.');
});

test('numbers accept ${{ }} expressions; plain strings get one clear message', () => {
  const ok = structure(doc('nika: x', 'tasks:', '  a:', '    agent: { prompt: p, max_turns: "${{ inputs.turns }}", temperature: 0.5 }'));
  assert.deepEqual(ok.errors, []);
  const bad = structure(doc('nika: x', 'tasks:', '  a:', '    agent: { prompt: p, max_turns: lots }'));
  const d = only(bad.errors, 'NIKA-PARSE-019');
  assert.equal(d.message, '"max_turns" must be an integer of at least 1 or a ${{ }} expression.');
});

test('PARSE-022: a tasks list in a named file carries the conversion for the server', () => {
  const r = structure(doc('nika: build', 'tasks:', '  - name: a', '    exec: { shell: ls }'));
  const d = only(r.errors, 'NIKA-PARSE-022');
  assert.equal(d.range, '1:0-1:5');
  assert.deepEqual(d.d.data, { convert: 'tasks-list-to-map' });
});

test('PARSE-023 / PARSE-024 / VALUES-001 / VALUES-002: old keys name their replacement', () => {
  const r = structure(doc('nika: x', 'vars: { a: 1 }', 'env: { B: 2 }', 'tasks:', '  a:', '    id: a', '    depends_on: [b]', '    infer: { prompt: p }'));
  assert.match(only(r.errors, 'NIKA-VALUES-001').message, /inputs:.*const:.*secrets:/);
  assert.equal(only(r.errors, 'NIKA-VALUES-002').range, '2:0-2:3');
  assert.equal(only(r.errors, 'NIKA-PARSE-023').range, '5:4-5:6');
  assert.match(only(r.errors, 'NIKA-PARSE-024').message, /after: \{ a: success \}/);
});

test('PARSE-025: decode with capture: structured', () => {
  const d = only(structure(doc('nika: x', 'tasks:', '  a:', '    exec: { command: [ls], capture: structured, decode: json }')).errors, 'NIKA-PARSE-025');
  assert.equal(d.text, 'decode');
});

test('PARSE-026 / PARSE-027: run entropy × clock', () => {
  const a = only(structure(doc('nika: x', 'run: { entropy: ambient, clock: virtual }', 'tasks:', '  a:', '    infer: { prompt: p }')).errors, 'NIKA-PARSE-026');
  assert.equal(a.range, '1:25-1:30');
  const b = only(structure(doc('nika: x', 'run:', '  entropy: { seeded: 7 }', '  clock: system', 'tasks:', '  a:', '    infer: { prompt: p }')).errors, 'NIKA-PARSE-027');
  assert.equal(b.range, '3:2-3:7');
  assert.equal(structure(doc('nika: x', 'run: { clock: virtual }', 'tasks:', '  a:', '    infer: { prompt: p }')).errors.length, 0);
});

test('DAG-005: unknown after: predicate; old participles get a fix', () => {
  const text = doc('nika: x', 'tasks:', '  a:', '    infer: { prompt: p }', '  b:', '    after: { a: failed }', '    infer: { prompt: p }');
  const d = only(structure(text).errors, 'NIKA-DAG-005');
  assert.equal(d.range, '5:16-5:22');
  assert.match(d.message, /Did you mean "failure"/);
  assert.deepEqual(structure(applyFix(text, d.d)).errors, []);
});

test('TYPE-001: unknown type names in inputs and returns, once each, from the type grammar', () => {
  const text = doc('nika: x', 'inputs:', '  flag: { type: boolean }', 'tasks:', '  a:', '    returns: { array: float }', '    infer: { prompt: p }');
  // The schema leaves current-v1 type expressions to core/types, which adds the fix.
  assert.deepEqual(structure(text).errors.filter((e) => e.code === 'NIKA-TYPE-001'), []);
  const ds = analyze(text).diagnostics.filter((d) => d.code === 'NIKA-TYPE-001');
  assert.deepEqual(ds.map((d) => text.slice(d.span.start, d.span.end)), ['boolean', 'float']);
  assert.match(ds[0].message, /bool/);
  assert.equal(ds[0].data?.fixes?.[0].edits[0].newText, 'bool');
});

test('CRLF documents: ranges stay on the right line and column', () => {
  const text = ['nika: x', 'tasks:', '  a:', '    infer:', '      promt: p', ''].join('\r\n');
  const d = only(structure(text).errors, 'NIKA-PARSE-005');
  assert.equal(d.range, '4:6-4:11');
  assert.equal(d.text, 'promt');
});

test('non-ASCII text before the error: columns count UTF-16 code units', () => {
  const text = doc('nika: x', 'tasks:', '  a:', '    infer: { prompt: "héllo 🌍 wörld", temperature: 9 }');
  const d = only(structure(text).errors, 'NIKA-PARSE-019');
  // "🌍" is two UTF-16 units: the 9 sits at character 52.
  assert.equal(d.range, '3:52-3:53');
  assert.equal(d.text, '9');
});

test('tabs inside values do not shift ranges', () => {
  const text = doc('nika: x', 'tasks:', '  a:', '    infer: { prompt: "a\tb", system: "\t", modle: x }');
  const d = only(structure(text).errors, 'NIKA-PARSE-005');
  assert.equal(d.text, 'modle');
  assert.equal(d.range, '3:41-3:46');
});

test('tab indentation is a YAML error (PARSE-001), not a crash', () => {
  const r = structure('nika: x\ntasks:\n\ta:\n\t\tinfer: { prompt: p }\n');
  assert.ok(r.errors.some((e) => e.code === 'NIKA-PARSE-001'));
});

test('hostile input never throws: deep nesting, aliases, odd roots', () => {
  const deep = 'nika: x\ntasks:\n  a:\n    infer: { prompt: p }\nconst:\n  d: ' + '['.repeat(300) + ']'.repeat(300) + '\n';
  assert.doesNotThrow(() => structure(deep));
  assert.doesNotThrow(() => structure('- a\n- b\n'));
  assert.doesNotThrow(() => structure('just a string'));
  assert.doesNotThrow(() => structure('a: &x [*x]\n'));
  assert.ok(structure('- a\n').errors.length > 0);
});
