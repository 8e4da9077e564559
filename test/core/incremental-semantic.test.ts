// The semantic checks keep facts per task across edits (core/checks/semantic/facts.ts) and resolve
// references under the usual answers about other tasks. Each edit below changes exactly what one
// task's findings read from another task (its id, extract:, group:, edges, the ids a did-you-mean
// picks from, who reads a declaration) and must give what a full analysis gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type Analysis } from '../../core/analyze.js';
import { IncrementalAnalyzer } from '../../core/incremental/analyzer.js';
import { diagKey } from './incremental-helpers.js';

const BASE = readFileSync(join(__dirname, '..', 'fixtures', 'semantic', 'clean.nika.yaml'), 'utf8');

/** Padding tasks, so that most slices are reused and move when an edit above them changes length. */
function padded(text: string): string {
  const extra = Array.from({ length: 12 }, (_, i) => `  pad_${i}:\n    with: { p: "\${{ tasks.pick.output }}" }\n    infer: "pad ${i} \${{ with.p }} \${{ inputs.topic }}"\n`).join('');
  return text.replace('outputs:\n', `${extra}outputs:\n`);
}

/** Applies each replacement in turn (each must match), checking the incremental result every time. */
function run(label: string, start: string, steps: Array<[string | RegExp, string]>, codes: string[] = []): void {
  let text = padded(start);
  const inc = new IncrementalAnalyzer();
  inc.analyze(text);
  const seen = new Set<string>();
  steps.forEach(([from, to], i) => {
    const next = text.replace(from, to);
    assert.notEqual(next, text, `${label}: step ${i} matches`);
    text = next;
    const a = inc.analyze(text);
    assert.equal(inc.stats.incremental, true, `${label}: step ${i} incremental (${inc.stats.reason})`);
    assert.deepEqual(diagKey(a), diagKey(analyze(text)), `${label}: step ${i}\n${text}`);
    for (const d of a.diagnostics) seen.add(d.code);
  });
  for (const c of codes) assert.ok(seen.has(c), `${label}: some step reports ${c}`);
}

test('renaming a producer: its readers find an unknown task, then the old name again', () => {
  run('rename', BASE, [
    ['  pick:\n', '  pickk:\n'],
    ['  pickk:\n', '  pic:\n'],
    ['  pic:\n', '  pick:\n'],
  ], ['NIKA-DAG-002', 'NIKA-VAR-001']);
});

test('a producer gains, renames and loses extract: names its readers use', () => {
  run('extract', BASE, [
    ['    extract: { first: ".[0]" }\n', '    extract: { firs: ".[0]" }\n'],
    ['    extract: { firs: ".[0]" }\n', ''],
    ['    invoke:\n      tool: nika:fetch', '    extract: {}\n    invoke:\n      tool: nika:fetch'],
    ['    extract: {}\n', '    extract: { first: ".[0]", second: ".[1]" }\n'],
  ], ['NIKA-VAR-001']);
});

test('a reader of a producer with no extract: asks for a field, and the producer then declares it', () => {
  run('extract-later', BASE, [
    ['args: { expression: ".[:${{ const.max_items }}]"', 'args: { expression: ".[:${{ const.max_items }}] ${{ tasks.fetch_pages.secnd }}"'],
    ['      pages: "${{ tasks.pick.output }}"', '      pages: "${{ tasks.pick.top }}"'],
    ['  pick:\n', '  pick:\n    extract: { top: ".[0]" }\n'],
    ['    extract: { top: ".[0]" }\n', '    extract: { tops: ".[0]" }\n'],
  ], ['NIKA-VAR-001', 'NIKA-VAR-021']);
});

test('groups appear and disappear under their readers', () => {
  run('groups', BASE, [
    [/ {4}group: writers\n/, ''],
    [/ {4}group: writers\n/, '    group: writer\n'],
    ['    group: writer\n', '    group: editors\n'],
    ['  summarize:\n', '  summarize:\n    group: writers\n'],
  ], ['NIKA-DAG-008']);
});

test('an unknown task name is suggested from the ids as they are now', () => {
  run('did-you-mean', BASE, [
    ['      pages: "${{ tasks.pick.output }}"', '      pages: "${{ tasks.fetch_dat.output }}"'],
    ['  tidy:\n', '  fetch_data:\n    infer: "x"\n  tidy:\n'],
    ['  fetch_data:\n', '  fetch_date:\n'],
    ['  fetch_date:\n', '  fetch_dat:\n'],
  ], ['NIKA-DAG-002']);
});

test('edges that close and open a cycle, and a recovery that waits on a downstream task', () => {
  run('cycles', BASE, [
    ['  pick:\n', '  pick:\n    after: { review: success }\n'],
    ['    after: { review: success }\n', '    after: { pick: success }\n'],
    ['    after: { pick: success }\n', ''],
    ['on_error: { recover: "${{ tasks.pick.output }}" }', 'on_error: { recover: "${{ tasks.review.output }}" }'],
    ['    with: { draft: "${{ tasks.summarize.output }}", st: "${{ tasks.summarize.status == \'success\' }}" }\n', '    with: { st: "${{ inputs.strict }}" }\n'],
    ['on_error: { recover: "${{ tasks.review.output }}" }', 'on_error: { recover: "${{ tasks.summarize.output }}" }'],
    ['  pad_3:\n', '  pad_3:\n    after: { pad_7: success, nowhere: success }\n'],
  ], ['NIKA-DAG-001', 'NIKA-DAG-004', 'NIKA-DAG-002']);
});

test('the last reader of a declaration goes away and comes back', () => {
  run('unused', BASE, [
    ['when: ${{ with.st && !inputs.strict }}', 'when: ${{ with.st }}'],
    ['args: { expression: ".[:${{ const.max_items }}]"', 'args: { expression: ".[:5]"'],
    ['when: ${{ with.st }}', 'when: ${{ with.st && inputs.strict }}'],
  ], ['NIKA-DRIFT-001']);
});

test('an unwind task joins and leaves a group', () => {
  run('unwind', BASE, [
    ['    after: { publish: unwind }\n', '    after: { publish: unwind }\n    group: writers\n'],
    ['    after: { publish: unwind }\n', '    after: { publish: success }\n'],
    ['    after: { publish: success }\n', '    after: { publish: unwind }\n'],
  ], ['NIKA-DAG-009']);
});
