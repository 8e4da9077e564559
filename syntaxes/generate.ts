// Source of the two TextMate grammars. The JSON files next to this one are what VS Code loads;
// they are generated from here because the regexes are far easier to read (and to vary between
// block and flow context) as String.raw literals than as doubly escaped JSON.
//
//   npx tsx syntaxes/generate.ts      rewrites syntaxes/*.json
//
// test/syntaxes.test.ts fails when the JSON files are stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Rule = Record<string, unknown>;
const r = String.raw;

// ---- shared regex pieces ------------------------------------------------------------------------

/** First character of a plain scalar (YAML 1.2: not an indicator, or `-?:` followed by a non-space). */
const PLAIN_FIRST_BLOCK = r`(?:[^\s\-?:,\[\]{}#&*!|>'"%@` + '`' + r`]|[?:\-](?=\S))`;
const PLAIN_FIRST_FLOW = r`(?:[^\s\-?:,\[\]{}#&*!|>'"%@` + '`' + r`]|[?:\-](?=[^\s,\[\]{}]))`;
/** A plain key on one line: anything up to the first `: ` that is not a comment. */
const PLAIN_KEY_BLOCK = `${PLAIN_FIRST_BLOCK}${r`(?:[^\s:]|:(?=\S)|[ \t]+(?=[^\s#:]))*`}`;
const PLAIN_KEY_FLOW = `${PLAIN_FIRST_FLOW}${r`(?:[^\s:,\[\]{}]|:(?=[^\s,\[\]{}])|[ \t]+(?=[^\s#:,\[\]{}]))*`}`;
const QUOTED_KEY = r`"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'`;

/** Where a scalar that fills the whole node must stop, per context. */
const END_BLOCK = r`(?=[ \t]*$|[ \t]+#)`;
const END_FLOW = r`(?=[ \t]*(?:$|[,\]}])|[ \t]+#|[ \t]*:(?:[ \t]|$))`;

const ENVELOPE = ['nika', 'model', 'inputs', 'const', 'secrets', 'permits', 'run', 'tasks', 'outputs'];
const VERBS = ['infer', 'exec', 'invoke', 'agent'];
const TASK_KEYS = ['with', 'after', 'when', 'for_each', 'retry', 'on_error', 'timeout', 'extract', 'returns', 'group', 'lift'];
const PREDICATES = ['success', 'failure', 'skipped', 'terminal', 'unwind'];
const PROVIDERS = [
  'ollama', 'lmstudio', 'llamacpp', 'localai', 'vllm', 'mistral', 'anthropic', 'openai', 'gemini', 'deepseek',
  'xai', 'groq', 'openrouter', 'huggingface', 'nvidia', 'moonshot', 'mock',
];
const ROOTS = ['inputs', 'const', 'secrets', 'with', 'tasks', 'group', 'item', 'index'];
/** Roots of older dialects (`vars`, `env`, `config`): still readable there, so not marked invalid. */
const OLD_ROOTS = ['vars', 'env', 'config'];
const alt = (words: string[]) => words.join('|');

/** `nika:read`, `mcp:server/tool`, with the globs and `!` negation of tool whitelists. */
const TOOL_ID = r`(!)?(?:(nika)(:)([a-z_*][a-z0-9_*]*)|(mcp)(:)([a-z0-9*][a-z0-9*\-]*)(/)([A-Za-z0-9_*/\-]+))`;
const TOOL_ID_CAPTURES: Rule = {
  1: { name: 'keyword.operator.negation.nika' },
  2: { name: 'keyword.other.namespace.builtin.nika' },
  3: { name: 'punctuation.separator.namespace.nika' },
  4: { name: 'support.function.builtin.nika' },
  5: { name: 'keyword.other.namespace.mcp.nika' },
  6: { name: 'punctuation.separator.namespace.nika' },
  7: { name: 'entity.name.namespace.mcp-server.nika' },
  8: { name: 'punctuation.separator.path.nika' },
  9: { name: 'entity.name.function.mcp-tool.nika' },
};
const MODEL_ID = r`(${alt(PROVIDERS)})(/)([^\s"',\]}#]+)`;
const MODEL_CAPTURES: Rule = {
  1: { name: 'support.type.provider.nika' },
  2: { name: 'punctuation.separator.model.nika' },
  3: { name: 'entity.name.type.model.nika' },
};

// ---- the YAML layer -----------------------------------------------------------------------------

/** Scalars that fill a whole node, in a context whose end is `end`. */
function scalars(ctx: 'block' | 'flow'): Rule[] {
  const end = ctx === 'block' ? END_BLOCK : END_FLOW;
  const plainFirst = ctx === 'block' ? PLAIN_FIRST_BLOCK : PLAIN_FIRST_FLOW;
  const plainEnd = ctx === 'block'
    ? r`(?=[ \t]+#|[ \t]*$|[ \t]*:(?:[ \t]|$))`
    : r`(?=[ \t]*[,\[\]{}]|[ \t]+#|[ \t]*$|[ \t]*:(?:[ \t,\[\]{}]|$))`;
  return [
    { include: '#string-double' },
    { include: '#string-single' },
    { match: `(?:${TOOL_ID})${end}`, name: 'meta.tool-id.nika', captures: TOOL_ID_CAPTURES },
    { match: `${MODEL_ID}${end}`, name: 'meta.model-id.nika', captures: MODEL_CAPTURES },
    { match: `(?:true|True|TRUE|false|False|FALSE)${end}`, name: 'constant.language.boolean.nika' },
    { match: `(?:null|Null|NULL|~)${end}`, name: 'constant.language.null.nika' },
    {
      match: r`(?:[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))` + end,
      name: 'constant.numeric.nika',
    },
    {
      // Zero-width begin so an embedded `${{` at the very first character is still seen by the
      // expression injection; the end cannot match where the begin did.
      begin: `(?=${plainFirst})`,
      end: plainEnd,
      name: `string.unquoted.plain.${ctx === 'block' ? 'out' : 'in'}.nika`,
    },
  ];
}

function blockKey(names: Rule[]): Rule {
  return {
    match: r`(?:^[ \t]*|(?<=-[ \t]))(` + `${QUOTED_KEY}|${PLAIN_KEY_BLOCK}` + r`)[ \t]*(:)(?=[ \t]|$)`,
    captures: {
      1: { name: 'meta.mapping.key.nika', patterns: names },
      2: { name: 'punctuation.separator.key-value.mapping.nika' },
    },
  };
}

// Key classifiers re-scan the captured key text: scanning starts at the key and `$` is the key's
// end, so the first rule matching the whole key wins (`^` and `\G` do not anchor inside captures).
const KEY_QUOTED: Rule[] = [
  { match: r`"(.*)"$`, name: 'string.quoted.double.nika', captures: { 1: { name: 'entity.name.tag.nika' } } },
  { match: r`'(.*)'$`, name: 'string.quoted.single.nika', captures: { 1: { name: 'entity.name.tag.nika' } } },
];
const KEY_GENERIC: Rule[] = [...KEY_QUOTED, { match: r`.+$`, name: 'entity.name.tag.nika' }];
const KEY_TASK: Rule[] = [
  ...KEY_QUOTED,
  { match: `(?:${alt(VERBS)})$`, name: 'entity.name.tag.nika keyword.control.verb.nika' },
  { match: `(?:${alt(TASK_KEYS)})$`, name: 'entity.name.tag.nika keyword.other.task-key.nika' },
  { match: r`.+$`, name: 'entity.name.tag.nika' },
];

/** `key: |`, `- key: >-`, `- |`: the content ends at the first non-blank line not indented past the owner. */
function blockScalars(keyNames: Rule[]): Rule[] {
  const header = r`([|>])([1-9][-+]?|[-+][1-9]?)?[ \t]*(#.*)?$`;
  const headerCaptures = (at: number): Rule => ({
    [at]: { name: 'keyword.control.flow.block-scalar.nika' },
    [at + 1]: { name: 'storage.modifier.chomping-indicator.nika' },
    [at + 2]: { name: 'comment.line.number-sign.nika' },
  });
  const key = `(${QUOTED_KEY}|${PLAIN_KEY_BLOCK})`;
  const keyCaptures = (at: number): Rule => ({
    [at]: { name: 'meta.mapping.key.nika', patterns: keyNames },
    [at + 1]: { name: 'punctuation.separator.key-value.mapping.nika' },
  });
  const content = 'string.unquoted.block.nika';
  return [
    {
      begin: r`^([ \t]*)` + key + r`[ \t]*(:)[ \t]+` + header,
      beginCaptures: { ...keyCaptures(2), ...headerCaptures(4) },
      end: r`^(?=[ \t]*\S)(?!\1[ \t])`,
      contentName: content,
    },
    {
      begin: r`^([ \t]*)(-)([ \t]+)` + key + r`[ \t]*(:)[ \t]+` + header,
      beginCaptures: { 2: { name: 'punctuation.definition.block.sequence.item.nika' }, ...keyCaptures(4), ...headerCaptures(6) },
      // The mapping sits one column past the dash plus its spaces; content is indented further.
      end: r`^(?=[ \t]*\S)(?!\1 \3[ \t])`,
      contentName: content,
    },
    {
      begin: r`^([ \t]*)(-)[ \t]+` + header,
      beginCaptures: { 2: { name: 'punctuation.definition.block.sequence.item.nika' }, ...headerCaptures(3) },
      end: r`^(?=[ \t]*\S)(?!\1[ \t])`,
      contentName: content,
    },
  ];
}

function flowCollections(): Record<string, Rule> {
  const inside: Rule[] = [
    { include: '#comment' },
    { include: '#flow-mapping' },
    { include: '#flow-sequence' },
    { include: '#properties' },
    { match: ',', name: 'punctuation.separator.flow.nika' },
    {
      match: `(${QUOTED_KEY}|${PLAIN_KEY_FLOW})` + r`[ \t]*(:)(?=[ \t,\[\]{}]|$)`,
      captures: {
        1: { name: 'meta.mapping.key.nika', patterns: KEY_GENERIC },
        2: { name: 'punctuation.separator.key-value.mapping.nika' },
      },
    },
    ...scalars('flow'),
  ];
  return {
    'flow-mapping': {
      begin: r`\{`, end: r`\}`,
      beginCaptures: { 0: { name: 'punctuation.definition.mapping.begin.nika' } },
      endCaptures: { 0: { name: 'punctuation.definition.mapping.end.nika' } },
      name: 'meta.flow-mapping.nika',
      patterns: inside,
    },
    'flow-sequence': {
      begin: r`\[`, end: r`\]`,
      beginCaptures: { 0: { name: 'punctuation.definition.sequence.begin.nika' } },
      endCaptures: { 0: { name: 'punctuation.definition.sequence.end.nika' } },
      name: 'meta.flow-sequence.nika',
      patterns: inside,
    },
  };
}

/** Everything that can follow an indentation in block context, with `keyNames` classifying keys. */
function blockNode(keyNames: Rule[]): Rule[] {
  return [
    { include: '#comment' },
    ...blockScalars(keyNames),
    blockKey(keyNames),
    { match: r`(?:^[ \t]*|(?<=-[ \t]))(-)(?=[ \t]|$)`, captures: { 1: { name: 'punctuation.definition.block.sequence.item.nika' } } },
    { match: r`(?:^[ \t]*|(?<=[ \t]))(\?)(?=[ \t]|$)`, captures: { 1: { name: 'punctuation.definition.key-value.begin.nika' } } },
    { include: '#properties' },
    { include: '#flow-mapping' },
    { include: '#flow-sequence' },
    ...scalars('block'),
  ];
}

// ---- the Nika layer -----------------------------------------------------------------------------

/** Indentation-scoped region opened by a key line: ends at the next line not indented past it. */
const UNTIL_OUTDENT = r`^(?=[ \t]*\S)(?!\1[ \t])`;

function nikaGrammar(): Rule {
  const flow = flowCollections();
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'Nika',
    scopeName: 'source.nika',
    fileTypes: ['nika.yaml', 'nika.yml'],
    patterns: [
      { include: '#comment' },
      { include: '#document' },
      { include: '#workflow-name' },
      { include: '#tasks' },
      { include: '#envelope-key' },
      { include: '#block' },
    ],
    repository: {
      comment: {
        match: r`(?:^|(?<=[ \t]))(#).*$`,
        name: 'comment.line.number-sign.nika',
        captures: { 1: { name: 'punctuation.definition.comment.nika' } },
      },
      document: {
        patterns: [
          { match: r`^---(?=[ \t]|$)`, name: 'entity.other.document.begin.nika' },
          { match: r`^\.\.\.(?=[ \t]|$)`, name: 'entity.other.document.end.nika' },
          { match: r`^%.*$`, name: 'meta.directive.nika' },
        ],
      },
      'workflow-name': {
        // `nika: <kebab-name>`: the mark and the workflow's name.
        match: r`^(nika)[ \t]*(:)[ \t]+(["']?)([a-z][a-z0-9-]*)(\3)` + END_BLOCK,
        captures: {
          1: { name: 'entity.name.tag.nika keyword.other.envelope.nika' },
          2: { name: 'punctuation.separator.key-value.mapping.nika' },
          3: { name: 'punctuation.definition.string.begin.nika' },
          4: { name: 'entity.name.section.workflow.nika' },
          5: { name: 'punctuation.definition.string.end.nika' },
        },
      },
      'envelope-key': {
        match: `^(${alt(ENVELOPE)})` + r`[ \t]*(:)(?=[ \t]|$)`,
        captures: {
          1: { name: 'entity.name.tag.nika keyword.other.envelope.nika' },
          2: { name: 'punctuation.separator.key-value.mapping.nika' },
        },
      },
      tasks: {
        begin: r`^(tasks)[ \t]*(:)(?=[ \t]|$)`,
        beginCaptures: {
          1: { name: 'entity.name.tag.nika keyword.other.envelope.nika' },
          2: { name: 'punctuation.separator.key-value.mapping.nika' },
        },
        end: r`^(?=[^\s#])`,
        name: 'meta.tasks.nika',
        patterns: [
          { include: '#comment' },
          { include: '#task-list-item' },
          { include: '#task-entry' },
          { include: '#block-task' },
        ],
      },
      'task-entry': {
        // A key right under `tasks:` is a task id; its body is everything indented past it.
        begin: r`^([ \t]+)([a-z][a-z0-9_]*|` + PLAIN_KEY_BLOCK + r`)[ \t]*(:)(?=[ \t]|$)`,
        beginCaptures: {
          2: { name: 'entity.name.function.task.nika' },
          3: { name: 'punctuation.separator.key-value.mapping.nika' },
        },
        end: UNTIL_OUTDENT,
        name: 'meta.task.nika',
        patterns: [{ include: '#after' }, { include: '#block-task' }],
      },
      'task-list-item': {
        // Draft/legacy `- id: x` (or `- name: x`) entries.
        begin: r`^([ \t]*)(-)(?=[ \t]|$)`,
        beginCaptures: { 2: { name: 'punctuation.definition.block.sequence.item.nika' } },
        end: UNTIL_OUTDENT,
        name: 'meta.task.nika',
        patterns: [
          {
            match: r`(?:(?<=-[ \t])|^[ \t]*)(id|name)[ \t]*(:)[ \t]+(["']?)([A-Za-z0-9_\-]+)(\3)` + END_BLOCK,
            captures: {
              1: { name: 'entity.name.tag.nika' },
              2: { name: 'punctuation.separator.key-value.mapping.nika' },
              4: { name: 'entity.name.function.task.nika' },
            },
          },
          { include: '#after' },
          { include: '#block-task' },
        ],
      },
      after: {
        // `after: { x: success }` or a block map; keys are task ids, values the closed predicates.
        begin: r`(?:^([ \t]*)|(?<=-[ \t]))(after)[ \t]*(:)(?=[ \t]|$)`,
        beginCaptures: {
          2: { name: 'entity.name.tag.nika keyword.other.task-key.nika' },
          3: { name: 'punctuation.separator.key-value.mapping.nika' },
        },
        end: UNTIL_OUTDENT,
        name: 'meta.after.nika',
        patterns: [
          { include: '#comment' },
          { match: r`[{}]`, name: 'punctuation.definition.mapping.nika' },
          { match: ',', name: 'punctuation.separator.flow.nika' },
          {
            match: r`(?:^[ \t]*)?([a-z][a-z0-9_]*)[ \t]*(:)(?=[ \t]|$)`,
            captures: { 1: { name: 'variable.other.task.nika' }, 2: { name: 'punctuation.separator.key-value.mapping.nika' } },
          },
          { match: `(["']?)\\b(${alt(PREDICATES)})\\b(\\1)`, captures: { 2: { name: 'constant.language.predicate.nika' } } },
          { include: '#block' },
        ],
      },
      block: { patterns: blockNode(KEY_GENERIC) },
      'block-task': { patterns: blockNode(KEY_TASK) },
      properties: {
        patterns: [
          {
            match: r`(&)([^\s,\[\]{}]+)`,
            captures: { 1: { name: 'punctuation.definition.anchor.nika' }, 2: { name: 'entity.name.type.anchor.nika' } },
          },
          {
            match: r`(\*)([^\s,\[\]{}]+)`,
            name: 'variable.other.alias.nika',
            captures: { 1: { name: 'punctuation.definition.alias.nika' } },
          },
          { match: r`(?:!<[^>]*>|![A-Za-z0-9\-]*![^\s,\[\]{}]*|![^\s,\[\]{}]*)(?=[ \t]|$|[,\]}])`, name: 'storage.type.tag.nika' },
        ],
      },
      'string-double': {
        begin: '"', end: '"',
        beginCaptures: { 0: { name: 'punctuation.definition.string.begin.nika' } },
        endCaptures: { 0: { name: 'punctuation.definition.string.end.nika' } },
        name: 'string.quoted.double.nika',
        patterns: [
          { match: r`(?<=^|")(?:` + TOOL_ID + r`)(?=")`, captures: TOOL_ID_CAPTURES },
          { match: r`(?<=")` + MODEL_ID + r`(?=")`, captures: MODEL_CAPTURES },
          { match: r`\\(?:[0abtnvfre "/\\N_LP\t]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})`, name: 'constant.character.escape.nika' },
          { match: r`\\.`, name: 'invalid.illegal.escape.nika' },
        ],
      },
      'string-single': {
        begin: "'", end: "'(?!')",
        beginCaptures: { 0: { name: 'punctuation.definition.string.begin.nika' } },
        endCaptures: { 0: { name: 'punctuation.definition.string.end.nika' } },
        name: 'string.quoted.single.nika',
        patterns: [
          { match: r`(?<=')(?:` + TOOL_ID + r`)(?=')`, captures: TOOL_ID_CAPTURES },
          { match: r`(?<=')` + MODEL_ID + r`(?=')`, captures: MODEL_CAPTURES },
          { match: "''", name: 'constant.character.escape.nika' },
        ],
      },
      ...flow,
    },
  };
}

// ---- `${{ }}` islands ---------------------------------------------------------------------------

function expressionInjection(): Rule {
  const cel: Rule[] = [
    // A complete string literal on the line; an unmatched quote is left to close the host string.
    {
      match: r`'(?:[^'\\]|\\.)*'`, name: 'string.quoted.single.cel.nika',
      captures: { 0: { patterns: [{ match: r`\\.`, name: 'constant.character.escape.cel.nika' }] } },
    },
    {
      match: r`"(?:[^"\\]|\\.)*"`, name: 'string.quoted.double.cel.nika',
      captures: { 0: { patterns: [{ match: r`\\.`, name: 'constant.character.escape.cel.nika' }] } },
    },
    { match: r`(?<![\w.])-?[0-9]+(?:\.[0-9]+)?(?![\w.])`, name: 'constant.numeric.cel.nika' },
    { match: r`\b(?:true|false)\b`, name: 'constant.language.boolean.cel.nika' },
    { match: r`\bnull\b`, name: 'constant.language.null.cel.nika' },
    { match: r`\bin\b`, name: 'keyword.operator.word.in.cel.nika' },
    { match: r`(?<![\w.])(size|has)(?=\s*\()`, name: 'support.function.cel.nika' },
    {
      match: r`(\.)\s*(size|contains|startsWith|endsWith)(?=\s*\()`,
      captures: { 1: { name: 'punctuation.accessor.cel.nika' }, 2: { name: 'support.function.method.cel.nika' } },
    },
    {
      match: r`(\.)\s*([A-Za-z_][A-Za-z0-9_]*)(?=\s*\()`,
      captures: { 1: { name: 'punctuation.accessor.cel.nika' }, 2: { name: 'entity.name.function.cel.nika' } },
    },
    { match: r`(?<![\w.])[A-Za-z_][A-Za-z0-9_]*(?=\s*\()`, name: 'entity.name.function.cel.nika' },
    { match: `(?<![\\w.])(?:${alt(ROOTS)})\\b`, name: 'variable.language.nika' },
    { match: `(?<![\\w.])(?:${alt(OLD_ROOTS)})\\b`, name: 'variable.language.legacy.nika' },
    {
      match: r`(\.)\s*([A-Za-z_][A-Za-z0-9_]*)`,
      captures: { 1: { name: 'punctuation.accessor.cel.nika' }, 2: { name: 'variable.other.property.cel.nika' } },
    },
    { match: r`[A-Za-z_][A-Za-z0-9_]*`, name: 'variable.other.readwrite.cel.nika' },
    { match: r`==|!=|<=|>=|<|>`, name: 'keyword.operator.comparison.cel.nika' },
    { match: r`&&|\|\||!`, name: 'keyword.operator.logical.cel.nika' },
    { match: r`\?|:`, name: 'keyword.operator.ternary.cel.nika' },
    { match: r`[-+*/%]`, name: 'keyword.operator.arithmetic.cel.nika' },
    { match: r`[\[\]]`, name: 'punctuation.section.brackets.cel.nika' },
    { match: r`[()]`, name: 'punctuation.section.parens.cel.nika' },
    { match: ',', name: 'punctuation.separator.comma.cel.nika' },
  ];
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'Nika expressions',
    scopeName: 'expression.injection.nika',
    injectionSelector: 'L:source.nika string -comment -meta.embedded.expression.nika -meta.embedded.template.legacy.nika',
    patterns: [{ include: '#island' }, { include: '#legacy-template' }],
    repository: {
      island: {
        // An odd run of backslashes before `${{` escapes it (reference §4.1).
        begin: r`(?<!\\)((?:\\\\)*)(\$\{\{)`,
        beginCaptures: {
          1: { name: 'constant.character.escape.nika' },
          2: { name: 'punctuation.section.embedded.begin.nika' },
        },
        // Unclosed islands stop at the end of the line, or at a quote that can only close the host string.
        end: r`(\}\})|(?=$)|(?=["'])`,
        endCaptures: { 1: { name: 'punctuation.section.embedded.end.nika' } },
        applyEndPatternLast: 1,
        name: 'meta.embedded.expression.nika',
        contentName: 'source.cel.nika',
        patterns: cel,
      },
      'legacy-template': {
        // Era-A `{{use.alias}}` / draft `{{var}}` templates (rewritten to `${{ }}` by the migration).
        match: r`(?<!\$)(\{\{)\s*(?:(use)(\.))?([A-Za-z_][\w\-]*)((?:\.[\w\-]+)*)\s*(\}\})`,
        name: 'meta.embedded.template.legacy.nika',
        captures: {
          1: { name: 'punctuation.section.embedded.begin.legacy.nika' },
          2: { name: 'variable.language.legacy.nika' },
          3: { name: 'punctuation.accessor.nika' },
          4: { name: 'variable.other.readwrite.nika' },
          5: { name: 'variable.other.property.nika' },
          6: { name: 'punctuation.section.embedded.end.legacy.nika' },
        },
      },
    },
  };
}

export const GRAMMAR_FILES: Record<string, () => Rule> = {
  'nika.tmLanguage.json': nikaGrammar,
  'nika-expression.injection.json': expressionInjection,
};

export function renderGrammar(file: string): string {
  return JSON.stringify(GRAMMAR_FILES[file](), null, 2) + '\n';
}

if (require.main === module) {
  for (const file of Object.keys(GRAMMAR_FILES)) writeFileSync(join(__dirname, file), renderGrammar(file));
}
