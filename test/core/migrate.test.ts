// Migration to current v1 (reference §9.2): the result must analyze as a current file with the
// same tasks, the same edges and equivalent verb bodies, and no errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../core/analyze.js';
import type { Task, Workflow } from '../../core/ir.js';
import { formatDuration, migrateToCurrent } from '../../core/migrate.js';

/** Predecessor edges `from->to` from `with:` reads and `after:` keys. */
function edges(wf: Workflow): string[] {
  const out = new Set<string>();
  for (const t of wf.tasks) {
    for (const v of Object.values(t.with)) {
      for (const m of JSON.stringify(v).matchAll(/tasks\.([a-z_][a-z0-9_]*)/g)) out.add(`${m[1]}->${t.id}`);
    }
    for (const dep of Object.keys(t.after)) out.add(`${dep}->${t.id}`);
  }
  return [...out].sort();
}

function errors(text: string): string[] {
  return analyze(text).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message} @${text.slice(d.span.start, d.span.end)}`);
}

/** Migrates and checks the invariants every migration must keep; returns both workflows. */
function migrateOk(text: string, fileName?: string) {
  const before = analyze(text, { skipChecks: true });
  assert.notEqual(before.dialect, 'v1', 'fixture must be an older dialect');
  const result = migrateToCurrent(text, { fileName });
  assert.ok(result, 'migration produced a document');
  const after = analyze(result.text);
  assert.equal(after.dialect, 'v1', result.text);
  assert.deepEqual(errors(result.text), [], result.text);
  assert.deepEqual(after.workflow.tasks.map((t) => t.id), before.workflow.tasks.map((t) => t.id));
  assert.deepEqual(edges(after.workflow), edges(before.workflow), result.text);
  for (const [i, t] of after.workflow.tasks.entries()) assert.equal(t.verb, before.workflow.tasks[i].verb, `verb of ${t.id}`);
  // Migrating again is a no-op: the result is current.
  assert.equal(migrateToCurrent(result.text), undefined);
  return { result, before: before.workflow, after: after.workflow, task: (id: string) => after.workflow.tasks.find((t) => t.id === id)! };
}

const body = <T>(t: Task) => t.body as T;

test('legacy 0.2: mcp invoke with params, flows, provider+model, mcp block', () => {
  const { result, task, after } = migrateOk(`# Entity pipeline
schema: "nika/workflow@0.2"
workflow: entity-pipeline
provider: claude
model: claude-sonnet-4
mcp:
  novanet:
    command: cargo
    args: [run, --bin, novanet]
    env: { NOVANET_DB: ./db }
tasks:
  - id: lookup
    invoke:
      mcp: novanet
      tool: novanet_lookup
      params: { entity: qr-code, depth: 2 }
  - id: describe
    use: { entity: lookup.data }
    infer: "Describe {{use.entity}} in one paragraph."
  - id: archive
    invoke: { tool: "novanet::archive", params: { id: 42 } }
flows:
  - { source: lookup, target: describe }
  - { source: describe, target: archive }
`);
  assert.ok(result.text.startsWith('# Entity pipeline\n'), result.text);
  assert.equal(after.name, 'entity-pipeline');
  assert.equal(after.model, 'anthropic/claude-sonnet-4');
  assert.equal(body<{ tool: string }>(task('lookup')).tool, 'mcp:novanet/novanet_lookup');
  assert.deepEqual(body<{ args: unknown }>(task('lookup')).args, { entity: 'qr-code', depth: 2 });
  assert.equal(body<{ tool: string }>(task('archive')).tool, 'mcp:novanet/archive');
  assert.deepEqual(task('describe').with, { entity: '${{ tasks.lookup.output.data }}' });
  assert.equal(body<{ prompt: string }>(task('describe')).prompt, 'Describe ${{ with.entity }} in one paragraph.');
  assert.deepEqual(task('archive').after, { describe: 'success' });
  // The server definitions leave the file, ready to paste.
  assert.deepEqual(result.mcpConfig, { mcpServers: { novanet: { command: 'cargo', args: ['run', '--bin', 'novanet'], env: { NOVANET_DB: './db' } } } });
  assert.ok(result.notes.some((n) => n.includes('.mcp.json') && n.includes('"novanet"')));
  assert.ok(!/^mcp:/m.test(result.text));
  assert.deepEqual(after.permits?.tools, ['mcp:novanet/archive', 'mcp:novanet/novanet_lookup']);
});

test('legacy 0.3: flat for_each with as and concurrency becomes for_each.items/max_parallel with item', () => {
  const { task, result } = migrateOk(`schema: nika/workflow@0.3
workflow: translate-all
provider: openai
model: gpt-4o-mini
tasks:
  - id: source
    exec: { command: "cat README.md", timeout: 30 }
  - id: translate
    for_each: ["fr", "de", "ja"]
    as: lang
    concurrency: 2
    use: { text: source }
    infer:
      prompt: "Translate to {{use.lang}}: {{use.text}}"
  - id: one_by_one
    for_each: ["a", "b"]
    as: letter
    exec: "echo {{use.letter}}"
`);
  const tr = task('translate');
  assert.deepEqual(tr.forEach, { items: ['fr', 'de', 'ja'], maxParallel: 2, failFast: true });
  assert.equal(body<{ prompt: string }>(tr).prompt, 'Translate to ${{ item }}: ${{ with.text }}');
  assert.equal(body<{ shell: string }>(task('one_by_one')).shell, 'echo ${{ item }}');
  // Legacy loops ran sequentially unless told otherwise.
  assert.equal(task('one_by_one').forEach?.maxParallel, 1);
  assert.equal(task('source').timeout, '30s');
  assert.match(result.text, /timeout: "30s"/);
  assert.equal(body<{ shell: string }>(task('source')).shell, 'cat README.md');
  assert.ok(result.notes.some((n) => n.includes('one_by_one') && n.includes('max_parallel: 1')));
});

test('legacy 0.5: agent with mcp servers, token budget, stop conditions and extended thinking', () => {
  const { task, result, after } = migrateOk(`schema: "nika/workflow@0.5"
workflow: researcher
provider: claude
model: claude-sonnet-4
mcp:
  search: { command: npx, args: [-y, search-mcp] }
  notes: { url: "http://localhost:8808/mcp" }
tasks:
  - id: research
    agent:
      prompt: "Research the topic and write notes."
      system: "You are careful."
      mcp: [search, notes]
      max_turns: 12
      token_budget: 40000
      stop_conditions: ["DONE", "FINISHED"]
      extended_thinking: true
  - id: polish
    use: { draft: research }
    infer:
      prompt: |
        Polish this draft:
        {{use.draft}}
      extended_thinking: true
      thinking_budget: 2048
`);
  const a = body<{ tools: string[]; maxTurns: number; maxTokensTotal: number; system: string; stopConditions?: string[] }>(task('research'));
  assert.deepEqual(a.tools, ['mcp:search/*', 'mcp:notes/*']);
  assert.equal(a.maxTurns, 12);
  assert.equal(a.maxTokensTotal, 40000);
  assert.equal(a.system, 'You are careful.');
  assert.equal(a.stopConditions, undefined);
  assert.ok(result.notes.some((n) => n.includes('stop_conditions') && n.includes('nika:done')));
  assert.ok(result.notes.some((n) => n.includes('extended_thinking')));
  assert.deepEqual(body<{ thinking: unknown }>(task('polish')).thinking, { enabled: true, budget_tokens: 2048 });
  assert.equal(body<{ prompt: string }>(task('polish')).prompt, 'Polish this draft:\n${{ with.draft }}\n');
  assert.match(result.text, /prompt: \|\n/);
  assert.deepEqual(after.permits?.tools, ['mcp:notes/*', 'mcp:search/*']);
  assert.deepEqual(Object.keys(result.mcpConfig!.mcpServers), ['search', 'notes']);
  assert.deepEqual(result.mcpConfig!.mcpServers.notes, { url: 'http://localhost:8808/mcp' });
});

test('legacy fetch verb becomes invoke nika:fetch with a host grant', () => {
  const { task, after, result } = migrateOk(`schema: nika/workflow@0.6
workflow: docs-digest
tasks:
  - id: page
    fetch: { url: "https://docs.example.org/guide", extract: markdown, timeout: 15 }
  - id: raw
    fetch: "https://api.example.org/v1/status"
  - id: digest
    use: { md: page }
    infer: "Digest: {{use.md}}"
`, 'docs-digest.nika.yaml');
  const p = body<{ tool: string; args: Record<string, unknown> }>(task('page'));
  assert.equal(p.tool, 'nika:fetch');
  assert.deepEqual(p.args, { url: 'https://docs.example.org/guide', mode: 'markdown' });
  assert.equal(task('page').timeout, '15s');
  assert.deepEqual(body<{ args: unknown }>(task('raw')).args, { url: 'https://api.example.org/v1/status', mode: 'raw' });
  assert.deepEqual(after.permits?.net?.http, ['api.example.org', 'docs.example.org']);
  assert.deepEqual(after.permits?.tools, ['nika:fetch']);
  assert.ok(result.notes.some((n) => n.includes('fetch verb')));
});

test('v1 draft: vars, env, depends_on, string exec, output jq map, tasks reads hoisted into with', () => {
  const { task, after, result } = migrateOk(`nika: v1
workflow: build-and-report
vars:
  target: release
  verbose: false
  locales: [fr, de]
  matrix: { os: linux, arch: [x64, arm64] }
env:
  OPENAI_API_KEY: \${OPENAI_API_KEY}
  REGION: eu-west-1
model: mock/echo
tasks:
  - name: build
    exec:
      command: cargo build --\${{ vars.target }}
      env: { TOKEN: "\${{ env.OPENAI_API_KEY }}" }
    timeout: 120
    output:
      version: .version
  - name: report
    depends_on: [build]
    when: "\${{ vars.verbose == false }}"
    infer:
      prompt: |
        Summarize build \${{ tasks.build.output }} for {{target}} in \${{ env.REGION }} on \${{ vars.matrix.os }}.
    on_error: { fallback: "no report" }
  - name: per_locale
    depends_on: [report]
    for_each: \${{ vars.locales }}
    max_parallel: 2
    invoke:
      tool: "notion::create_page"
      args: { title: "Report \${{ item }}", body: "\${{ tasks.report.output }}" }
outputs:
  report: \${{ tasks.report.output }}
  version: \${{ tasks.build.version }}
`);
  assert.equal(after.name, 'build-and-report');
  assert.deepEqual(after.inputs.target.default, 'release');
  assert.equal(after.inputs.target.required, false);
  assert.deepEqual(after.inputs.verbose.type, 'bool');
  assert.deepEqual(after.inputs.locales.type, { array: 'string' });
  assert.deepEqual(after.inputs.REGION.default, 'eu-west-1');
  assert.deepEqual(after.const.matrix, { os: 'linux', arch: ['x64', 'arm64'] });
  assert.equal(after.secrets.OPENAI_API_KEY.source, 'env');
  assert.equal(after.secrets.OPENAI_API_KEY.key, 'OPENAI_API_KEY');
  // Direct use in the exec's env, and where that exec's output went before (infer, outputs).
  assert.deepEqual(after.secrets.OPENAI_API_KEY.egress, [{ to: 'exec' }, { to: 'infer' }, { to: 'outputs' }]);
  assert.equal(body<{ shell: string }>(task('build')).shell, 'cargo build --${{ inputs.target }}');
  assert.deepEqual(task('build').extract, { version: '.version' });
  assert.equal(task('build').timeout, '2m');
  const report = task('report');
  assert.equal(report.when, '${{ inputs.verbose == false }}');
  assert.deepEqual(report.with, { build: '${{ tasks.build.output }}' });
  assert.equal(body<{ prompt: string }>(report).prompt, 'Summarize build ${{ with.build }} for ${{ inputs.target }} in ${{ inputs.REGION }} on ${{ const.matrix.os }}.\n');
  assert.deepEqual(report.onError?.recover, { value: 'no report' });
  const pl = task('per_locale');
  assert.deepEqual(pl.forEach, { items: '${{ inputs.locales }}', maxParallel: 2, failFast: true });
  assert.equal(body<{ tool: string }>(pl).tool, 'mcp:notion/create_page');
  assert.deepEqual(body<{ args: unknown }>(pl).args, { title: 'Report ${{ item }}', body: '${{ with.report }}' });
  assert.equal(after.outputs.version.value, '${{ tasks.build.version }}');
  assert.equal(after.permits?.exec, true);
  assert.ok(!/vars\.|env\./.test(result.text), result.text);
  assert.ok(result.notes.some((n) => n.includes('const.matrix')));
  assert.ok(result.notes.some((n) => n.includes('secrets.OPENAI_API_KEY')));
});

test('v1 draft with argv exec gets an allowlist, typed vars keep their type, old type names are renamed', () => {
  const { after, result } = migrateOk(`nika: v1
workflow: { id: lint_all, description: "Lints the repo" }
vars:
  strict: { type: boolean, default: true }
  paths: { type: text, default: src }
tasks:
  - id: lint
    exec:
      command: [eslint, "\${{ vars.paths }}"]
  - id: test
    after: { lint: succeeded }
    exec:
      command: [npm, test]
`);
  assert.equal(after.name, 'lint-all');
  assert.ok(result.text.startsWith('# Lints the repo\n'), result.text);
  assert.deepEqual(after.inputs.strict.type, 'bool');
  assert.deepEqual(after.inputs.paths.type, 'string');
  assert.deepEqual(after.permits?.exec, ['eslint', 'npm']);
  assert.deepEqual(after.tasks[1].after, { lint: 'success' });
});

test('names: file name fallback, migrated-workflow fallback, kebab-casing, snake_case task ids with references', () => {
  const fromFile = migrateOk('schema: nika/workflow@0.1\ntasks:\n  - id: a\n    infer: "hi"\n', '/work/flows/Daily_Report.nika.yaml');
  assert.equal(fromFile.after.name, 'daily-report');
  const anon = migrateToCurrent('schema: nika/workflow@0.1\ntasks:\n  - id: a\n    infer: "hi"\n');
  assert.match(anon!.text, /^nika: migrated-workflow$/m);
  assert.ok(anon!.notes.some((n) => n.includes('migrated-workflow')));

  const text = `schema: nika/workflow@0.4
workflow: My Flow
tasks:
  - id: get-data
    exec: "echo 1"
  - id: use-it
    use: { d: get-data }
    infer: "Use {{use.d}}"
flows:
  - { source: get-data, target: use-it }
`;
  const r = migrateToCurrent(text)!;
  const a = analyze(r.text);
  assert.deepEqual(errors(r.text), [], r.text);
  assert.equal(a.workflow.name, 'my-flow');
  assert.deepEqual(a.workflow.tasks.map((t) => t.id), ['get_data', 'use_it']);
  assert.deepEqual(a.workflow.tasks[1].with, { d: '${{ tasks.get_data.output }}' });
  assert.ok(r.notes.some((n) => n.includes('"get-data" is now "get_data"')));
});

test('comments at the top and before tasks survive; CRLF stays CRLF', () => {
  const text = [
    '# SPDX-License-Identifier: Apache-2.0',
    '# Nightly job',
    'schema: nika/workflow@0.4',
    'workflow: nightly',
    'tasks:',
    '  # step one',
    '  - id: one',
    '    exec: "date"',
    '  # step two reads one',
    '  - id: two',
    '    use: { t: one }',
    '    infer: "When is {{use.t}}?"',
    '',
  ].join('\r\n');
  const r = migrateOk(text).result;
  assert.ok(r.text.startsWith('# SPDX-License-Identifier: Apache-2.0\r\n# Nightly job\r\n'), JSON.stringify(r.text));
  assert.ok(!/[^\r]\n/.test(r.text), 'only CRLF line ends');
  assert.match(r.text, /# step one\r\n {2}one:/);
  assert.match(r.text, /# step two reads one\r\n {2}two:/);
});

test('strings that need quoting in YAML come out quoted and round-trip', () => {
  const { task, result } = migrateOk(`nika: v1
workflow: quoting
vars: { who: "world" }
tasks:
  - name: a
    infer:
      prompt: "Note: greet \${{ vars.who }} # now"
  - name: b
    exec: "echo '\${{ vars.who }}: done'"
`);
  assert.equal(body<{ prompt: string }>(task('a')).prompt, 'Note: greet ${{ inputs.who }} # now');
  assert.equal(body<{ shell: string }>(task('b')).shell, "echo '${{ inputs.who }}: done'");
  assert.match(result.text, /prompt: "Note: greet \$\{\{ inputs\.who \}\} # now"/);
});

test('dropped keys are reported, not silently lost', () => {
  const r = migrateOk(`schema: nika/workflow@0.7
workflow: with-extras
context: { files: [a.md] }
tasks:
  - id: a
    scope: full
    infer: "hi"
    on_finally:
      - id: cleanup
        exec: "rm -f tmp"
`).result;
  assert.ok(r.notes.some((n) => n.includes('top-level context')));
  assert.ok(r.notes.some((n) => n.includes('task a') && n.includes('scope')));
  assert.ok(r.notes.some((n) => n.includes('on_finally') && n.includes('unwind')));
});

test('nothing to migrate: current files, broken YAML and non-workflows return undefined', () => {
  assert.equal(migrateToCurrent('nika: ok\ntasks:\n  a:\n    infer: { prompt: hi }\n'), undefined);
  assert.equal(migrateToCurrent('schema: nika/workflow@0.2\ntasks: [\n'), undefined);
  assert.equal(migrateToCurrent(''), undefined);
  assert.equal(migrateToCurrent('- just\n- a list\n'), undefined);
});

test('formatDuration writes descending Go units', () => {
  assert.equal(formatDuration(5_400_000), '1h30m');
  assert.equal(formatDuration(120_000), '2m');
  assert.equal(formatDuration(1500), '1s500ms');
  assert.equal(formatDuration(0), '1ms');
});
