// The incremental analyzer must be invisible: after any sequence of edits it yields the same
// diagnostics, IR and YAML tree as analyzing the final text from scratch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isMap, isPair, isSeq } from 'yaml';
import { analyze, type Analysis } from '../../core/analyze.js';
import { IncrementalAnalyzer } from '../../core/incremental/analyzer.js';
import { splitDocument } from '../../core/incremental/split.js';
import { generateWorkflow } from '../../bench/generate.js';
import { CORPUS, diagKey, randomEdit as userEdit, rng } from './incremental-helpers.js';

/** Type or delete a character, paste a line, break or join lines, rename. */
const PIECES = ['x', ' ', ':', '"', "'", '[', ']', '\n', '\n  ', '${{ tasks.', ' }}', '#', '-', '{', '}', '\n    with: { a: "${{ tasks.step_0001.output }}" }', '\n  new_task:\n    infer: "hi"'];
const randomEdit = (text: string, r: () => number) => userEdit(text, r, PIECES);



/** Every node's kind, range and scalar value, in tree order. */
function treeKey(a: Analysis): string {
  const out: string[] = [];
  const walk = (n: unknown): void => {
    if (n == null) { out.push('∅'); return; }
    if (isPair(n)) { walk(n.key); walk(n.value); return; }
    const node = n as { range?: number[]; value?: unknown; type?: string };
    out.push(`${(n as object).constructor.name}${JSON.stringify(node.range)}${isMap(n) || isSeq(n) ? '' : JSON.stringify(node.value ?? null)}`);
    if (isMap(n) || isSeq(n)) for (const it of n.items) walk(it);
  };
  walk(a.doc.yaml?.contents);
  return out.join('\n');
}

function assertSame(inc: Analysis, full: Analysis, label: string): void {
  assert.deepEqual(diagKey(inc), diagKey(full), `${label}: diagnostics`);
  assert.equal(JSON.stringify(inc.workflow), JSON.stringify(full.workflow), `${label}: IR`);
  assert.equal(treeKey(inc), treeKey(full), `${label}: YAML tree`);
  assert.equal(inc.dialect, full.dialect, `${label}: dialect`);
}

test('the split covers every character exactly once, in order', () => {
  for (const file of CORPUS) {
    const text = readFileSync(file, 'utf8');
    const split = splitDocument(text);
    if (!split) continue;
    const pieces = [...split.top.slice(0, split.tasksAt + 1), ...split.tasks, ...split.top.slice(split.tasksAt + 1)];
    if (split.tasksAt < 0) pieces.splice(0, pieces.length, ...split.top);
    assert.equal(pieces.map((p) => p.text).join(''), text, file);
  }
});

test('documents the split cannot promise to get right are analyzed whole', () => {
  const unsafe = [
    'nika: a\n---\ntasks: {}\n',
    '{ nika: a, tasks: {} }\n',
    'nika: a\ntasks:\n\tt: { infer: x }\n',
    'nika: a\ntasks:\n  - id: t\n',
    'nika: a\ntasks:\n  t:\n    infer: x\n t2:\n    infer: y\n',
    '%YAML 1.2\n---\nnika: a\n',
    'nika: "a\nb"\ntasks: {}\n',
  ];
  for (const text of unsafe) {
    const inc = new IncrementalAnalyzer();
    const a = inc.analyze(text);
    assert.equal(inc.stats.incremental && inc.stats.reason === undefined, false, JSON.stringify(text));
    assertSame(a, analyze(text), JSON.stringify(text));
  }
});

test('every example and fixture analyzes the same incrementally as whole', () => {
  for (const file of CORPUS) {
    const text = readFileSync(file, 'utf8');
    const inc = new IncrementalAnalyzer();
    assertSame(inc.analyze(text), analyze(text), file);
    // A second pass reuses every slice and must still agree.
    assertSame(inc.analyze(text), analyze(text), `${file} (reused)`);
  }
});

test('random edit sequences on every example and fixture agree with a full analysis at each step', () => {
  const r = rng(12345);
  let inPlace = 0;
  let broken = 0;
  for (const file of CORPUS) {
    let text = readFileSync(file, 'utf8');
    const inc = new IncrementalAnalyzer();
    for (let step = 0; step < 25; step++) {
      text = randomEdit(text, r);
      const a = inc.analyze(text);
      const full = analyze(text);
      assertSame(a, full, `${file} after edit ${step}: ${JSON.stringify(text)}`);
      if (full.diagnostics.some((d) => d.code === 'NIKA-PARSE-001')) broken++;
      if (inc.stats.inPlace) inPlace++;
    }
  }
  // The edits break YAML often (most of those versions no longer split at all after a few
  // random line breaks); some are read with a task in place.
  assert.ok(broken > 100 && inPlace >= 10, `versions with YAML errors: ${broken}, read with a task in place: ${inPlace}`);
});

test('typing inside one task of a large workflow reparses that task only and agrees with a full analysis', () => {
  let text = generateWorkflow(60);
  const inc = new IncrementalAnalyzer();
  inc.analyze(text);
  let at = text.indexOf('prompt: "Step ', text.length >> 1) + 'prompt: "'.length;
  assert.ok(at > text.length >> 1);
  const r = rng(99);
  for (let i = 0; i < 15; i++) {
    const piece = ['a', '${{ tasks.step_0002.output }}', '${{ tasks.nope.output }}', ' ', '${{ with.'][Math.floor(r() * 5)];
    text = text.slice(0, at) + piece + text.slice(at);
    at += piece.length;
    const a = inc.analyze(text);
    if (!/\$\{\{ with\.$/.test(text.slice(0, at))) {
      assert.equal(inc.stats.incremental, true);
      assert.equal(inc.stats.parsed, 1, 'one task slice parsed');
    }
    assertSame(a, analyze(text), `typing step ${i}`);
  }
});

test('random edits on a generated workflow (moves, deletions, new tasks) agree with a full analysis', () => {
  const r = rng(7);
  let text = generateWorkflow(40);
  const inc = new IncrementalAnalyzer();
  for (let step = 0; step < 60; step++) {
    text = randomEdit(text, r);
    assertSame(inc.analyze(text), analyze(text), `step ${step}`);
  }
});

test('as the server calls it (unchecked for completion, then checked, same text) it agrees with a full analysis', () => {
  const r = rng(11);
  let text = generateWorkflow(40);
  const inc = new IncrementalAnalyzer();
  for (let step = 0; step < 40; step++) {
    text = randomEdit(text, r);
    const unchecked = inc.analyze(text, { skipChecks: true });
    assert.equal(JSON.stringify(unchecked.workflow), JSON.stringify(analyze(text, { skipChecks: true }).workflow), `step ${step}: IR before checks`);
    assertSame(inc.analyze(text), analyze(text), `step ${step}`);
    // Asked again for the same text, the same findings come back.
    assertSame(inc.analyze(text), analyze(text), `step ${step}, again`);
  }
});

test('line separators that only YAML-unaware regexes would break lines at leave the split alone', () => {
  assert.equal(splitDocument('nika: v1\ndescription: "a\u2028b"\ntasks:\n  a:\n    infer: "x"\n'), undefined);
  assert.equal(splitDocument('nika: v1\r\ntasks:\r\n  a:\r\n    infer: "x"\r\n')?.tasks.length, 1);
});

test('a task with a YAML error is read in place: typing on re-parses that task only, and mending it too', () => {
  let text = generateWorkflow(120).replace(/^# yaml-language-server:.*\n/, '');
  const a = new IncrementalAnalyzer();
  a.analyze(text);
  const at = text.indexOf('\n', text.indexOf('  step_0060:')) + 1;
  text = text.slice(0, at) + '    with: { a: 1\n' + text.slice(at);
  const broken = a.analyze(text);
  assert.deepEqual([a.stats.incremental, a.stats.parsed, a.stats.inPlace], [true, 1, 1]);
  assertSame(broken, analyze(text), 'broken');
  const yamlErrors = broken.diagnostics.filter((d) => d.code === 'NIKA-PARSE-001');
  assert.equal(yamlErrors.length, 1);
  assert.ok(yamlErrors[0].span.start >= at && yamlErrors[0].span.start < text.indexOf('  step_0061:'), JSON.stringify(yamlErrors));
  // Typing on while it is broken: that task is read again, in place.
  text = text.slice(0, at + 15) + 'x' + text.slice(at + 15);
  assertSame(a.analyze(text), analyze(text), 'still broken');
  assert.deepEqual([a.stats.incremental, a.stats.parsed, a.stats.inPlace], [true, 1, 1]);
  // An unclosed quote in a task far below: both read in place.
  const q = text.indexOf('prompt: "Step ', text.indexOf('  step_0090:')) + 'prompt: '.length;
  assert.ok(q > text.indexOf('  step_0090:'));
  const q2 = text.indexOf('"', q + 1);
  text = text.slice(0, q2) + text.slice(q2 + 1);
  assertSame(a.analyze(text), analyze(text), 'two broken tasks');
  assert.deepEqual([a.stats.incremental, a.stats.inPlace], [true, 2]);
  text = text.slice(0, q2) + '"' + text.slice(q2);
  assertSame(a.analyze(text), analyze(text), 'one mended');
  assert.deepEqual([a.stats.incremental, a.stats.parsed, a.stats.inPlace], [true, 1, 1]);
  const close = text.indexOf('\n', at);
  text = text.slice(0, close) + ' }' + text.slice(close);
  const mended = a.analyze(text);
  assert.deepEqual([a.stats.incremental, a.stats.parsed, a.stats.inPlace], [true, 1, 0]);
  assertSame(mended, analyze(text), 'mended');
});

test('the usual half-typed lines are read in place in the middle of a large workflow, and agree with a full analysis', () => {
  const base = generateWorkflow(200).replace(/^# yaml-language-server:.*\n/, '');
  const at = base.indexOf('\n', base.indexOf('  step_0100:')) + 1;
  const lines = ['    with: { a: 1', '    after: [step_0001, step_0002', '    description: "unclosed', '    with: { a: [1', '    with: { a: "x', '    description: x: y', '    with: { a: "${{ tasks.'];
  for (const line of lines) {
    const a = new IncrementalAnalyzer();
    a.analyze(base);
    let text = base.slice(0, at) + line + '\n' + base.slice(at);
    const full = analyze(text);
    assert.ok(full.diagnostics.some((d) => d.code === 'NIKA-PARSE-001'), line);
    assertSame(a.analyze(text), full, line);
    assert.deepEqual([a.stats.incremental, a.stats.inPlace], [true, 1], `${line}: ${a.stats.reason}`);
    // And typing on at its end.
    const end = at + line.length;
    text = text.slice(0, end) + 'x' + text.slice(end);
    assertSame(a.analyze(text), analyze(text), `${line} + x`);
    assert.deepEqual([a.stats.parsed, a.stats.inPlace], [1, 1], line);
  }
});

test('typing quotes and brackets inside the tasks of a large workflow agrees with a full analysis at each step', () => {
  // Characters that open or close YAML constructs, typed past the indentation of task lines
  // (where an editor's cursor is while editing a task), and deletions there: YAML errors come
  // and go, in one task and in neighbours.
  const r = rng(4242);
  const pieces = ['"', "'", '[', ']', '{', '}', ': ', ', ', 'x', '#', '${{ tasks.'];
  let text = generateWorkflow(80).replace(/^# yaml-language-server:.*\n/, '');
  const inc = new IncrementalAnalyzer();
  inc.analyze(text);
  let inPlace = 0;
  // Undoing (as a user mends what they broke) keeps a few errors around at a time, not hundreds.
  const undo: string[] = [];
  for (let step = 0; step < 200; step++) {
    if (undo.length && r() < 0.5) {
      text = undo.pop()!;
      assertSame(inc.analyze(text), analyze(text), `step ${step}: undo`);
      if (inc.stats.inPlace) inPlace++;
      continue;
    }
    undo.push(text);
    const lines = text.split('\n');
    const first = lines.findIndex((l) => l.startsWith('  step_'));
    const i = first + 1 + Math.floor(r() * (lines.length - first - 2));
    const line = lines[i];
    if (!line.startsWith('    ')) { undo.pop(); continue; }
    const col = 4 + Math.floor(r() * (line.length - 3));
    lines[i] = r() < 0.75
      ? line.slice(0, col) + pieces[Math.floor(r() * pieces.length)] + line.slice(col)
      : line.slice(0, col) + line.slice(col + 1);
    text = lines.join('\n');
    assertSame(inc.analyze(text), analyze(text), `step ${step}: ${JSON.stringify(lines[i])}`);
    if (inc.stats.inPlace) inPlace++;
  }
  assert.ok(inPlace >= 10, `versions read with a task in place: ${inPlace}`);
});

test('a YAML error that reaches past its task, or becomes one when the next task changes, is analyzed whole', () => {
  const wf = (b: string) => `nika: v1\nmodel: mock/echo\ntasks:\n  a:\n    infer: 'unclosed\n  b:\n    infer: ${b}\n  c:\n    exec: ls\n`;
  const a = new IncrementalAnalyzer();
  // A single quote closed further down: the scalar stops at the next key line (contained).
  let text = wf("'quoted'");
  assertSame(a.analyze(text), analyze(text), 'contained');
  assert.deepEqual([a.stats.incremental, a.stats.inPlace], [true, 1]);
  // The next task loses its quotes: nothing closes the scalar, which now runs to the end.
  text = wf('plain');
  const full = analyze(text);
  assertSame(a.analyze(text), full, 'swallowing');
  assert.equal(a.stats.incremental, false);
  assert.deepEqual(full.workflow.tasks.map((t) => t.id), ['a'], 'the tasks below are inside the scalar');
  // And back: read in place again.
  text = wf("'again'");
  assertSame(a.analyze(text), analyze(text), 'contained again');
  assert.deepEqual([a.stats.incremental, a.stats.inPlace], [true, 1]);
});
