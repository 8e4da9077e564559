// Inputs for the language-server fuzzers: a seeded PRNG (so every failure names a seed that
// reproduces it), mutations of every example and fixture, and hand-made hostile documents.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** mulberry32: tiny, fast, good enough to pick mutations; the same seed gives the same run. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! };
}
export type Rng = ReturnType<typeof prng>;

export interface FuzzDoc { label: string; text: string }

/** Every example and fixture workflow in the repository (the seeds for mutation). */
export function seedDocs(): FuzzDoc[] {
  const out: FuzzDoc[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.nika\.ya?ml$/.test(name)) out.push({ label: relative(ROOT, p), text: readFileSync(p, 'utf8') });
    }
  };
  walk(join(ROOT, 'examples'));
  walk(join(ROOT, 'test', 'fixtures'));
  return out;
}

// Fragments a half-typed line is made of: expression delimiters, YAML indicators, whitespace the
// parser treats specially, and code points that stress UTF-16 position arithmetic.
const FRAGMENTS = [
  '${{', '}}', '${{ ', ' }}', '${{ tasks.', '${{ inputs.', '${{ with.', '${{ secrets.', '${{ tasks.a.output.', '| ', '.', '[', ']', '{', '}',
  ':', ': ', '-', '- ', '  ', '\t', '\r\n', '\r', '\n', '#', '&a ', '*a', '!!str ', '? ', '"', "'", '|', '>-', '%YAML 1.2\n', '---\n', '...\n',
  'é', '日本', '😀', '\u{1F600}'.slice(0, 1), '\u200b', '\u0000', '\ufeff', '\u2028', 'mcp:', 'mcp:srv/', 'nika:', 'infer:', 'exec:', 'invoke:', 'agent:',
  'after: ', 'with: ', 'tasks:', 'for_each: ', 'tool: ', 'model: ', 'mock/echo', '&&', '||', '??', '!', '==', '(', ')', '1e309', '-0', '0x', "'\\u",
];

const MUTATORS: Array<(lines: string[], r: Rng) => void> = [
  (l, r) => { if (l.length) l.splice(r.int(l.length), 1); }, // delete a line
  (l, r) => { if (l.length) { const i = r.int(l.length); l.splice(i, 0, l[i]!); } }, // duplicate a line
  (l, r) => { if (l.length > 1) { const i = r.int(l.length), j = r.int(l.length); [l[i], l[j]] = [l[j]!, l[i]!]; } }, // swap two lines
  (l, r) => { if (l.length) l.length = r.int(l.length); }, // truncate at a line
  (l, r) => { // truncate inside a line
    if (!l.length) return;
    const i = r.int(l.length);
    l[i] = l[i]!.slice(0, r.int(l[i]!.length + 1));
    l.length = i + 1;
  },
  (l, r) => { // insert a fragment at a random column
    if (!l.length) l.push('');
    const i = r.int(l.length), s = l[i]!, c = r.int(s.length + 1);
    l[i] = s.slice(0, c) + r.pick(FRAGMENTS) + s.slice(c);
  },
  (l, r) => { // insert random code units (including lone surrogates and controls)
    if (!l.length) l.push('');
    const i = r.int(l.length), s = l[i]!, c = r.int(s.length + 1);
    let junk = '';
    for (let k = r.int(6) + 1; k > 0; k--) junk += String.fromCharCode(r.next() < 0.5 ? r.int(128) : r.int(0x10000));
    l[i] = s.slice(0, c) + junk + s.slice(c);
  },
  (l, r) => { // shift indentation of a run of lines
    if (!l.length) return;
    const i = r.int(l.length), n = r.int(4) + 1, d = r.int(5) - 2;
    for (let k = i; k < Math.min(l.length, i + n); k++) l[k] = d > 0 ? ' '.repeat(d) + l[k] : l[k]!.replace(new RegExp(`^ {0,${-d}}`), '');
  },
  (l, r) => { if (l.length) { const i = r.int(l.length); l[i] = l[i]!.replace(/^( *)/, (m) => m.replace(/ {2}/g, '\t')); } }, // tabs for indentation
  (l, r) => { // delete a span of characters inside a line
    if (!l.length) return;
    const i = r.int(l.length), s = l[i]!, a = r.int(s.length + 1), b = a + r.int(8);
    l[i] = s.slice(0, a) + s.slice(b);
  },
  (l, r) => { if (l.length) { const i = r.int(l.length); l.splice(i, 0, ...l.slice(i, i + r.int(6) + 1)); } }, // duplicate a block
  (l, r) => { if (l.length) { const i = r.int(l.length); l[i] = l[i]!.replace(/\b[a-z_]+\b/, () => r.pick(['tasks', 'a', 'infer', 'with', 'after', 'permits', 'Ünïcødé', '日本語', ''])); } }, // rename a word
];

export function mutate(text: string, r: Rng): string {
  const crlf = text.includes('\r\n');
  const lines = text.split(/\r?\n/);
  for (let n = r.int(4) + 1; n > 0; n--) r.pick(MUTATORS)(lines, r);
  const eol = r.next() < 0.15 ? (crlf ? '\n' : '\r\n') : crlf ? '\r\n' : '\n';
  return lines.join(eol);
}

/** Documents written to hurt: each names what it attacks. */
export function hostileDocs(): FuzzDoc[] {
  const docs: FuzzDoc[] = [];
  const add = (label: string, text: string) => docs.push({ label: `hostile:${label}`, text });

  // "Billion laughs": nine levels of nine aliases, referenced from places the normalizer reads.
  const bomb = ['nika: bomb', 'model: mock/echo', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const c = String.fromCharCode(97 + i), p = String.fromCharCode(96 + i);
    bomb.push(`${c}: &${c} [${Array(9).fill(`*${p}`).join(',')}]`);
  }
  add('alias-bomb-top', bomb.join('\n') + '\ntasks: { t: { infer: { prompt: hi } } }\n');
  add('alias-bomb-in-tasks', bomb.join('\n') + '\ntasks:\n  t:\n    with: { x: *i }\n    infer: { prompt: *i }\n  u:\n    after: *i\n    exec: { command: *i }\ninputs: *i\npermits: { exec: *i, tools: *i }\noutputs: *i\n');
  add('alias-bomb-map', 'nika: m\na: &a {x: 1, y: 1, z: 1, w: 1}\n' + Array.from({ length: 12 }, (_, i) => `k${i + 1}: &k${i + 1} {${['p', 'q', 'r', 's'].map((x) => `${x}: *${i ? `k${i}` : 'a'}`).join(', ')}}`).join('\n') + '\ntasks: *k12\n');
  add('alias-self', 'nika: s\ntasks: &t\n  a: *t\n');
  add('alias-undefined', 'nika: u\ntasks:\n  a: *nope\n  b: { infer: *nope2 }\n');

  // 3,000-deep nesting, flow and block, at the top and inside a task.
  add('deep-flow-seq', 'nika: deep\ntasks: ' + '['.repeat(3000) + ']'.repeat(3000) + '\n');
  add('deep-flow-map', 'nika: deep\ntasks: ' + '{a: '.repeat(3000) + '1' + '}'.repeat(3000) + '\n');
  add('deep-flow-unclosed', 'nika: deep\ntasks:\n  t:\n    with:\n      x: ' + '[{'.repeat(3000) + '\n');
  add('deep-block-seq', 'nika: deep\ntasks:\n  t:\n    infer:\n      prompt: hi\n    with:\n      x:\n' + '        ' + '- '.repeat(3000) + 'x\n');
  add('deep-block-map', 'nika: deep\ntasks:\n' + Array.from({ length: 1000 }, (_, i) => ' '.repeat(i + 1) + `k${i}:`).join('\n') + ' end\n');
  add('deep-expr', 'nika: e\ntasks:\n  t:\n    infer:\n      prompt: "${{ ' + '('.repeat(3000) + '1' + ')'.repeat(3000) + ' }}"\n  u:\n    infer:\n      prompt: "${{ ' + '!'.repeat(3000) + 'true }}"\n  v:\n    infer:\n      prompt: "${{ ' + '['.repeat(3000) + ' }}"\n  w:\n    infer:\n      prompt: "${{ tasks' + '.a'.repeat(3000) + ' }}"\n');

  // Size: multi-MB scalars and documents over 1 MiB (refused), and just under (fully analyzed).
  add('scalar-3mb', 'nika: big\ntasks:\n  a:\n    infer: { prompt: "' + 'x'.repeat(3_000_000) + '" }\n');
  add('doc-over-1mib-multibyte', 'nika: big\n# ' + 'é'.repeat(600_000) + '\ntasks: {}\n');
  add('scalar-900kb', 'nika: big\nmodel: mock/echo\ntasks:\n  a:\n    infer: { prompt: "' + 'y '.repeat(450_000) + '" }\n');
  add('scalar-20k-islands', 'nika: big\nmodel: mock/echo\ntasks:\n  a:\n    infer: { prompt: "' + '${{ inputs.x }}'.repeat(20_000) + '" }\n');
  add('many-tasks', 'nika: many\nmodel: mock/echo\ntasks:\n' + Array.from({ length: 1000 }, (_, i) => `  t${i}:\n    after: { t${Math.max(0, i - 1)}: success }\n    infer: { prompt: "\${{ tasks.t${(i * 7) % 1000}.output }}" }`).join('\n') + '\n');
  add('long-line', 'nika: l\ntasks: {' + Array.from({ length: 2_000 }, (_, i) => `t${i}: {}`).join(', ') + '}\n');

  // Bytes that are not YAML at all.
  const junk = (n: number, seed: number) => { const r = prng(seed); let s = ''; for (let i = 0; i < n; i++) s += String.fromCharCode(r.int(256)); return s; };
  add('binary-latin1', junk(20_000, 1));
  add('binary-utf16', (() => { const r = prng(2); let s = ''; for (let i = 0; i < 20_000; i++) s += String.fromCharCode(r.int(0x10000)); return s; })());
  add('nul-bytes', 'nika: n\u0000ul\ntasks:\n  a\u0000:\n    infer: { prompt: "\u0000${{ \u0000 }}" }\n\u0000\u0000\u0000');
  add('lone-surrogates', 'nika: s\ntasks:\n  \ud800:\n    infer: { prompt: "\udc00${{ tasks.\ud83d }}" }\n  b\ud800c:\n    after: { \udfff: success }\n    exec: { command: ["\ud800"] }\n');
  add('unicode-keys', 'nika: ü\nmodel: mock/echo\ntasks:\n  日本:\n    infer: { prompt: "${{ tasks.日本.output }}" }\n  😀:\n    after: { 日本: success }\n    exec: { command: [echo, "é"] }\n  "\u200b":\n    invoke: { tool: "nika:lög" }\n');
  add('bom-crlf', '\ufeffnika: b\r\nmodel: mock/echo\r\ntasks:\r\n  a:\r\n    infer:\r\n      prompt: "${{ inputs.x }}"\r\n  b:\r\n    with: { y: "${{ tasks.a.output }}" }\r\n    exec:\r\n      command: [echo, "${{ with.y }}"]\r\n');
  add('lone-cr', 'nika: c\rtasks:\r  a:\r    infer: { prompt: "${{ x }}" }\r');
  add('mixed-eol', 'nika: m\r\ntasks:\n  a:\r    infer:\r\n      prompt: "${{\r\n tasks.a }}"\n');
  add('empty', '');
  add('whitespace', ' \n\t\n\r\n   ');
  add('only-comment', '# nothing\n');
  add('multi-doc', 'nika: a\ntasks: {}\n---\nnika: b\ntasks: {}\n---\n');
  add('not-a-map', '- a\n- b\n');
  add('scalar-root', '${{ tasks.a.output }}');
  add('directives', '%YAML 1.1\n%TAG ! tag:x,2000:\n---\nnika: !x t\ntasks: !!map { a: !!seq [] }\n');
  add('tags-everywhere', 'nika: !!binary aGVsbG8=\ntasks:\n  a: !custom\n    infer: !!str { prompt: !!int hi }\n');
  add('duplicate-keys', 'nika: d\nnika: d\ntasks:\n  a: { infer: { prompt: x } }\n  a: { exec: { shell: x } }\ntasks: {}\n');
  add('complex-keys', 'nika: c\ntasks:\n  ? [a, b]\n  : infer: { prompt: x }\n  ? { a: 1 }\n  : 1\n');

  // Broken expressions in every position the scanner looks at.
  const broken = ['${{', '${{ }}', '${{ tasks. }}', '${{ tasks.a.output', '}} ${{', '${{ ${{ }} }}', '${{ "unterminated }}', "${{ 'x }}", '${{ a ? b : }}', '${{ a[ }}', '${{ f( }}', '${{ 1 +* 2 }}', '${{ \u0000 }}', '${{ tasks["a"]["b"] }}', '$${{ x }}', '${{ x }}}}', '${{{{ x }}'];
  add('broken-expr', 'nika: x\nmodel: mock/echo\ninputs:\n  x: { type: string, default: "' + broken.join(' ') + '" }\ntasks:\n' + broken.map((b, i) => `  t${i}:\n    with: { v: ${JSON.stringify(b)} }\n    when: ${JSON.stringify(b)}\n    after: { ${JSON.stringify(b)}: success }\n    infer: { prompt: ${JSON.stringify(b)}, model: ${JSON.stringify(b)} }`).join('\n') + '\noutputs:\n  o: ' + JSON.stringify(broken.join('')) + '\n');
  add('broken-expr-block', 'nika: x\ntasks:\n  a:\n    infer:\n      prompt: |\n        ${{ tasks.\n        }} ${{\n        ${{ with.\n  b:\n    exec:\n      shell: >-\n        ${{ "\n        x }}\n');
  add('tool-ids', 'nika: t\npermits: { tools: ["mcp:", "mcp:/", "mcp:a/", "nika:", "**", "!"] }\ntasks:\n' + ['mcp:', 'mcp:/', 'mcp:srv/', 'mcp:srv/echo', 'mcp:srv/echo/x', 'mcp:a:b/c', 'nika:', 'nika:read', 'x', '', '${{ x }}', 'mcp:😀/😀'].map((t, i) => `  t${i}:\n    invoke: { tool: ${JSON.stringify(t)}, args: { message: 1, path: ${JSON.stringify(t)} } }`).join('\n') + '\n');
  return docs;
}

/** A catalog in the shape of the nika/toolCatalog notification, so tool paths are exercised too. */
export const FUZZ_CATALOG = {
  servers: [
    { name: 'srv', status: 'connected' as const, tools: [
      { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' }, n: { type: 'integer', enum: [1, 2] } }, required: ['message'] } },
      { name: 'weird', description: '', inputSchema: { type: 'object', properties: { a: { $ref: '#/x' }, b: { anyOf: [{ type: 'string' }, { type: 'null' }] }, c: { type: 'object', properties: { d: { type: 'array', items: { type: 'object' } } } } } } },
      { name: '😀', inputSchema: {} },
    ] },
    { name: 'down', status: 'error' as const, error: 'spawn ENOENT' },
    { name: 'off', status: 'disabled' as const },
  ],
};

/** The CI corpus: every hostile document and every seed, then seeded mutations up to `count`. */
export function fuzzCorpus(count: number, seed: number): FuzzDoc[] {
  const r = prng(seed);
  const seeds = seedDocs();
  const docs = [...hostileDocs(), ...seeds];
  for (let i = 0; docs.length < count; i++) {
    const s = r.pick(seeds);
    let text = mutate(s.text, r);
    // Some documents take several rounds, so damage accumulates.
    if (r.next() < 0.3) text = mutate(text, r);
    docs.push({ label: `mutant#${i}(seed ${seed}) of ${s.label}`, text });
  }
  return docs;
}

/** A random document position, biased towards interesting places (inside expressions, after colons, line ends). */
export function randomOffset(text: string, r: Rng): number {
  if (!text.length) return 0;
  const roll = r.next();
  if (roll < 0.4) {
    const anchors: number[] = [];
    const re = /\$\{\{|\}\}|: |\.|\n|\/|-/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) && anchors.length < 2000) anchors.push(m.index + m[0].length);
    if (anchors.length) return Math.min(text.length, r.pick(anchors) + r.int(3) - 1);
  }
  return r.int(text.length + 1);
}
