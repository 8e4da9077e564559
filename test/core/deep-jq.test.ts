// jq programs written in a workflow (reference §4.7): compile errors and env/$ENV are NIKA-VAR-005
// errors, constructs outside jq-subset/0.1 are warnings, and the two jq lints (009, 013).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJqProgram } from '../../core/jq/parse.js';
import { diagnose, doc, fixed, none, one } from './semantic-helpers.js';

const head = ['nika: t', 'permits: {}', 'tasks:', '  a:', '    exec: { command: [ls], decode: json }'];

test('the jq parser accepts the subset and real-jq idioms', () => {
  for (const p of ['.', '.a.b // "x"', '[.items[] | .name]', '.[] | select(.x > 1) | {id, name: .n}', 'reduce .[] as $x (0; . + $x)',
    '. as $r | $r.a', '.a + .b as $x | $x', '"x\\(.a)y"', '@base64 "\\(.a)"', 'if .a then 1 elif .b then 2 else 3 end',
    'try error("x") catch .', '{(.k): .v, "q": 1}', 'to_entries | map("\\(.key)=\\(.value)") | join("&")', '.["a-b"]', '.a."b-c"',
    '.x as [$a, $b] | $a', 'group_by(.k) | map({k: .[0].k, n: length})', '.a // empty', '-(.a) * 2', '.a? | not']) {
    assert.deepEqual(checkJqProgram(p).problems, [], p);
  }
});

test('the jq parser refuses what jq refuses, and flags what the subset refuses', () => {
  const sev = (p: string) => checkJqProgram(p).problems.map((x) => `${x.severity}:${p.slice(x.start, x.end)}`);
  assert.deepEqual(sev('map(.a'), ['error:']);
  assert.deepEqual(sev('foo(1)'), ['error:foo']);
  assert.deepEqual(sev('length(1)'), ['error:length']);
  assert.deepEqual(sev('$y'), ['error:$y']);
  assert.deepEqual(sev('env.HOME'), ['error:env']);
  assert.deepEqual(sev('$ENV.PATH'), ['error:$ENV']);
  assert.deepEqual(sev('.a == 1 == 2').length, 1);
  assert.deepEqual(sev('test("a")'), ['warning:test']);
  assert.deepEqual(sev('.. | .a'), ['warning:..']);
  assert.deepEqual(sev('.a[1:2]'), ['warning:[1:2]']);
  assert.deepEqual(sev('"\\(.a'), ['error:\\(.a']);
  assert.deepEqual(sev(''), ['error:']);
});

test('extract: compile errors and env sit on the exact token', () => {
  const text = doc(...head, '    extract:', '      bad: map(.a', '      e: env.HOME | length', "      f: '.a | foo'");
  const found = diagnose(text).filter((d) => d.code === 'NIKA-VAR-005');
  assert.deepEqual(found.map((d) => text.slice(d.span.start, d.span.end)), ['a', 'env', 'foo']);
  assert.ok(found.every((d) => d.severity === 'error'));
});

test('constructs outside the subset are warnings, not errors', () => {
  const text = doc(...head, '    extract:', '      m: "[.[] | select(test(\\"x\\"))]"');
  const found = diagnose(text).filter((d) => d.code === 'NIKA-VAR-005');
  assert.deepEqual(found.map((d) => d.severity), ['warning']);
});

test('one-obvious-way/009: a binding ending in [] gets a fix that collects it', () => {
  const text = doc(...head, '    extract:', '      names: .items[].name[]', '      ok: "[.items[]]"', '      one: .items[0]');
  const d = one(text, 'one-obvious-way/009', '[]');
  assert.equal(d.severity, 'warning');
  assert.equal(fixed(text, d), text.replace('names: .items[].name[]', 'names: "[.items[].name[]]"'));
});

test('nika:jq expression and nika:fetch jq: are compiled too', () => {
  const text = doc('nika: t', 'permits: {}', 'tasks:',
    '  j:', '    invoke: { tool: "nika:jq", args: { expression: ".a | foo", input: [1] } }',
    '  f:', '    invoke: { tool: "nika:fetch", args: { url: "https://x.org", mode: jq, jq: "map(" } }');
  const found = diagnose(text).filter((d) => d.code === 'NIKA-VAR-005');
  assert.deepEqual(found.map((d) => text.slice(d.span.start, d.span.end)), ['foo', '(']);
  // A program built from an expression is judged at run time.
  none(doc('nika: t', 'permits: {}', 'inputs:', '  q: { type: string }', 'tasks:', '  j:', '    invoke: { tool: "nika:jq", args: { expression: "${{ inputs.q }}", input: [1] } }'), 'NIKA-VAR-005');
});

test('one-obvious-way/013: a nika:jq task reshaping one producer should be an extract:', () => {
  const text = doc(...head,
    '  b:', '    with: { x: "${{ tasks.a.output }}" }', '    invoke: { tool: "nika:jq", args: { expression: ".items | length", input: "${{ with.x }}" } }');
  one(text, 'one-obvious-way/013', '"nika:jq"');
  // Two producers: a real combination, no lint.
  none(doc(...head, '  c:', '    exec: { command: [ls] }',
    '  b:', '    with: { x: "${{ tasks.a.output }}", y: "${{ tasks.c.output }}" }', '    invoke: { tool: "nika:jq", args: { expression: ".[0] + .[1]", input: ["${{ with.x }}", "${{ with.y }}"] } }'), 'one-obvious-way/013');
});
