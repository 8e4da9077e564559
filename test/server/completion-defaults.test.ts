// With a client that takes `itemDefaults.editRange` (LSP 3.17, as VS Code does), completion sends
// the shared replace range once; resolving the defaults must give back exactly the full items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletionItem, CompletionList } from 'vscode-languageserver';
import { buildModel } from '../../server/model.js';
import { completion, resolveCompletionItem, MAX_ITEMS } from '../../server/features/completion.js';
import { generateWorkflow, taskId } from '../../bench/generate.js';

const root = join(__dirname, '..', '..');
const VSCODE_DEFAULTS = ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'];

/** What a client does with the defaults (LSP 3.17 §CompletionList.itemDefaults). */
function resolve(list: CompletionList): CompletionItem[] {
  const d = list.itemDefaults;
  return list.items.map((item) => {
    const out: CompletionItem = { ...item };
    if (out.textEdit === undefined && out.insertText === undefined && d?.editRange && 'start' in d.editRange) {
      out.textEdit = { range: d.editRange, newText: out.textEditText ?? out.label };
      delete out.textEditText;
    }
    if (out.filterText === undefined) out.filterText = out.label;
    if (out.insertTextFormat === undefined && d?.insertTextFormat !== undefined) out.insertTextFormat = d.insertTextFormat;
    return out;
  });
}

function points(text: string): number[] {
  const out: number[] = [];
  for (const marker of ['${{ tasks.', '${{ ', 'tool: "', 'model: ', '\n    ', '\n  ']) {
    for (let i = text.indexOf(marker); i >= 0 && out.length < 400; i = text.indexOf(marker, i + 1)) out.push(i + marker.length);
  }
  return out;
}

test('lists with item defaults resolve to the same items as lists without them', () => {
  let compared = 0;
  let defaulted = 0;
  for (const n of readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.nika.yaml'))) {
    const text = readFileSync(join(root, 'examples', n), 'utf8');
    const model = buildModel(text);
    for (const at of points(text)) {
      const position = model.analysis.doc.lines.positionAt(at);
      const plain = completion(model, position);
      const withDefaults = completion(model, position, { itemDefaults: VSCODE_DEFAULTS });
      if (withDefaults.itemDefaults) defaulted++;
      assert.deepEqual(resolve(withDefaults), plain.items.map((i) => ({ ...i, filterText: i.filterText ?? i.label })), `${n} at ${at}`);
      compared++;
    }
  }
  assert.ok(compared > 50 && defaulted > 10, `compared ${compared}, with defaults ${defaulted}`);
});

test('a client without item defaults gets full items', () => {
  const text = generateWorkflow(50);
  const model = buildModel(text);
  const at = text.indexOf('${{ tasks.', text.length >> 1) + '${{ tasks.'.length;
  const list = completion(model, model.analysis.doc.lines.positionAt(at), { itemDefaults: ['commitCharacters'] });
  assert.equal(list.itemDefaults, undefined);
  assert.ok(list.items.every((i) => i.textEdit), 'every item carries its edit');
});

test('the 1,000 task ids after ${{ tasks. are sent with one shared range', () => {
  const text = generateWorkflow(1000);
  const model = buildModel(text);
  const at = text.indexOf('${{ tasks.', text.length >> 1) + '${{ tasks.'.length;
  const position = model.analysis.doc.lines.positionAt(at);
  const full = completion(model, position);
  const lean = completion(model, position, { itemDefaults: VSCODE_DEFAULTS });
  assert.ok(lean.items.length >= 500);
  assert.ok(lean.items.every((i) => i.textEdit === undefined && (i.textEditText ?? i.label) === full.items.find((f) => f.label === i.label)?.textEdit?.newText));
  assert.ok(JSON.stringify(lean).length < JSON.stringify(full).length * 0.8, 'smaller on the wire');
});

test('a client that resolves details gets task items without them, and each detail on resolve', () => {
  const text = generateWorkflow(300);
  const model = buildModel(text);
  const uri = 'file:///w.nika.yaml';
  const at = text.indexOf('${{ tasks.', text.length >> 1) + '${{ tasks.'.length;
  const position = model.analysis.doc.lines.positionAt(at);
  const eager = completion(model, position, { itemDefaults: VSCODE_DEFAULTS, uri });
  const lazy = completion(model, position, { itemDefaults: VSCODE_DEFAULTS, uri, resolvesDetail: true });
  assert.ok(lazy.items.length > 200);
  assert.ok(lazy.items.every((i) => i.detail === undefined), 'no detail in the list');
  assert.deepEqual(lazy.itemDefaults?.data, { nika: 'task', uri });
  assert.ok(JSON.stringify(lazy).length < JSON.stringify(eager).length * 0.8, 'smaller on the wire');
  // The client merges the default data into the item it resolves (LSP 3.17).
  for (const item of lazy.items) {
    const resolved = resolveCompletionItem({ ...item, data: lazy.itemDefaults!.data }, (u) => (u === uri ? model : undefined));
    const want = eager.items.find((e) => e.label === item.label)!.detail;
    assert.ok(want && want.length > 3);
    assert.equal(resolved.detail, want, item.label);
  }
  // Other items, and items of a document that is gone, come back as they were.
  const other = { label: 'x', detail: 'd' };
  assert.deepEqual(resolveCompletionItem({ ...other }, () => model), other);
  assert.equal(resolveCompletionItem({ label: taskId(1), data: { nika: 'task', uri: 'file:///gone' } }, () => undefined).detail, undefined);
});

test('past the item cap the task list is filtered by the typed word and marked incomplete', () => {
  const n = MAX_ITEMS + 500;
  const text = generateWorkflow(n);
  const model = buildModel(text);
  const at = text.lastIndexOf('${{ tasks.') + '${{ tasks.'.length;
  const all = completion(model, model.analysis.doc.lines.positionAt(at));
  assert.equal(all.items.length, MAX_ITEMS);
  assert.equal(all.isIncomplete, true, 'the client must ask again as the word grows');
  // Typing narrows to the tasks the cap left out, which the client can now reach.
  const far = taskId(n - 1).slice(0, -2);
  const typed = text.slice(0, at) + far + text.slice(at);
  const m2 = buildModel(typed);
  const narrowed = completion(m2, m2.analysis.doc.lines.positionAt(at + far.length));
  const labels = narrowed.items.map((i) => i.label);
  assert.ok(labels.includes(taskId(n - 1)) && labels.includes(taskId(n - 100)), labels.slice(0, 5).join(', '));
  assert.ok(labels.every((l) => /s.*t.*e.*p.*_.*1.*4/.test(l)), 'only ids the word matches');
  // Far fewer than the cap: a short list is complete.
  const few = completion(buildModel(generateWorkflow(50)), position50());
  assert.equal(few.isIncomplete, false);
});

function position50() {
  const text = generateWorkflow(50);
  const at = text.lastIndexOf('${{ tasks.') + '${{ tasks.'.length;
  return buildModel(text).analysis.doc.lines.positionAt(at);
}
