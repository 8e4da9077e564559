// Completion right behind a keystroke is answered from the model of the version before it (the
// server has not analyzed the new text yet). Whenever that path answers, it must give exactly what
// a model of the new text gives; when it cannot be sure, it must decline (null).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildModel } from '../../server/model.js';
import { completion } from '../../server/features/completion.js';
import { LineIndex } from '../../core/text.js';
import { generateWorkflow } from '../../bench/generate.js';

const root = join(__dirname, '..', '..');

function rng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
}

/** Type `piece` at `at`, then complete at the end of what was typed. */
function compare(before: string, at: number, piece: string, label: string): 'answered' | 'declined' {
  const stale = buildModel(before);
  const text = before.slice(0, at) + piece + before.slice(at);
  const lines = new LineIndex(text);
  const position = lines.positionAt(at + piece.length);
  const got = completion(stale, position, {}, { text, lines });
  if (got === null) return 'declined';
  assert.deepEqual(got, completion(buildModel(text), position), label);
  return 'answered';
}

const PIECES = ['x', ' ', '${{ tasks.', '${{ with.', '${{ inputs.', 'tool: "', '\n    ', '\n      ', 'mcp:', '"'];

test('on every example, keystrokes then completion agree with a fresh model (or decline)', () => {
  let answered = 0;
  for (const n of readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.nika.yaml'))) {
    const text = readFileSync(join(root, 'examples', n), 'utf8');
    const r = rng(n.length * 7919);
    for (let i = 0; i < 40; i++) {
      const at = Math.floor(r() * text.length);
      const piece = PIECES[Math.floor(r() * PIECES.length)];
      if (compare(text, at, piece, `${n} +${JSON.stringify(piece)} at ${at}`) === 'answered') answered++;
    }
  }
  assert.ok(answered > 40, `answered ${answered}`);
});

test('in a large workflow, typing in a prompt then completing after ${{ tasks. uses the earlier model', () => {
  const text = generateWorkflow(300);
  const at = text.indexOf('prompt: "Step ', text.length >> 1) + 'prompt: "'.length;
  assert.equal(compare(text, at, 'see ${{ tasks.', 'tasks. in a prompt'), 'answered');
  const tool = text.indexOf('tool: "', text.length >> 1) + 'tool: "'.length;
  assert.equal(compare(text, tool, 'n', 'a tool id'), 'answered');
});

test('a keystroke outside the cursor\'s task makes the earlier model decline', () => {
  const before = generateWorkflow(40);
  const first = before.indexOf('prompt: "Step ') + 'prompt: "'.length;
  const text = before.slice(0, first) + 'x' + before.slice(first);
  const lines = new LineIndex(text);
  const cursor = text.lastIndexOf('${{ ') + 4;
  const got = completion(buildModel(before), lines.positionAt(cursor), {}, { text, lines });
  assert.equal(got, null);
});

test('the server takes the earlier model only when the keystroke is on the cursor line', async () => {
  const { onCursorLine } = await import('../../server/connection.js');
  const before = 'a: 1\nb: "xy"\nc: 3\n';
  const typed = 'a: 1\nb: "xzy"\nc: 3\n';
  assert.equal(onCursorLine(before, typed, typed.indexOf('zy') + 1), true);
  assert.equal(onCursorLine(before, typed, typed.indexOf('c:')), false, 'cursor on another line');
  assert.equal(onCursorLine(before, 'a: 1\nb: "x\nzy"\nc: 3\n', 12), false, 'a line break was typed');
  assert.equal(onCursorLine(before, before, 3), true, 'nothing changed');
});
