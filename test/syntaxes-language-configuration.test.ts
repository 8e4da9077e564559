// language-configuration.json: VS Code compiles these regexes itself, so a typo here silently
// disables indentation or word selection. Exercise each one on lines a user would type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface OnEnterRule { beforeText: string; action: { indent: string } }
const config = JSON.parse(readFileSync(join(__dirname, '..', 'language-configuration.json'), 'utf8')) as {
  comments: { lineComment: string };
  brackets: string[][];
  autoClosingPairs: Array<{ open: string; close: string; notIn?: string[] }>;
  surroundingPairs: string[][];
  folding: { offSide: boolean; markers: { start: string; end: string } };
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
  onEnterRules: OnEnterRule[];
  wordPattern: string;
};

/** Words as VS Code finds them: repeated global matches of wordPattern over the line. */
function words(line: string): string[] {
  return [...line.matchAll(new RegExp(config.wordPattern, 'g'))].map((m) => m[0]);
}

test('comments, brackets and surrounding pairs', () => {
  assert.equal(config.comments.lineComment, '#');
  assert.deepEqual(config.brackets.map((b) => b.join('')), ['{}', '[]', '()']);
  assert.ok(config.surroundingPairs.some(([a, b]) => a === '"' && b === '"'));
});

test('typing ${{ closes with " }}", which extends an already auto-closed "}"', () => {
  const pair = config.autoClosingPairs.find((p) => p.open === '${{');
  assert.ok(pair);
  assert.equal(pair.close, ' }}');
  // VS Code treats `{`→`}` as contained in `${{`→` }}` only if the long close ends with the short one.
  const brace = config.autoClosingPairs.find((p) => p.open === '{');
  assert.ok(brace && pair.close.endsWith(brace.close) && pair.open.includes(brace.open));
  // Quotes do not auto-close inside strings (YAML quoting would break).
  assert.ok(config.autoClosingPairs.find((p) => p.open === '"')?.notIn?.includes('string'));
});

test('word pattern keeps tool ids, task ids and kebab names whole', () => {
  assert.deepEqual(words('    tool: mcp:fs/read_file'), ['tool', 'mcp:fs/read_file']);
  assert.deepEqual(words('  tools: ["mcp:browser/*", nika:read]'), ['tools', 'mcp:browser/*', 'nika:read']);
  assert.deepEqual(words('  with: { s: "${{ tasks.fetch_page.output }}" }'), ['with', 's', 'tasks', 'fetch_page', 'output']);
  assert.deepEqual(words('nika: my-workflow'), ['nika', 'my-workflow']);
  assert.deepEqual(words('      max_turns: 10'), ['max_turns', '10']);
});

test('indentation increases after a trailing colon and block scalar headers, not inside values', () => {
  const inc = new RegExp(config.indentationRules.increaseIndentPattern);
  for (const line of ['tasks:', '  summarize:', '    infer:', '      prompt: |', '      shell: >-', '  - id: a', '  - name:', '  "quoted key":', 'inputs:  # comment', '  -']) {
    assert.ok(inc.test(line), `should indent after ${JSON.stringify(line)}`);
  }
  for (const line of ['nika: x', '  prompt: "a: b"', "  when: '${{ a }}'", '  # note:', '    infer: { prompt: hi }', '  - a']) {
    assert.ok(!inc.test(line), `should not indent after ${JSON.stringify(line)}`);
  }
  const dec = new RegExp(config.indentationRules.decreaseIndentPattern);
  assert.ok(dec.test('  }'));
  assert.ok(dec.test('  ],'));
  assert.ok(!dec.test('  a: }'));
});

test('Enter after "key:" indents; after "key: value" it does not', () => {
  const rules = config.onEnterRules.map((r) => ({ re: new RegExp(r.beforeText), indent: r.action.indent }));
  const indents = (line: string) => rules.some((r) => r.indent === 'indent' && r.re.test(line));
  assert.ok(indents('  summarize:'));
  assert.ok(indents('    agent:   # the loop'));
  assert.ok(indents('      prompt: |'));
  assert.ok(!indents('      prompt: hello'));
  assert.ok(!indents('# tasks:'));
  // The next key of a mapping in a list lines up with the first one, past the dash.
  assert.ok(indents('  - id: fetch'));
  assert.ok(!indents('  - plain item'));
});

test('folding follows indentation, with #region markers', () => {
  assert.equal(config.folding.offSide, true);
  assert.ok(new RegExp(config.folding.markers.start).test('  # region inputs'));
  assert.ok(new RegExp(config.folding.markers.end).test('# endregion'));
});
