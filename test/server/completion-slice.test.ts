// Completion reads the patched document by slices (server/features/patchedSlice.ts) instead of
// parsing the whole patched text. These tests compare both ways on every example and fixture, at
// many cursor positions and after typical half-typed edits, and check the large-workflow case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type Analysis } from '../../core/analyze.js';
import { IncrementalAnalyzer } from '../../core/incremental/analyzer.js';
import { buildModel, modelOf, type DocModel } from '../../server/model.js';
import { completion } from '../../server/features/completion.js';
import { cursorContext, cursorContextOptions, cursorContextStats, type CursorContext } from '../../server/features/cursorContext.js';
import { allBuiltins } from '../../server/features/tools.js';
import { patchedViewStats } from '../../server/features/patchedSlice.js';
import { generateWorkflow, taskId } from '../../bench/generate.js';
import type { ToolCatalog } from '../../core/catalog/mcp.js';

const root = join(__dirname, '..', '..');

const CATALOG: ToolCatalog = {
  servers: [{
    name: 'everything', status: 'connected', tools: [
      { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' }, mode: { type: 'string', enum: ['a', 'b'] } }, required: ['message'] } },
    ],
  }],
};

function workflows(): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const n of readdirSync(dir).sort()) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.nika.yaml')) out.push({ name: p.slice(root.length + 1), text: readFileSync(p, 'utf8') });
    }
  };
  for (const n of readdirSync(join(root, 'examples')).sort()) {
    if (!n.endsWith('.nika.yaml')) continue;
    const text = readFileSync(join(root, 'examples', n), 'utf8');
    out.push({ name: `examples/${n}`, text });
    if (n === 'pipeline.nika.yaml') out.push({ name: `examples/${n} (CRLF)`, text: text.replace(/\n/g, '\r\n') });
  }
  walk(join(root, 'test/fixtures'));
  return out;
}

/** What a context says, minus the document view (compared through what completion makes of it). */
function shape(ctx: CursorContext | undefined): unknown {
  if (!ctx) return undefined;
  const { doc: _doc, ...rest } = ctx;
  return rest;
}

interface Tally { slice: number; whole: number; reasons: Map<string, number> }

/** Completion and cursor context at `offset`, by slices and by the whole patched text: the same. */
function compare(model: DocModel, offset: number, label: string, tally: Tally): void {
  const lines = model.analysis.doc.lines;
  const position = lines.positionAt(offset);
  const where = `${label} @${position.line + 1}:${position.character + 1} ${JSON.stringify(lines.lineText(position.line))}`;
  try {
    cursorContextOptions.slices = true;
    const sliced = shape(cursorContext(model.text, offset, lines, model.analysis));
    const list = completion(model, position);
    if (cursorContextStats.path !== 'slice') {
      // Refused (or nothing to complete): the whole parse already answered.
      if (cursorContextStats.path === 'whole') {
        tally.whole++;
        const r = cursorContextStats.reason ?? '?';
        tally.reasons.set(r, (tally.reasons.get(r) ?? 0) + 1);
      }
      return;
    }
    tally.slice++;
    cursorContextOptions.slices = false;
    const whole = shape(cursorContext(model.text, offset, lines, model.analysis));
    const wholeList = completion(model, position);
    assert.notEqual(cursorContextStats.path, 'slice');
    assert.deepEqual(sliced, whole, `cursor context differs at ${where}`);
    assert.deepEqual(list, wholeList, `completion differs at ${where}`);
  } finally {
    cursorContextOptions.slices = true;
  }
}

/**
 * Cursor positions worth trying in a text: every line end and every place just after
 * `${{ tasks.`, `tool: "`, `with.`, `inputs.`; on every other line also the start of the content,
 * the middle of its key and just after `key: `.
 */
function positions(text: string): number[] {
  const out = new Set<number>();
  let start = 0;
  text.split('\n').forEach((line, i) => {
    const end = start + line.length;
    out.add(end);
    if (i % 2 === 0) {
      const lead = /^\s*(?:-\s+)?/.exec(line)![0].length;
      out.add(start + lead);
      const key = /^\s*(?:-\s+)?([A-Za-z0-9_-]+)(:\s)?/.exec(line);
      if (key && key[1].length > 1) out.add(start + lead + Math.floor(key[1].length / 2));
      if (key?.[2]) out.add(start + key[0].length);
    }
    start = end + 1;
  });
  for (const re of [/\$\{\{ tasks\./g, /tool: "/g, /with\./g, /inputs\./g]) {
    for (const m of text.matchAll(re)) out.add(m.index! + m[0].length);
  }
  return [...out].filter((o) => o >= 0 && o <= text.length).sort((a, b) => a - b);
}

/** Half-typed edits after line `i`: the text and where the cursor is. */
function edits(text: string, every: number): Array<{ text: string; offset: number; what: string }> {
  const out: Array<{ text: string; offset: number; what: string }> = [];
  const lines = text.split('\n');
  let at = 0;
  lines.forEach((line, i) => {
    const end = at + line.length;
    at = end + 1;
    if (i % every !== 0 || line.trim() === '' || line.trim().startsWith('#')) return;
    const indent = /^\s*/.exec(line)![0];
    const opener = /^\s*(?:-\s+)?[A-Za-z0-9_-]+:\s*$/.test(line);
    const child = opener ? `${indent}  ` : indent;
    const insert = (s: string, what: string) => out.push({ text: text.slice(0, end) + s + text.slice(end), offset: end + s.length, what });
    insert(`\n${child}w`, 'bare word');
    insert(`\n${child}`, 'empty line');
    insert(`\n${child}  `, 'deeper empty line');
    if (opener) {
      insert(`\n${child}x: \${{ tasks.`, 'expression');
      insert(`\n${child}tool: "`, 'unclosed quote');
      insert(`\n${child}tool: "nika:`, 'tool prefix');
      insert(`\n${child}prompt: \${{ with.`, 'with');
    } else if (/:\s*\S/.test(line)) {
      insert(' ${{ tasks.', 'expression at the end');
    }
  });
  return out;
}

test('slices and whole parse agree on every example and fixture, at many positions', () => {
  const tally: Tally = { slice: 0, whole: 0, reasons: new Map() };
  for (const { name, text } of workflows()) {
    const model = buildModel(text, CATALOG);
    const before = tally.slice;
    // Other dialects always take the whole parse: a few positions show that.
    const v1 = model.analysis.dialect === 'v1';
    for (const offset of v1 ? positions(text) : positions(text).filter((_, i) => i % 8 === 0)) compare(model, offset, name, tally);
    // Every clean current-v1 workflow here splits: its completions go by slices.
    if (model.analysis.dialect === 'v1' && model.analysis.doc.parseDiagnostics.length === 0) {
      assert.ok(tally.slice > before, `${name}: no completion went by slices`);
    }
  }
  assert.ok(tally.slice > tally.whole, `slices ${tally.slice}, whole ${tally.whole}: ${JSON.stringify([...tally.reasons])}`);
});

test('the view from the analyzer\'s cut agrees with the whole parse on every example and fixture', () => {
  const tally: Tally = { slice: 0, whole: 0, reasons: new Map() };
  const before = patchedViewStats.byLayout;
  for (const { name, text } of workflows()) {
    const analysis = new IncrementalAnalyzer().analyze(text, { catalog: CATALOG, skipChecks: true });
    if (!analysis.layout) continue;
    const model = modelOf(analysis, CATALOG);
    for (const offset of positions(text)) compare(model, offset, `${name} (incremental)`, tally);
  }
  // Positions inside tasks (most of them) go that way.
  assert.ok(patchedViewStats.byLayout - before > tally.slice / 3, `by the cut ${patchedViewStats.byLayout - before} of ${tally.slice} by slices`);
});

test('in a task with a YAML error, the view reads that task in place and agrees with the whole parse', () => {
  const tally: Tally = { slice: 0, whole: 0, reasons: new Map() };
  const before = patchedViewStats.inPlace;
  const base = generateWorkflow(60).replace(/^# yaml-language-server:.*\n/, '');
  const at = base.indexOf('\n', base.indexOf('  step_0030:')) + 1;
  for (const line of ['    with: { a: 1', '    after: [step_0001, step_0002', '    description: "unclosed', '    with: { a: "${{ tasks.']) {
    const text = base.slice(0, at) + line + '\n' + base.slice(at);
    const analyzer = new IncrementalAnalyzer();
    analyzer.analyze(base, { catalog: CATALOG, skipChecks: true });
    const analysis = analyzer.analyze(text, { catalog: CATALOG, skipChecks: true });
    assert.equal(analyzer.stats.inPlace, 1, line);
    const model = modelOf(analysis, CATALOG);
    const from = text.lastIndexOf('\n  step_0030:', at);
    const to = text.indexOf('\n  step_0031:', at);
    for (const offset of positions(text)) if (offset > from && offset <= to) compare(model, offset, `${line} (in place)`, tally);
  }
  assert.ok(patchedViewStats.inPlace - before > 10, `read in place ${patchedViewStats.inPlace - before} times, ${tally.slice} by slices, whole ${JSON.stringify([...tally.reasons])}`);
});

test('slices and whole parse agree after half-typed edits (full and incremental analyses)', () => {
  const tally: Tally = { slice: 0, whole: 0, reasons: new Map() };
  for (const { name, text } of workflows()) {
    if (analyze(text, { skipChecks: true }).dialect !== 'v1') continue;
    const analyzer = new IncrementalAnalyzer();
    analyzer.analyze(text, { catalog: CATALOG, skipChecks: true });
    edits(text, text.length > 2000 ? 4 : 3).forEach((e, i) => {
      const label = `${name} (${e.what})`;
      // The server's models come from the incremental analyzer (stitched slices), the tests' from analyze().
      const analysis: Analysis = i % 2 ? analyzer.analyze(e.text, { catalog: CATALOG, skipChecks: true }) : analyze(e.text, { catalog: CATALOG, skipChecks: true });
      compare(modelOf(analysis, CATALOG), e.offset, `${label}${i % 2 ? ', incremental' : ''}`, tally);
    });
  }
  assert.ok(tally.slice > 0, `no completion went by slices: ${JSON.stringify([...tally.reasons])}`);
});

test('1,000 tasks: task ids and builtin tools by slices, as the whole parse has them', () => {
  const text = generateWorkflow(1000);
  const model = modelOf(analyze(text, { skipChecks: true }));
  const lines = model.analysis.doc.lines;
  const tally: Tally = { slice: 0, whole: 0, reasons: new Map() };
  const labels = (offset: number) => {
    const list = completion(model, lines.positionAt(offset));
    assert.equal(cursorContextStats.path, 'slice', `went the whole way: ${cursorContextStats.reason}`);
    return list.items.map((i) => i.label);
  };

  // In `outputs:`: every task.
  const inOutputs = text.lastIndexOf('${{ tasks.') + '${{ tasks.'.length;
  const all = Array.from({ length: 1000 }, (_, i) => taskId(i));
  assert.deepEqual([...labels(inOutputs)].sort(), all);
  // In a task near the middle: every other task.
  const mid = text.indexOf('${{ tasks.', text.length / 2) + '${{ tasks.'.length;
  const own = text.slice(0, mid).match(/\n {2}(step_\d{4}):/g)!.pop()!.trim().slice(0, -1);
  assert.deepEqual([...labels(mid)].sort(), all.filter((id) => id !== own));

  const tool = text.indexOf('tool: "', text.length / 2) + 'tool: "'.length;
  const builtins = allBuiltins().filter((b) => !b.agentOnly).map((b) => b.id);
  const got = labels(tool);
  for (const id of builtins) assert.ok(got.includes(id), `missing ${id}`);

  // And both ways agree there, including right after a half-typed key in the middle.
  for (const offset of [inOutputs, mid, tool]) compare(model, offset, '1,000 tasks', tally);
  const line = text.lastIndexOf('\n    infer:', mid);
  const typed = text.slice(0, line) + '\n    wi' + text.slice(line);
  compare(modelOf(analyze(typed, { skipChecks: true })), line + '\n    wi'.length, '1,000 tasks, typed key', tally);
  // A new task id between two tasks: the keys already present are every task id.
  const next = text.indexOf(`\n  ${own}:`);
  const blank = text.slice(0, next) + '\n  ' + text.slice(next);
  const blankModel = modelOf(analyze(blank, { skipChecks: true }));
  compare(blankModel, next + 3, '1,000 tasks, new task id', tally);
  const ctx = cursorContext(blank, next + 3, blankModel.analysis.doc.lines, blankModel.analysis)!;
  assert.equal(cursorContextStats.path, 'slice');
  assert.deepEqual(ctx.path, ['tasks']);
  assert.equal(ctx.presentKeys.size, 1000);
  assert.equal(tally.whole, 0, JSON.stringify([...tally.reasons]));
});
