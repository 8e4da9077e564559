// With a client that takes `itemDefaults.editRange` (LSP 3.17, as VS Code does), completion sends
// the shared replace range once; resolving the defaults must give back exactly the full items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletionItem, CompletionList } from 'vscode-languageserver';
import { buildModel } from '../../server/model.js';
import { completion } from '../../server/features/completion.js';
import { generateWorkflow } from '../../bench/generate.js';

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
