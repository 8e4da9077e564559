// The deep checks keep per-task facts across edits (liveness, jq, run rules, the YAML profile).
// Their findings also depend on other tasks (a producer's policies, whether it fans out, caps
// counted over the whole file, aliases elsewhere, the file's line-ending style): each case edits
// exactly that outside information and expects the same findings as a full analysis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../core/analyze.js';
import { IncrementalAnalyzer } from '../../core/incremental/analyzer.js';
import { diagKey } from './incremental-helpers.js';

/** Analyzes each text in turn incrementally; every step must agree with a full analysis. */
function steps(label: string, texts: string[], code?: string): void {
  const inc = new IncrementalAnalyzer();
  const seen = new Set<boolean>();
  texts.forEach((text, i) => {
    const a = inc.analyze(text);
    if (i > 0) assert.equal(inc.stats.incremental && inc.stats.reason === undefined, true, `${label} step ${i}: analyzed incrementally`);
    const full = analyze(text);
    assert.deepEqual(diagKey(a), diagKey(full), `${label} step ${i}`);
    seen.add(full.diagnostics.some((d) => d.code === code));
  });
  // The sequence must both show and not show the finding, or it tests nothing.
  if (code) assert.deepEqual([...seen].sort(), [false, true], `${label}: ${code} comes and goes`);
}

const head = 'nika: t\npermits: {}\n';
const filler = (n: number, p = 'f'): string => Array.from({ length: n }, (_, i) => `  ${p}${i}:\n    exec: { command: [ls] }\n`).join('');

test('liveness: a producer\'s own policies decide whether a consumer\'s edge is dead', () => {
  const producer = (extra: string) => `  a:\n    exec: { command: [ls] }\n${extra}`;
  const consumer = '  b:\n    after: { a: skipped }\n    exec: { command: [ls] }\n';
  const t = (extra: string) => `${head}tasks:\n${filler(3)}${producer(extra)}${filler(2, 'g')}${consumer}`;
  steps('on_error', [t(''), t('    on_error: { skip: true }\n'), t(''), t('    when: false\n')], 'NIKA-DAG-006');
  // Renaming the producer away turns the edge into one on an unknown task (DAG-002, not 006).
  const r = (id: string) => `${head}tasks:\n  ${id}:\n    exec: { command: [ls] }\n${filler(2)}${consumer}`;
  steps('rename', [r('a'), r('ax'), r('a')], 'NIKA-DAG-006');
  // A chain: only the first dead edge is reported; the middle task's change moves the report.
  const c = (mid: string) => `${head}tasks:\n  a:\n    when: false\n    exec: { command: [ls] }\n  m:\n    after: { a: ${mid} }\n    exec: { command: [ls] }\n${consumer.replace('{ a: skipped }', '{ m: success }')}`;
  steps('chain', [c('success'), c('skipped'), c('terminal'), c('success')], 'NIKA-DAG-006');
});

test('liveness: a constant when: follows const: in the envelope', () => {
  const t = (env: string) => `${head}const:\n  env: ${env}\ntasks:\n${filler(2)}  a:\n    when: "\${{ const.env == 'prod' }}"\n    exec: { command: [ls] }\n  b:\n    after: { a: success }\n    exec: { command: [ls] }\n`;
  steps('const', [t('prod'), t('dev'), t('prod')], 'NIKA-DAG-006');
});

test('jq reshape lint: the producer must exist and not fan out', () => {
  const jq = '  b:\n    with: { x: "${{ tasks.a.output }}" }\n    invoke: { tool: "nika:jq", args: { expression: ".items | length", input: "${{ with.x }}" } }\n';
  const t = (producer: string) => `${head}tasks:\n${producer}${filler(2)}${jq}`;
  steps('producer', [
    t('  a:\n    exec: { command: [ls] }\n'),
    t('  a:\n    for_each: { items: [1, 2] }\n    exec: { command: [ls] }\n'),
    t('  a:\n    exec: { command: [ls] }\n'),
    t('  ax:\n    exec: { command: [ls] }\n'),
    t('  a:\n    exec: { command: [ls] }\n'),
  ], 'one-obvious-way/013');
});

test('run rules: a jitter fix takes the line-ending style of the whole file', () => {
  const t = (eol: string) => `${head}run: { entropy: none, clock: virtual }\ntasks:\n  a:\n    exec: { command: [ls] }\n    retry:\n      max_attempts: 3\n${filler(2)}  c:\n    # a comment${eol}    exec: { command: [ls] }\n`;
  const inc = new IncrementalAnalyzer();
  const fixes = new Set<string>();
  for (const text of [t('\n'), t('\r\n'), t('\n')]) {
    const a = inc.analyze(text);
    assert.equal(inc.stats.reason, undefined);
    assert.deepEqual(diagKey(a), diagKey(analyze(text)));
    fixes.add(JSON.stringify(a.diagnostics.find((d) => d.code === 'NIKA-PARSE-028')?.data));
  }
  assert.equal(fixes.size, 2, 'the fix follows the line ends');
});

test('YAML profile: caps over the whole file, one depth finding, anchors aliased elsewhere', () => {
  // 40 anchors per task: two tasks exceed the cap of 50; which are kept follows document order.
  const tags = (n: number) => Array.from({ length: n }, (_, i) => `      k${i}: &a${i} v`).join('\n');
  const tagged = (id: string, n: number) => `  ${id}:\n    exec: { command: [ls] }\n    with:\n${tags(n)}\n`;
  const t1 = (n: number) => `${head}tasks:\n${tagged('a', n)}${filler(2)}${tagged('b', 40)}`;
  steps('cap', [t1(40), t1(20), t1(0), t1(40), t1(45)]);
  const kept = (text: string) => analyze(text).diagnostics.filter((d) => d.code === 'NIKA-YAML-001').map((d) => d.span.start);
  assert.equal(kept(t1(20)).length, 50);
  assert.notDeepEqual(kept(t1(20)), kept(t1(40)));
  // Nesting deeper than the limit in two tasks: only the first is reported.
  const deep = (d: number) => `    with:\n      x: ${'['.repeat(d)}${']'.repeat(d)}\n`;
  const t2 = (d: number) => `${head}tasks:\n  a:\n    exec: { command: [ls] }\n${deep(d)}${filler(2)}  b:\n    exec: { command: [ls] }\n${deep(70)}`;
  steps('depth', [t2(70), t2(3), t2(70)]);
  const depth = (text: string) => analyze(text).diagnostics.filter((d) => d.code === 'NIKA-YAML-009').map((d) => d.span.start);
  assert.equal(depth(t2(70)).length, 1);
  assert.notDeepEqual(depth(t2(70)), depth(t2(3)));
  // An anchor in the envelope loses its fix while an alias in a task names it.
  const t3 = (alias: string) => `${head}const:\n  base: &b { x: 1 }\ntasks:\n${filler(2)}  a:\n    exec: { command: [ls] }\n    with: { v: ${alias} }\n`;
  const inc = new IncrementalAnalyzer();
  for (const text of [t3('1'), t3('*b'), t3('2')]) assert.deepEqual(diagKey(inc.analyze(text)), diagKey(analyze(text)));
});
