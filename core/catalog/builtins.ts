// The closed set of 28 `nika:*` builtins (reference §5) as data: argument contracts for checks,
// completion and hover, effect classes for permits, and JSON Schemas for agent tool lists.

export type ArgType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'any';

/** Effect class as the canon names it; `fs` = reads and writes, `fs+provider` also calls a model provider. */
export type BuiltinEffect = 'pure' | 'fs.read' | 'fs.write' | 'fs' | 'net' | 'fs+provider';

/** Permit categories a builtin can touch (what `permits:` must grant beyond `tools`). */
export type PermitCategory = 'fs.read' | 'fs.write' | 'net';

export type BuiltinCategory = 'core' | 'data' | 'file' | 'network' | 'media' | 'introspection' | 'decision';

export interface ArgSpec {
  type: ArgType;
  required?: boolean;
  enum?: string[];
  description: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

export interface BuiltinSpec {
  /** Bare name (`read`); the tool id is `nika:<name>`. */
  name: string;
  id: string;
  category: BuiltinCategory;
  effect: BuiltinEffect;
  effects: readonly PermitCategory[];
  /** Valid only inside an `agent.tools` whitelist (NIKA-BUILTIN-<NAME>-001 otherwise). */
  agentOnly?: boolean;
  description: string;
  args: Record<string, ArgSpec>;
  /** Exactly one of each listed group must be present (e.g. wait: duration XOR until). */
  oneOf?: string[][];
  /** At most one of these may be present. */
  atMostOne?: string[];
  returns: string;
}

/** The 9 canonical `nika:fetch` modes. */
export const FETCH_EXTRACT_MODES: readonly string[] = ['article', 'feed', 'jq', 'links', 'markdown', 'metadata', 'selector', 'sitemap', 'text'];
/** The implicit mode: the response body as text. */
export const FETCH_RAW_MODE = 'raw';

const EFFECTS: Record<BuiltinEffect, readonly PermitCategory[]> = {
  pure: [],
  'fs.read': ['fs.read'],
  'fs.write': ['fs.write'],
  fs: ['fs.read', 'fs.write'],
  net: ['net'],
  'fs+provider': ['fs.read', 'fs.write', 'net'],
};

type Def = Omit<BuiltinSpec, 'id' | 'effects'>;

const str = (description: string, extra: Partial<ArgSpec> = {}): ArgSpec => ({ type: 'string', description, ...extra });
const req = (spec: ArgSpec): ArgSpec => ({ ...spec, required: true });
const oneOfStr = (values: string[], description: string, extra: Partial<ArgSpec> = {}): ArgSpec => ({ type: 'string', enum: values, description, ...extra });

const DEFS: Def[] = [
  {
    name: 'assert', category: 'core', effect: 'pure',
    description: 'Fails the task unless a condition holds.',
    args: {
      condition: req({ type: 'boolean', description: 'A `${{ }}` expression that must be true.' }),
      message: str('Message reported when the condition is false.'),
    },
    returns: 'true (a false condition fails with NIKA-BUILTIN-ASSERT-001)',
  },
  {
    name: 'chart', category: 'media', effect: 'fs',
    description: 'Renders a deterministic SVG chart from rows of data.',
    args: {
      data: req({ type: 'any', description: 'Rows (array of objects) or `{path}` to a data file.' }),
      chart: req({ type: 'object', description: 'Chart spec: `{type: bar|line|area_band|scatter|heatmap, x, y, y_lo, y_hi, y2, color, title}`.' }),
      out: req(str('Output path of the `.svg` file.')),
      semantics: { type: 'object', description: 'Field → meaning (usd, duration_ms, tokens, delta, percent, timestamp, count, category).' },
      compile_to: oneOfStr(['vega_lite'], 'Also emit the chart in another grammar.'),
    },
    returns: 'receipt of the written SVG',
  },
  {
    name: 'compose', category: 'introspection', effect: 'pure', agentOnly: true,
    description: 'Checks a draft workflow and returns the verdict without running it.',
    args: { workflow_yaml: req(str('The draft workflow as YAML text.')) },
    returns: 'check verdict (valid flag and diagnostics)',
  },
  {
    name: 'convert', category: 'data', effect: 'pure',
    description: 'Converts data between JSON, YAML, TOML and CSV.',
    args: {
      input: req({ type: 'any', description: 'The text (or value) to convert.' }),
      from: req(oneOfStr(['json', 'yaml', 'toml', 'csv'], 'Source format.')),
      to: req(oneOfStr(['json', 'yaml', 'toml', 'csv'], 'Target format (different from `from`).')),
      has_header: { type: 'boolean', description: 'CSV input starts with a header row.', default: true },
      formula_guard: { type: 'boolean', description: 'Neutralize spreadsheet formulas in CSV output.', default: false },
    },
    returns: 'converted value',
  },
  {
    name: 'date', category: 'data', effect: 'pure',
    description: 'Date and time arithmetic and formatting.',
    args: {
      op: req(oneOfStr(['now', 'add', 'subtract', 'format', 'parse', 'diff'], 'Operation.')),
      tz: str('IANA time zone.'),
      base: str('Timestamp to start from (add/subtract).'),
      duration: str('Go duration to add or subtract.'),
      input: str('Timestamp to format or text to parse.'),
      format: str('strftime format.'),
      start: str('Start timestamp (diff).'),
      end: str('End timestamp (diff).'),
      unit: str('Unit of a diff result.'),
    },
    returns: 'string (diff: integer)',
  },
  {
    name: 'decide', category: 'decision', effect: 'pure',
    description: 'Evaluates a decision bundle against evidence and returns a receipt.',
    args: {
      bundle: req({ type: 'any', description: 'Decision bundle: a path or an inline object.' }),
      evidence: req({ type: 'object', description: 'Evidence snapshot the bundle is judged on.' }),
    },
    returns: 'decision receipt',
  },
  {
    name: 'done', category: 'core', effect: 'pure', agentOnly: true,
    description: "Ends the agent loop; `result` becomes the task's output.",
    args: { result: { type: 'any', description: 'Final result (any JSON value).' } },
    returns: 'ends the loop',
  },
  {
    name: 'edit', category: 'file', effect: 'fs.write',
    description: 'Replaces literal text in a file.',
    args: {
      path: req(str('File to edit.')),
      find: req(str('Literal text to find.')),
      replace: req(str('Replacement text.')),
      count: { type: 'integer', minimum: 0, description: 'Expected number of replacements (0 = all).' },
    },
    returns: 'the edited path',
  },
  {
    name: 'emit', category: 'core', effect: 'pure',
    description: 'Emits a custom event into the run trace.',
    args: {
      event_type: req(str('Event name, `^[a-z][a-z0-9_.-]*$`.')),
      payload: { type: 'any', description: 'Event data.' },
    },
    returns: 'null',
  },
  {
    name: 'fetch', category: 'network', effect: 'net',
    description: 'HTTP request with content extraction.',
    args: {
      url: req(str('URL to request.')),
      method: oneOfStr(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'], 'HTTP method.', { default: 'GET' }),
      headers: { type: 'object', description: 'Request headers.' },
      body: { type: 'any', description: 'Request body (string or JSON).' },
      form: { type: 'object', description: 'URL-encoded form fields (POST/PUT/PATCH).' },
      multipart: { type: 'object', description: 'Multipart form parts (POST/PUT/PATCH).' },
      mode: oneOfStr([...FETCH_EXTRACT_MODES, FETCH_RAW_MODE], 'What to extract from the response.', { default: 'markdown' }),
      jq: str('jq program applied to a JSON response (mode: jq only).'),
      selector: str('CSS selector (mode: selector only).'),
      traverse: { type: 'object', description: 'Follow links: `{max_pages (1..25), respect_robots}`; GET only.' },
    },
    atMostOne: ['body', 'form', 'multipart'],
    returns: 'extracted content per mode',
  },
  {
    name: 'glob', category: 'file', effect: 'fs.read',
    description: 'Lists files matching a glob pattern.',
    args: {
      pattern: req(str('Glob pattern (`**` crosses directories).')),
      exclude: { type: 'array', description: 'Patterns to leave out.' },
    },
    returns: 'sorted list of paths',
  },
  {
    name: 'grep', category: 'file', effect: 'fs.read',
    description: 'Searches files for a regular expression.',
    args: {
      pattern: req(str('Regular expression (RE2-like).')),
      path: req(str('File or directory to search.')),
      case_insensitive: { type: 'boolean', description: 'Ignore case.', default: false },
    },
    returns: 'list of {path, line, match}',
  },
  {
    name: 'hash', category: 'data', effect: 'pure',
    description: 'Digests, signs or verifies content.',
    args: {
      content: req(str('Content to hash, sign or verify.')),
      algo: oneOfStr(['blake3', 'sha256', 'sha512'], 'Algorithm.', { default: 'blake3' }),
      encoding: oneOfStr(['hex', 'base64'], 'Output encoding.', { default: 'hex' }),
      op: oneOfStr(['hash', 'sign', 'verify'], 'Operation.', { default: 'hash' }),
      key: str('Signing key (sign); must be a `${{ secrets.X }}` reference.'),
      public_key: str('Public key (verify).'),
      signature: str('Signature to check (verify).'),
    },
    returns: 'digest, signature or bool',
  },
  {
    name: 'image_fx', category: 'media', effect: 'fs',
    description: 'Applies a deterministic chain of effects to a PNG image.',
    args: {
      input: req(str('Source PNG path.')),
      out: req(str('Output path.')),
      ops: req({ type: 'array', description: '1..32 single-key operations (resize, crop, levels, grayscale, dither, …).' }),
      seed: { type: 'integer', description: 'Seed for randomized effects.' },
    },
    returns: 'artifact receipt',
  },
  {
    name: 'image_generate', category: 'media', effect: 'fs+provider',
    description: 'Generates or edits images with an image model.',
    args: {
      prompt: req(str('What to draw.')),
      output_dir: req(str('Directory for the images.')),
      provider: oneOfStr(['local', 'openai', 'gemini', 'xai', 'mock'], 'Image provider.'),
      model: str('Provider model name.'),
      mode: oneOfStr(['generate', 'edit'], 'Generate new images or edit given ones.', { default: 'generate' }),
      image: str('Image to edit (edit mode).'),
      images: { type: 'array', description: 'Images to edit (edit mode).' },
      mask: str('Edit mask (edit mode).'),
      n: { type: 'integer', minimum: 1, maximum: 10, description: 'Number of images.' },
      aspect_ratio: oneOfStr(['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9'], 'Aspect ratio.'),
      size: str('`WxH` or `auto`.'),
      quality: oneOfStr(['auto', 'low', 'medium', 'high', 'ultra'], 'Quality tier.'),
      format: oneOfStr(['png', 'jpeg', 'webp'], 'File format.'),
      compression: { type: 'integer', minimum: 0, maximum: 100, description: 'Compression level (jpeg/webp).' },
      background: oneOfStr(['auto', 'transparent', 'opaque'], 'Background handling.'),
      seed: { type: 'integer', description: 'Seed, where the provider supports one.' },
      provider_options: { type: 'object', description: 'Provider-specific options.' },
      filename_prefix: str('Prefix of the written file names.'),
      save: { type: 'boolean', description: 'Reserved; images are always saved.' },
      manifest: { type: 'any', description: 'Write a manifest next to the images.' },
      metadata: { type: 'object', description: 'Extra metadata recorded in the manifest.' },
      timeout_ms: { type: 'integer', minimum: 1000, maximum: 600000, description: 'Provider call deadline.' },
      debug: { type: 'boolean', description: 'Keep provider request details.' },
    },
    returns: 'list of written images',
  },
  {
    name: 'inspect', category: 'introspection', effect: 'pure',
    description: 'Reads facts about the current run.',
    args: { view: req(oneOfStr(['cost', 'records', 'dag_info', 'threads'], 'What to read.')) },
    returns: 'the requested view',
  },
  {
    name: 'jq', category: 'data', effect: 'pure',
    description: 'Runs a jq program over a JSON value.',
    args: {
      expression: req(str('jq program.')),
      input: { type: 'any', description: 'JSON input (an array for several inputs).' },
    },
    returns: 'JSON value',
  },
  {
    name: 'json_diff', category: 'data', effect: 'pure',
    description: 'Computes an RFC 6902 patch between two values.',
    args: {
      before: req({ type: 'any', description: 'Original value.' }),
      after: req({ type: 'any', description: 'Changed value.' }),
    },
    returns: 'RFC 6902 patch (array)',
  },
  {
    name: 'json_merge_patch', category: 'data', effect: 'pure',
    description: 'Applies an RFC 7396 merge patch.',
    args: {
      target: req({ type: 'any', description: 'Value to patch.' }),
      patch: req({ type: 'any', description: 'Merge patch.' }),
    },
    returns: 'patched value',
  },
  {
    name: 'log', category: 'core', effect: 'pure',
    description: 'Writes a message to the run log.',
    args: {
      message: req(str('Message.')),
      level: oneOfStr(['debug', 'info', 'warn', 'error'], 'Log level.', { default: 'info' }),
      data: { type: 'any', description: 'Structured data to attach.' },
    },
    returns: 'null',
  },
  {
    name: 'notify', category: 'network', effect: 'net',
    description: 'Sends a notification to a webhook or chat channel.',
    args: {
      channel: req(oneOfStr(['webhook', 'slack', 'email', 'discord', 'sms'], 'Delivery channel.')),
      target: req(str('Destination (URL, address, number …).')),
      message: req(str('Message text.')),
      severity: str('Severity label.'),
      data: { type: 'any', description: 'Structured data to attach.' },
    },
    returns: 'null',
  },
  {
    name: 'prompt', category: 'core', effect: 'pure',
    description: 'Asks the human operator to confirm, type or choose.',
    args: {
      message: req(str('Question shown to the operator.')),
      mode: oneOfStr(['confirm', 'input', 'choice'], 'Kind of answer.', { default: 'confirm' }),
      default: { type: 'any', description: 'Answer used when nobody can be asked.' },
      choices: { type: 'array', description: 'Options (choice mode).' },
    },
    returns: 'bool (confirm) or string',
  },
  {
    name: 'read', category: 'file', effect: 'fs.read',
    description: 'Reads a file.',
    args: {
      path: req(str('File to read.')),
      encoding: str('Text encoding.', { default: 'utf-8' }),
      binary: { type: 'boolean', description: 'Return bytes instead of text.', default: false },
    },
    returns: 'string or bytes',
  },
  {
    name: 'tts_generate', category: 'media', effect: 'fs+provider',
    description: 'Synthesizes speech from text.',
    args: {
      text: req(str('Text to speak (≤ 4096 characters).')),
      output_dir: req(str('Directory for the audio file.')),
      provider: oneOfStr(['local', 'openai', 'elevenlabs', 'mock'], 'Speech provider.'),
      model: str('Provider model name.'),
      voice: str('Voice name.'),
      format: oneOfStr(['mp3', 'wav', 'auto'], 'Audio format.'),
      speed: { type: 'number', minimum: 0.25, maximum: 4, description: 'Speaking rate.' },
      filename_prefix: str('Prefix of the written file name.'),
      metadata: { type: 'object', description: 'Extra metadata recorded in the manifest.' },
      manifest: { type: 'any', description: 'Write a manifest next to the audio.' },
      timeout_ms: { type: 'integer', description: 'Provider call deadline.' },
    },
    returns: 'written audio file',
  },
  {
    name: 'uuid', category: 'data', effect: 'pure',
    description: 'Generates a UUID.',
    args: { version: oneOfStr(['v7', 'v4'], 'UUID version.', { default: 'v7' }) },
    returns: 'string',
  },
  {
    name: 'validate', category: 'data', effect: 'pure',
    description: 'Validates data against a JSON Schema.',
    args: {
      data: req({ type: 'any', description: 'Value (or JSON/YAML text) to validate.' }),
      schema: req({ type: 'any', description: 'JSON Schema object, or its JSON/YAML text.' }),
      format: oneOfStr(['json', 'yaml'], 'How to parse text input.'),
    },
    returns: '{valid, errors} (invalid data is not a failure)',
  },
  {
    name: 'wait', category: 'core', effect: 'pure',
    description: 'Pauses for a duration or until a moment.',
    args: {
      duration: str('Go duration such as "30s".'),
      until: str('ISO 8601 timestamp to wait for.'),
      timeout: str('Upper bound when waiting `until` (Go duration).'),
    },
    oneOf: [['duration', 'until']],
    returns: 'null',
  },
  {
    name: 'write', category: 'file', effect: 'fs.write',
    description: 'Writes a file.',
    args: {
      path: req(str('File to write.')),
      content: req({ type: 'any', description: 'Content (string, or a value written as JSON).' }),
      create_dirs: { type: 'boolean', description: 'Create missing parent directories.', default: false },
      overwrite: { type: 'boolean', description: 'Replace an existing file.', default: true },
    },
    returns: 'the written path',
  },
];

export const BUILTINS: ReadonlyMap<string, BuiltinSpec> = new Map(
  DEFS.map((d) => [d.name, { ...d, id: `nika:${d.name}`, effects: EFFECTS[d.effect] }]),
);

/** Accepts `read` or `nika:read`. */
export function builtinSpec(nameOrId: string): BuiltinSpec | undefined {
  return BUILTINS.get(nameOrId.startsWith('nika:') ? nameOrId.slice(5) : nameOrId);
}

/** JSON Schema (2020-12 subset) of a builtin's `args`, for agent tool lists and hover. */
export function builtinInputSchema(nameOrId: string): Record<string, unknown> | undefined {
  const spec = builtinSpec(nameOrId);
  if (!spec) return undefined;
  const properties: Record<string, unknown> = {};
  for (const [name, a] of Object.entries(spec.args)) {
    const p: Record<string, unknown> = { description: a.description };
    if (a.type !== 'any') p.type = a.type;
    if (a.enum) p.enum = [...a.enum];
    if (a.default !== undefined) p.default = a.default;
    if (a.minimum !== undefined) p.minimum = a.minimum;
    if (a.maximum !== undefined) p.maximum = a.maximum;
    properties[name] = p;
  }
  const schema: Record<string, unknown> = { type: 'object', properties, additionalProperties: false };
  const required = Object.entries(spec.args).filter(([, a]) => a.required).map(([n]) => n);
  if (required.length) schema.required = required;
  if (spec.oneOf?.length === 1) schema.oneOf = spec.oneOf[0].map((n) => ({ required: [n] }));
  else if (spec.oneOf) schema.allOf = spec.oneOf.map((g) => ({ oneOf: g.map((n) => ({ required: [n] })) }));
  if (spec.atMostOne) schema.not = { anyOf: pairs(spec.atMostOne).map((pair) => ({ required: pair })) };
  return schema;
}

function pairs(names: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) out.push([names[i], names[j]]);
  return out;
}

export interface RenamedBuiltin {
  /** Tool id to use instead, or undefined when the replacement is not a tool. */
  replacement?: string;
  /** Args the replacement needs to keep the old meaning. */
  args?: Record<string, unknown>;
  hint: string;
}

const jqRecipe: RenamedBuiltin = { replacement: 'nika:jq', hint: 'write it as a nika:jq expression (or an `extract:` binding)' };
const inspect = (view: string): RenamedBuiltin => ({ replacement: 'nika:inspect', args: { view }, hint: `use nika:inspect with view: ${view}` });

/** Cut or renamed builtins (reference §5, end), keyed by the old tool id. */
export const RENAMED_BUILTINS: ReadonlyMap<string, RenamedBuiltin> = new Map<string, RenamedBuiltin>([
  ['nika:sleep', { replacement: 'nika:wait', hint: 'use nika:wait with duration:' }],
  ['nika:wait_until', { replacement: 'nika:wait', hint: 'use nika:wait with until:' }],
  ['nika:cost', inspect('cost')],
  ['nika:records', inspect('records')],
  ['nika:dag_info', inspect('dag_info')],
  ['nika:threads', inspect('threads')],
  ['nika:csv_to_json', { replacement: 'nika:convert', args: { from: 'csv', to: 'json' }, hint: 'use nika:convert from: csv to: json' }],
  ['nika:json_to_csv', { replacement: 'nika:convert', args: { from: 'json', to: 'csv' }, hint: 'use nika:convert from: json to: csv' }],
  ['nika:json_verify', { replacement: 'nika:validate', hint: 'use nika:validate' }],
  ['nika:yaml_validate', { replacement: 'nika:validate', args: { format: 'yaml' }, hint: 'use nika:validate with format: yaml' }],
  ...['map', 'filter', 'group_by', 'aggregate', 'enrich', 'chunk', 'flatten', 'unflatten', 'inject', 'base64_encode', 'base64_decode', 'json_merge']
    .map((n): [string, RenamedBuiltin] => [`nika:${n}`, jqRecipe]),
  ['nika:task_status', { hint: 'read ${{ tasks.<id>.status }} instead' }],
  ['nika:complete', { replacement: 'nika:done', hint: 'use nika:done (agent whitelist only)' }],
  ['nika:run', { hint: 'use invoke: { workflow: <path> } to call a child workflow' }],
  ['nika:orchestrate', { hint: 'use invoke: { workflow: <path> } to call a child workflow' }],
]);
