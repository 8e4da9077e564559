// The TextMate grammars, tokenized with the same engine VS Code uses (vscode-textmate on the
// Oniguruma WASM), loaded the way package.json contributes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vsctm from 'vscode-textmate';
import * as onig from 'vscode-oniguruma';
import { GRAMMAR_FILES, renderGrammar } from '../syntaxes/generate.js';

const root = join(__dirname, '..');
const at = (p: string) => join(root, p);

interface Contribution { language?: string; scopeName: string; path: string; injectTo?: string[] }
const pkg = JSON.parse(readFileSync(at('package.json'), 'utf8')) as { contributes: { grammars: Contribution[] } };

let grammarPromise: Promise<import('vscode-textmate').IGrammar> | undefined;
function grammar(): Promise<import('vscode-textmate').IGrammar> {
  grammarPromise ??= (async () => {
    const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
    const byScope = new Map(pkg.contributes.grammars.map((g) => [g.scopeName, g]));
    const registry = new vsctm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns: string[]) => new onig.OnigScanner(patterns),
        createOnigString: (s: string) => new onig.OnigString(s),
      }),
      loadGrammar: async (scopeName: string) => {
        const g = byScope.get(scopeName);
        if (!g) return null;
        const file = at(g.path);
        return vsctm.parseRawGrammar(readFileSync(file, 'utf8'), file);
      },
      getInjections: (scopeName: string) =>
        pkg.contributes.grammars.filter((g) => g.injectTo?.includes(scopeName)).map((g) => g.scopeName),
    });
    const g = await registry.loadGrammar('source.nika');
    assert.ok(g, 'source.nika grammar loads');
    return g;
  })();
  return grammarPromise;
}

interface Tok { text: string; scopes: string[]; line: number }

async function tokenize(text: string): Promise<Tok[]> {
  const g = await grammar();
  let state = vsctm.INITIAL;
  const out: Tok[] = [];
  text.split(/\r?\n/).forEach((line, n) => {
    const r = g.tokenizeLine(line, state);
    state = r.ruleStack;
    for (const t of r.tokens) out.push({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes, line: n });
  });
  return out;
}

/** Scopes of the `nth` token whose text is exactly `text` (on `line` when given). */
function scopesOf(toks: Tok[], text: string, opts: { nth?: number; line?: number } = {}): string[] {
  const hits = toks.filter((t) => t.text === text && (opts.line === undefined || t.line === opts.line));
  const hit = hits[opts.nth ?? 0];
  assert.ok(hit, `no token ${JSON.stringify(text)} in ${JSON.stringify(toks.map((t) => t.text))}`);
  return hit.scopes;
}
function has(scopes: string[], prefix: string): boolean {
  return scopes.some((s) => s === prefix || s.startsWith(prefix + '.') || s.split(' ').includes(prefix));
}
function assertScope(toks: Tok[], text: string, scope: string, opts: { nth?: number; line?: number } = {}): void {
  const scopes = scopesOf(toks, text, opts);
  assert.ok(has(scopes, scope), `${JSON.stringify(text)} should have ${scope}, has ${scopes.join(' | ')}`);
}
function assertNoScope(toks: Tok[], text: string, scope: string, opts: { nth?: number; line?: number } = {}): void {
  const scopes = scopesOf(toks, text, opts);
  assert.ok(!has(scopes, scope), `${JSON.stringify(text)} should not have ${scope}, has ${scopes.join(' | ')}`);
}

const WORKFLOW = `# SPDX-License-Identifier: Apache-2.0
nika: summarize  # the name
model: mock/echo
inputs:
  name: { type: string, default: "World" }
permits:
  tools: ["mcp:fs/read_file", nika:read]
tasks:
  greet:
    infer: { prompt: "Hi \${{ inputs.name }}" }
  read:
    with: { g: "\${{ tasks.greet.output }}" }
    after: { greet: success }
    when: \${{ size(with.g) > 3 && with.g.startsWith('Hi') }}
    invoke:
      tool: mcp:fs/read_file
      args: { path: README.md, lines: 12, raw: true }
  think:
    agent:
      prompt: |
        Summarize \${{ with.g }} # not a comment
      tools: [nika:read]
      max_turns: 4
outputs:
  out: \${{ tasks.read.output }}
`;

test('the committed grammar JSON is what syntaxes/generate.ts produces', () => {
  for (const file of Object.keys(GRAMMAR_FILES)) {
    const committed = readFileSync(at(`syntaxes/${file}`), 'utf8');
    assert.equal(committed, renderGrammar(file), `syntaxes/${file} is stale: run npx tsx syntaxes/generate.ts`);
  }
});

test('package.json contributes both grammars with matching scope names', () => {
  const main = pkg.contributes.grammars.find((g) => g.language === 'nika');
  assert.equal(main?.scopeName, 'source.nika');
  assert.equal(JSON.parse(readFileSync(at(main!.path), 'utf8')).scopeName, 'source.nika');
  const inj = pkg.contributes.grammars.find((g) => g.injectTo?.includes('source.nika'));
  assert.ok(inj);
  assert.equal(JSON.parse(readFileSync(at(inj.path), 'utf8')).scopeName, inj.scopeName);
});

test('${{ }} in a quoted prompt: embedded delimiters, roots as variable.language', async () => {
  const toks = await tokenize('tasks:\n  a:\n    infer:\n      prompt: "Hi ${{ inputs.name }}"\n');
  assertScope(toks, '${{', 'punctuation.section.embedded.begin');
  assertScope(toks, '}}', 'punctuation.section.embedded.end');
  assertScope(toks, 'inputs', 'variable.language');
  assertScope(toks, 'inputs', 'meta.embedded.expression.nika');
  assertScope(toks, 'name', 'variable.other.property');
  assertScope(toks, 'Hi ', 'string.quoted.double');
  assertScope(toks, 'infer', 'keyword.control.verb');
});

test('envelope keys, workflow name, comments, model ids', async () => {
  const toks = await tokenize(WORKFLOW);
  for (const key of ['nika', 'model', 'inputs', 'permits', 'tasks', 'outputs']) assertScope(toks, key, 'keyword.other.envelope', { nth: 0 });
  assertScope(toks, 'summarize', 'entity.name.section.workflow');
  assertScope(toks, ' the name', 'comment.line.number-sign');
  assertScope(toks, '#', 'punctuation.definition.comment', { line: 0 });
  assertScope(toks, 'mock', 'support.type.provider');
  assertScope(toks, 'echo', 'entity.name.type.model');
  // A `#` inside a block scalar is text, not a comment.
  assertScope(toks, ' # not a comment', 'string.unquoted.block');
  assertNoScope(toks, ' # not a comment', 'comment');
});

test('task ids, the four verbs, task keys and after predicates', async () => {
  const toks = await tokenize(WORKFLOW);
  assertScope(toks, 'greet', 'entity.name.function.task', { nth: 0 });
  assertScope(toks, 'read', 'entity.name.function.task', { line: 10 });
  assertScope(toks, 'think', 'entity.name.function.task');
  assertScope(toks, 'infer', 'keyword.control.verb');
  assertScope(toks, 'invoke', 'keyword.control.verb');
  assertScope(toks, 'agent', 'keyword.control.verb');
  assertScope(toks, 'with', 'keyword.other.task-key', { line: 11 });
  assertScope(toks, 'after', 'keyword.other.task-key');
  assertScope(toks, 'when', 'keyword.other.task-key');
  assertScope(toks, 'greet', 'variable.other.task', { line: 12 });
  assertScope(toks, 'success', 'constant.language.predicate');
  // Outside `tasks:`, a key named like a verb is just a key.
  const permits = await tokenize('permits:\n  exec: true\n');
  assertNoScope(permits, 'exec', 'keyword.control.verb');
  assertScope(permits, 'true', 'constant.language.boolean');
});

test('builtin and MCP tool ids get distinct scopes, quoted or plain, with globs and negation', async () => {
  const toks = await tokenize(WORKFLOW);
  assertScope(toks, 'read', 'support.function.builtin', { line: 6 });
  assertScope(toks, 'fs', 'entity.name.namespace.mcp-server', { line: 6 });
  assertScope(toks, 'read_file', 'entity.name.function.mcp-tool', { line: 6 });
  assertScope(toks, 'read_file', 'entity.name.function.mcp-tool', { line: 15 });
  assertScope(toks, 'mcp', 'keyword.other.namespace.mcp', { line: 15 });
  const globs = await tokenize(`tools: ["mcp:browser/*", '!mcp:browser/navigate', nika:write]\n`);
  assertScope(globs, '*', 'entity.name.function.mcp-tool');
  assertScope(globs, '!', 'keyword.operator.negation');
  assertScope(globs, 'write', 'support.function.builtin');
  // Prose that merely mentions a tool is not a tool id.
  const prose = await tokenize('prompt: "use mcp:fs/read to look"\n');
  assertNoScope(prose, 'use mcp:fs/read to look', 'meta.tool-id');
});

test('expression bodies: callables, methods, operators, literals', async () => {
  const toks = await tokenize(WORKFLOW);
  assertScope(toks, 'size', 'support.function');
  assertScope(toks, 'startsWith', 'support.function.method');
  assertScope(toks, '&&', 'keyword.operator.logical');
  assertScope(toks, '>', 'keyword.operator.comparison');
  assertScope(toks, '3', 'constant.numeric', { line: 13 });
  assertScope(toks, "'Hi'", 'string.quoted.single.cel');
  assertScope(toks, 'with', 'variable.language', { line: 20 });
  // The island inside a block scalar and as a whole plain value.
  assertScope(toks, '${{', 'punctuation.section.embedded.begin', { line: 20 });
  assertScope(toks, 'tasks', 'variable.language', { line: 24 });
  const more = await tokenize("when: ${{ tasks.a.status in ['success'] ? has(item.x) : index == -1 }}\n");
  assertScope(more, 'in', 'keyword.operator.word');
  assertScope(more, 'has', 'support.function');
  assertScope(more, 'item', 'variable.language');
  assertScope(more, 'index', 'variable.language');
  assertScope(more, '?', 'keyword.operator.ternary');
  assertScope(more, '-1', 'constant.numeric');
});

test('escaped and unclosed islands', async () => {
  const toks = await tokenize('shell: echo \\${{ literal }} then ${{ inputs.x }}\n');
  assertScope(toks, 'inputs', 'variable.language');
  assert.ok(!toks.some((t) => t.text === 'literal' && has(t.scopes, 'meta.embedded.expression.nika')), 'odd backslash run escapes ${{');
  // An unclosed island in a quoted string gives the closing quote back to the string.
  const open = await tokenize('a: "Hi ${{ inputs.x"\nb: 1\n');
  assertScope(open, '"', 'punctuation.definition.string.end', { line: 0, nth: 1 });
  assertScope(open, 'b', 'entity.name.tag', { line: 1 });
  assertScope(open, '1', 'constant.numeric', { line: 1 });
});

test('legacy list tasks and {{use.x}} templates', async () => {
  const toks = await tokenize([
    'schema: "nika/workflow@0.4"',
    'tasks:',
    '  - id: gen',
    '    agent:',
    '      prompt: "Write for {{use.locale}}"',
    '  - name: save',
    '    exec: "echo saved"',
  ].join('\n'));
  assertScope(toks, 'gen', 'entity.name.function.task');
  assertScope(toks, 'save', 'entity.name.function.task');
  assertScope(toks, 'agent', 'keyword.control.verb');
  assertScope(toks, 'exec', 'keyword.control.verb');
  assertScope(toks, '{{', 'punctuation.section.embedded.begin.legacy');
  assertScope(toks, 'use', 'variable.language.legacy');
  assertScope(toks, 'locale', 'variable.other.readwrite');
});

test('plain YAML: anchors, aliases, tags, document markers, numbers, null, flow keys', async () => {
  const toks = await tokenize([
    '%YAML 1.2',
    '---',
    'a: &anchor !!str value',
    'b: *anchor',
    'c: [1, -2.5, 0x1F, .inf, ~, null, no]',
    "d: { 'quoted key': 1, e: x }",
    'f: it is # a comment',
    'g: "# not a comment"',
    '...',
  ].join('\n'));
  assertScope(toks, '%YAML 1.2', 'meta.directive');
  assertScope(toks, '---', 'entity.other.document.begin');
  assertScope(toks, '...', 'entity.other.document.end');
  assertScope(toks, 'anchor', 'entity.name.type.anchor');
  assertScope(toks, '!!str', 'storage.type.tag');
  assertScope(toks, 'anchor', 'variable.other.alias', { line: 3 });
  for (const n of ['1', '-2.5', '0x1F', '.inf']) assertScope(toks, n, 'constant.numeric', { line: 4 });
  assertScope(toks, '~', 'constant.language.null');
  assertScope(toks, 'null', 'constant.language.null');
  assertScope(toks, 'no', 'string.unquoted.plain');
  assertScope(toks, 'quoted key', 'entity.name.tag');
  assertScope(toks, 'e', 'entity.name.tag');
  assertScope(toks, 'it is', 'string.unquoted.plain');
  assertScope(toks, ' a comment', 'comment.line');
  assertScope(toks, '# not a comment', 'string.quoted.double');
});

test('block scalars end at the first line indented no deeper than their key', async () => {
  const toks = await tokenize([
    'tasks:',
    '  a:',
    '    - prompt: >-',
    '        folded ${{ item }}',
    '      next: 1',
    '    exec:',
    '      shell: |',
    '        echo a: b',
    '      cwd: /tmp',
  ].join('\n'));
  assertScope(toks, 'item', 'variable.language');
  assertScope(toks, 'next', 'entity.name.tag');
  assertScope(toks, '1', 'constant.numeric', { line: 4 });
  assertScope(toks, '        echo a: b', 'string.unquoted.block');
  assertScope(toks, 'cwd', 'entity.name.tag');
  assertScope(toks, 'exec', 'keyword.control.verb');
});
