// Every snippet, expanded the way VS Code would with its default placeholder values and inserted
// where a user would type its prefix, must give a current-v1 document with no errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../core/analyze.js';

interface Snippet { prefix: string | string[]; body: string[]; description: string }
const snippets = JSON.parse(readFileSync(join(__dirname, '..', 'snippets', 'nika.code-snippets'), 'utf8')) as Record<string, Snippet>;

// ---- a small expander for the TextMate snippet syntax VS Code implements ------------------------

const VARIABLES: Record<string, string> = { TM_FILENAME_BASE: 'Daily_Report.nika', TM_FILENAME: 'Daily_Report.nika.yaml' };

/** Applies a `${VAR/regex/format/flags}` transform (format: `$n`, `${n}`, `${n:/downcase}`, `${n:+text}`, `${n:-text}`). */
function transform(value: string, regex: string, format: string, flags: string): string {
  return value.replace(new RegExp(regex, flags), (...m: unknown[]) => {
    const groups = m.slice(0, -2) as Array<string | undefined>;
    return format.replace(/\$(\d+)|\$\{(\d+)(?::(\/(?:upcase|downcase|capitalize))|:\+([^}]*)|:-([^}]*)|:([^}]*))?\}/g,
      (_all, a: string, b: string, modifier?: string, ifSet?: string, ifUnset?: string, other?: string) => {
        const g = groups[Number(a ?? b)];
        if (modifier === '/downcase') return (g ?? '').toLowerCase();
        if (modifier === '/upcase') return (g ?? '').toUpperCase();
        if (modifier === '/capitalize') return g ? g[0].toUpperCase() + g.slice(1) : '';
        if (ifSet !== undefined) return g ? ifSet : '';
        if (ifUnset !== undefined || other !== undefined) return g || (ifUnset ?? other ?? '');
        return g ?? '';
      });
  });
}

/** Expands a snippet body with the first choice / default of each placeholder; `$0` vanishes. */
function expandSnippet(body: string): string {
  const tabstops = new Map<string, string>();
  let pos = 0;
  function readUntil(stops: string): string {
    let out = '';
    while (pos < body.length && !stops.includes(body[pos])) out += readOne();
    return out;
  }
  function readOne(): string {
    const c = body[pos];
    if (c === '\\' && '$}\\,|'.includes(body[pos + 1] ?? '')) { pos += 2; return body[pos - 1]; }
    if (c !== '$') { pos++; return c; }
    const simple = /^\$(\d+|[A-Z_][A-Z0-9_]*)/.exec(body.slice(pos));
    if (simple) { pos += simple[0].length; return resolve(simple[1]); }
    const open = /^\$\{(\d+|[A-Z_][A-Z0-9_]*)/.exec(body.slice(pos));
    if (!open) { pos++; return c; }
    pos += open[0].length;
    const name = open[1];
    const next = body[pos];
    if (next === '}') { pos++; return resolve(name); }
    if (next === ':') {
      pos++;
      const dflt = readUntil('}');
      pos++;
      if (/^\d+$/.test(name)) { if (!tabstops.has(name)) tabstops.set(name, dflt); return tabstops.get(name)!; }
      return VARIABLES[name] ?? dflt;
    }
    if (next === '|') {
      const end = body.indexOf('|}', pos);
      const first = body.slice(pos + 1, end).split(/(?<!\\),/)[0].replace(/\\(.)/g, '$1');
      pos = end + 2;
      if (!tabstops.has(name)) tabstops.set(name, first);
      return tabstops.get(name)!;
    }
    if (next === '/') {
      const m = /^\/((?:[^/\\]|\\.)*)\/((?:[^/\\$]|\\.|\$\{[^}]*\}|\$)*)\/([a-z]*)\}/.exec(body.slice(pos));
      assert.ok(m, `bad transform at ${body.slice(pos)}`);
      pos += m[0].length;
      return transform(VARIABLES[name] ?? '', m[1], m[2].replace(/\\\//g, '/'), m[3]);
    }
    throw new Error(`unexpected ${next} in snippet at ${pos}`);
  }
  function resolve(name: string): string {
    if (/^\d+$/.test(name)) return tabstops.get(name) ?? '';
    return VARIABLES[name] ?? '';
  }
  return readUntil('');
}

// ---- where each snippet goes ------------------------------------------------------------------

type Placement = 'document' | 'envelope' | 'task' | 'task-body' | 'input' | 'secret' | 'output';
const PLACEMENT: Record<string, Placement> = {
  'New workflow': 'document',
  'Task: infer': 'task',
  'Task: exec (argv)': 'task',
  'Task: exec (shell)': 'task',
  'Task: invoke builtin': 'task',
  'Task: fetch a page': 'task',
  'Task: invoke MCP tool': 'task',
  'Task: agent': 'task',
  for_each: 'task-body',
  retry: 'task-body',
  'on_error: recover': 'task-body',
  'on_error: skip': 'task-body',
  when: 'task-body',
  after: 'task-body',
  with: 'task-body',
  timeout: 'task-body',
  Input: 'input',
  'Input with default': 'input',
  Secret: 'secret',
  Output: 'output',
  permits: 'envelope',
};
const EXPECTED_VERB: Record<string, string> = {
  'Task: infer': 'infer', 'Task: exec (argv)': 'exec', 'Task: exec (shell)': 'exec', 'Task: invoke builtin': 'invoke',
  'Task: fetch a page': 'invoke', 'Task: invoke MCP tool': 'invoke', 'Task: agent': 'agent',
};

const indent = (text: string, by: string) => text.split('\n').map((l) => (l === '' ? l : by + l)).join('\n');

/** A host document with the snippet inserted at `placement` (VS Code indents every line like the first). */
function host(placement: Placement, text: string): string {
  const at = (p: Placement, by: string) => (placement === p ? indent(text, by) : '');
  return [
    'nika: snippet-host',
    'model: mock/echo',
    'inputs:',
    '  topic: { type: string, default: "tea" }',
    at('input', '  '),
    'secrets:',
    '  token: { source: env, key: TOKEN }',
    at('secret', '  '),
    placement === 'envelope' ? text : [
      'permits:',
      '  fs: { read: ["**"] }',
      '  net: { http: [example.com] }',
      '  exec: true',
      '  tools: [nika:read, nika:fetch, nika:done, "mcp:server/*"]',
    ].join('\n'),
    'tasks:',
    '  previous:',
    '    infer: { prompt: "Say something about ${{ inputs.topic }}" }',
    '  subject:',
    at('task-body', '    '),
    '    infer:',
    '      prompt: "Reply"',
    at('task', '  '),
    'outputs:',
    '  first: ${{ tasks.previous.output }}',
    at('output', '  '),
  ].filter((l) => l !== '').join('\n') + '\n';
}

function errorsOf(text: string): string[] {
  return analyze(text).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message} @${text.slice(d.span.start, d.span.end)}`);
}

test('every snippet has a placement in this test (add new snippets here)', () => {
  assert.deepEqual(Object.keys(snippets).filter((k) => !(k in PLACEMENT)), []);
  for (const [name, s] of Object.entries(snippets)) {
    assert.ok(s.description && s.body.length > 0, name);
    assert.ok((Array.isArray(s.prefix) ? s.prefix : [s.prefix]).length > 0, name);
  }
});

test('the expander follows VS Code: defaults, mirrors, choices, escapes, variable transforms', () => {
  assert.equal(expandSnippet('${1:a} $1 ${2|x,y|} \\${{ v \\}} $0'), 'a a x ${{ v }} ');
  assert.equal(expandSnippet('${TM_FILENAME_BASE/(\\.nika$)|([^A-Za-z0-9]+)|([A-Z])/${2:+-}${3:/downcase}/g}'), 'daily-report');
});

test('the host document without a snippet is clean', () => {
  assert.deepEqual(errorsOf(host('document', '')), []);
});

for (const [name, snippet] of Object.entries(snippets)) {
  test(`snippet "${name}" expands to a clean current-v1 document`, () => {
    const text = expandSnippet(snippet.body.join('\n'));
    const doc = PLACEMENT[name] === 'document' ? text : host(PLACEMENT[name], text);
    const analysis = analyze(doc);
    assert.equal(analysis.dialect, 'v1', doc);
    assert.deepEqual(errorsOf(doc), [], doc);
    if (PLACEMENT[name] === 'document') {
      assert.equal(analysis.workflow.name, 'daily-report');
      assert.equal(analysis.workflow.tasks[0]?.verb, 'infer');
    }
    const verb = EXPECTED_VERB[name];
    if (verb) {
      const added = analysis.workflow.tasks.at(-1);
      assert.ok(added && !['previous', 'subject'].includes(added.id), doc);
      assert.equal(added.verb, verb);
    }
    if (PLACEMENT[name] === 'task-body') {
      const subject = analysis.workflow.tasks.find((t) => t.id === 'subject')!;
      const key = name.split(':')[0];
      const seen = { for_each: subject.forEach, retry: subject.retry, on_error: subject.onError, when: subject.when, after: Object.keys(subject.after).length ? subject.after : undefined, with: Object.keys(subject.with).length ? subject.with : undefined, timeout: subject.timeout }[key];
      assert.ok(seen !== undefined, `${key} was not read from:\n${doc}`);
    }
  });
}
