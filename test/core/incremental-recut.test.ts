// Cutting a new version around its change (resplit.ts) must give exactly the slices and line
// starts that cutting the whole text gives, and must decline whenever it could not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { commonPrefix, commonSuffix, recut, type CutVersion } from '../../core/incremental/resplit.js';
import { lineStarts, splitDocument, type Slice } from '../../core/incremental/split.js';
import { IncrementalAnalyzer } from '../../core/incremental/analyzer.js';
import { generateWorkflow } from '../../bench/generate.js';
import { CORPUS, randomEdit, rng } from './incremental-helpers.js';

/** Edits that can move a cut: new keys at every column, tabs, CRs, line joins, comments. */
const PIECES = ['x', '\n', '\n  ', '\n  k:', '\nk:', '\n  k:\n    infer: "x"\n', '  ', '\t', '\r', '\r\n', '#', ':', ' ', '\u2028', 'tasks:', '\n    a: 1'];

function versionOf(text: string): CutVersion | undefined {
  const split = splitDocument(text);
  if (!split || split.tasksAt < 0) return undefined;
  const after = split.top[split.tasksAt + 1];
  return {
    text, starts: lineStarts(text), indent: split.indent, taskCount: split.tasks.length,
    taskStart: (i) => split.tasks[i].start, tasksEnd: after ? after.start : text.length,
  };
}

const plain = (s: Slice) => ({ start: s.start, end: s.end, text: s.text });

/** Checks one recut against the whole-text split; returns whether the recut was taken. */
function check(before: string, after: string, label: string): boolean {
  const v = versionOf(before);
  if (!v) return false;
  const r = recut(v, after);
  if (!r) return false;
  const whole = splitDocument(after);
  assert.ok(whole, `${label}: the recut was taken where the whole text does not split`);
  assert.deepEqual(r.starts, lineStarts(after), `${label}: line starts`);
  const old = splitDocument(before)!;
  const moved = (s: Slice) => ({ start: s.start + r.delta, end: s.end + r.delta, text: s.text });
  const tasks = [...old.tasks.slice(0, r.first).map(plain), ...r.slices.map(plain), ...old.tasks.slice(r.first + r.count).map(moved)];
  assert.deepEqual(tasks, whole.tasks.map(plain), `${label}: task slices`);
  const top = old.top.map((s, i) => (i > old.tasksAt ? moved(s) : plain(s)));
  assert.deepEqual(top, whole.top.map(plain), `${label}: top-level slices`);
  assert.equal(whole.indent, v.indent, `${label}: task indentation`);
  return true;
}

test('common prefix and suffix of two strings', () => {
  assert.equal(commonPrefix('abcdef', 'abcxef'), 3);
  assert.equal(commonPrefix('abc', 'abc'), 3);
  assert.equal(commonPrefix('', 'abc'), 0);
  assert.equal(commonSuffix('abcdef', 'abcxef', 6), 2);
  assert.equal(commonSuffix('aaaa', 'aaaaa', 4), 4);
  assert.equal(commonSuffix('aaaa', 'aaaaa', 1), 1);
});

test('random edits of every example and fixture: the recut equals the whole split', () => {
  const r = rng(7);
  let taken = 0;
  let tried = 0;
  for (const file of CORPUS) {
    let text = readFileSync(file, 'utf8');
    for (let i = 0; i < 40; i++) {
      const next = randomEdit(text, r, PIECES);
      tried++;
      if (check(text, next, `${file} edit ${i}`)) taken++;
      if (splitDocument(next)) text = next;
    }
  }
  // Most edits land inside a task: a recut that is never taken would make this test pass vacuously.
  assert.ok(taken > tried / 6, `recut taken ${taken} of ${tried} times`);
});

/** What typing inside tasks looks like: characters, new value lines, a new task, a comment. */
const TYPING = ['x', ' ', ':', '"', '\n    ', '\n      a: 1', '\n  t_new:\n    infer: "x"\n', '#', '${{ tasks.'];

test('typing inside the tasks of a generated workflow takes the recut almost every time', () => {
  let text = generateWorkflow(40).replace(/^# yaml-language-server:.*\n/, '');
  const r = rng(3);
  let taken = 0;
  let eligible = 0;
  for (let i = 0; i < 300; i++) {
    const split = splitDocument(text)!;
    const from = text.indexOf('\n', split.tasks[0].start) + 1;
    const to = split.tasks[split.tasks.length - 1].end;
    const at = from + Math.floor(r() * (to - from));
    const next = text.slice(0, at) + TYPING[Math.floor(r() * TYPING.length)] + text.slice(at);
    const ok = check(text, next, `keystroke ${i}`);
    if (ok) taken++;
    // Eligible: the whole text still splits with the same top-level keys (a piece typed mid-line
    // can leave a line at column 0, which ends the tasks: declining that is right).
    if (splitDocument(next)?.top.length === split.top.length) eligible++;
    if (ok) text = next;
  }
  assert.ok(taken >= eligible * 0.95 && taken > 100, `recut taken ${taken} times, ${eligible} eligible`);
});

test('declines what could move a cut elsewhere', () => {
  const base = 'nika: v1\ntasks:\n  a:\n    infer: "x"\n  b:\n    infer: "y"\n  c:\n    infer: "z"\noutputs: {}\n';
  const v = versionOf(base)!;
  const at = (s: string) => base.indexOf(s);
  const edit = (offset: number, ins: string, del = 0) => base.slice(0, offset) + ins + base.slice(offset + del);
  // A new top-level key inside the tasks, a tab, a lone CR, an edit on the first task's key, in the envelope.
  for (const [label, text] of [
    ['top-level key', edit(at('  c:'), 'z: 1\n')],
    ['tab', edit(at('    infer: "y"'), '\t')],
    ['lone CR', edit(at('"y"'), '\r')],
    ['first task key', edit(at('a:'), 'x')],
    ['envelope', edit(0, '# hi\n')],
    ['after the tasks', edit(at('outputs'), 'x')],
  ] as const) {
    assert.equal(recut(v, text), undefined, label);
  }
  // Typing inside a task, renaming a later task, splitting one task in two: taken, and right.
  for (const [label, text] of [
    ['value', edit(at('"y"') + 1, 'yy')],
    ['rename', edit(at('b:'), 'bb')],
    ['split a task', edit(at('  c:'), '  b2:\n    infer: "w"\n')],
    ['join two tasks', edit(at('  c:') - 1, '', 1)],
  ] as const) {
    assert.ok(check(base, text, label), `${label}: recut declined`);
  }
});

test('the analyzer goes the recut way on a keystroke and parses only the task typed in', () => {
  let text = generateWorkflow(200).replace(/^# yaml-language-server:.*\n/, '');
  const a = new IncrementalAnalyzer();
  a.analyze(text);
  const at = text.indexOf('tool: "', text.indexOf('  step_0100:')) + 'tool: "'.length;
  text = text.slice(0, at) + 'x' + text.slice(at);
  a.analyze(text);
  assert.equal(a.stats.incremental, true);
  assert.equal(a.stats.parsed, 1);
});
