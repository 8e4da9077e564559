import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  collectReferences, evaluate, evaluateSource, ExprEvalError, findIslands, interpolateDeep, islandAt,
  parseExpression, renderTemplate, scanTemplate, staticType, type EvalScope, type ExprNode,
} from '../../core/expr/index.js';

/** Parses and fails the test on any error. */
function ast(src: string): ExprNode {
  const r = parseExpression(src);
  assert.deepEqual(r.errors, [], `unexpected errors for ${src}`);
  return r.ast!;
}

/** Compact s-expression of a tree, so precedence tests read at a glance. */
function sx(n: ExprNode): string {
  switch (n.kind) {
    case 'literal': return JSON.stringify(n.value);
    case 'ident': return n.name;
    case 'member': return `${sx(n.object)}.${n.property}`;
    case 'index': return `${sx(n.object)}[${sx(n.index)}]`;
    case 'call': return `${n.target ? sx(n.target) + '.' : ''}${n.callee}(${n.args.map(sx).join(' ')})`;
    case 'list': return `[${n.items.map(sx).join(' ')}]`;
    case 'unary': return `(${n.op} ${sx(n.operand)})`;
    case 'binary': return `(${n.op} ${sx(n.left)} ${sx(n.right)})`;
    case 'ternary': return `(? ${sx(n.test)} ${sx(n.consequent)} ${sx(n.alternate)})`;
  }
}

/** The text an error span covers inside `src`. */
function errorTexts(src: string): string[] {
  return parseExpression(src).errors.map((e) => src.slice(e.span.start, e.span.end));
}

function throwsCode(fn: () => unknown, code: string, messagePart?: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ExprEvalError, `expected ExprEvalError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (messagePart) assert.ok(e.message.includes(messagePart), `message "${e.message}" lacks "${messagePart}"`);
    return true;
  });
}

describe('findIslands', () => {
  it('finds islands with offsets and untrimmed source', () => {
    const s = 'Hi ${{ inputs.name }}, bye ${{x}}';
    const islands = findIslands(s);
    assert.equal(islands.length, 2);
    assert.equal(s.slice(islands[0].start, islands[0].end), '${{ inputs.name }}');
    assert.equal(islands[0].source, ' inputs.name ');
    assert.equal(s.slice(islands[0].sourceStart, islands[0].sourceStart + islands[0].source.length), ' inputs.name ');
    assert.equal(islands[1].source, 'x');
    assert.ok(islands.every((i) => i.closed));
  });

  it('applies the odd/even backslash rule', () => {
    assert.deepEqual(findIslands('\\${{ a }}'), []);
    assert.deepEqual(findIslands('\\\\\\${{ a }}'), []);
    const even = findIslands('\\\\${{ a }}');
    assert.equal(even.length, 1);
    assert.equal(even[0].start, 2);
    assert.equal(even[0].backslashes, 2);
    assert.equal(findIslands('x\\y ${{ a }}').length, 1, 'backslashes not touching ${{ are plain text');
  });

  it('skips }} inside string literals', () => {
    const s = "${{ 'a}}b' }} tail";
    const [i] = findIslands(s);
    assert.equal(i.source, " 'a}}b' ");
    assert.equal(s.slice(i.end), ' tail');
    assert.equal(findIslands('${{ "x\\"}}" }}')[0].source, ' "x\\"}}" ');
  });

  it('falls back to the first }} when a quote never closes', () => {
    const [i] = findIslands("${{ 'abc }} rest");
    assert.ok(i.closed);
    assert.equal(i.source, " 'abc ");
    assert.match(parseExpression(i.source).errors[0].message, /unterminated string/);
  });

  it('reports an unclosed island up to the end of the string', () => {
    const s = 'a ${{ b }} c ${{ inputs.x';
    const islands = findIslands(s);
    assert.equal(islands.length, 2);
    assert.equal(islands[1].closed, false);
    assert.equal(islands[1].end, s.length);
    assert.equal(islands[1].source, ' inputs.x');
  });

  it('scanTemplate renders escapes in the text runs', () => {
    const parts = scanTemplate('a \\${{ x }} \\\\${{ y }}');
    assert.deepEqual(parts.map((p) => (p.kind === 'text' ? p.text : `<${p.island.source.trim()}>`)), ['a ${{ x }} \\', '<y>']);
  });
});

describe('parseExpression: precedence', () => {
  const cases: Array<[string, string]> = [
    ['a || b && c', '(|| a (&& b c))'],
    ['a && b || c', '(|| (&& a b) c)'],
    ['a == b && c != d', '(&& (== a b) (!= c d))'],
    ['!a == b', '(== (! a) b)'],
    ['!!a', '(! (! a))'],
    ['a ? b : c ? d : e', '(? a b (? c d e))'],
    ['a ? b ? c : d : e', '(? a (? b c d) e)'],
    ['a || b ? c : d', '(? (|| a b) c d)'],
    ["x in ['a', 'b']", '(in x ["a" "b"])'],
    ['tasks.a.output[0].b', 'tasks.a.output[0].b'],
    ['(a || b) && c', '(&& (|| a b) c)'],
    ['size(x) >= 2', '(>= size(x) 2)'],
    ["s.startsWith('a') == true", '(== s.startsWith("a") true)'],
    ['-1 < -2.5', '(< -1 -2.5)'],
    ['[1, 2,]', '[1 2]'],
    ['null == x', '(== null x)'],
    ['tasks.x.in', 'tasks.x.in'],
  ];
  for (const [src, want] of cases) it(src, () => assert.equal(sx(ast(src)), want));

  it('decodes string escapes', () => {
    const n = ast(`'a\\'b\\\\c\\n\\t"' == "q\\"x"`);
    assert.equal(n.kind, 'binary');
    if (n.kind !== 'binary' || n.left.kind !== 'literal' || n.right.kind !== 'literal') return assert.fail();
    assert.equal(n.left.value, 'a\'b\\c\n\t"');
    assert.equal(n.right.value, 'q"x');
  });

  it('offsets spans by base', () => {
    const r = parseExpression(' tasks.fetch.output ', 100);
    const n = r.ast!;
    assert.equal(n.kind, 'member');
    if (n.kind !== 'member') return;
    assert.deepEqual(n.propertySpan, { start: 113, end: 119 });
    assert.deepEqual(n.span, { start: 101, end: 119 });
  });
});

describe('parseExpression: NIKA-VAR-005', () => {
  const rejected: Array<[string, string, RegExp]> = [
    ['a + 1', '+', /arithmetic/],
    ['inputs.n * 2 > 3', '*', /arithmetic/],
    ['a - 1', '-', /arithmetic/],
    ['a % 2 == 0', '%', /arithmetic/],
    ['a < b < c', '<', /chained/],
    ['a == b == c', '==', /chained/],
    ["x.matches('^a')", 'matches', /matches\(\)/],
    ["lower(x)", 'lower', /lower\(\)/],
    ['xs.all(x, x > 1)', 'all', /all\(\)/],
    ['x | json', '| json', /filters/],
    ["x | default('a')", "| default('a')", /filters/],
    ['', '', /empty/],
    ['   ', '   ', /empty/],
    ['a = b', '=', /==/],
    ['-x', '-', /unary minus/],
    ['1e3', '1e3', /number/],
    ["'abc", "'abc", /unterminated/],
    ["'\\x'", '\\x', /escape/],
    ['a @ b', '@', /unexpected character/],
    ['{a: 1}', '{', /map literal/],
    ['size(a, b)', 'size(a, b)', /argument/],
    ['x.size(1)', 'x.size(1)', /argument/],
    ['has(1)', '1', /reference/],
    ['a b', 'b', /unexpected/],
    ['tasks.', '.', /field name/],
    ['(a', '', /expected '\)'/],
  ];
  for (const [src, at, msg] of rejected) {
    it(JSON.stringify(src), () => {
      const { errors } = parseExpression(src);
      assert.ok(errors.length > 0, 'expected an error');
      assert.ok(errors.every((e) => e.code === 'NIKA-VAR-005'));
      assert.match(errors[0].message, msg);
      assert.equal(src.slice(errors[0].span.start, errors[0].span.end), at);
    });
  }

  it('reports the span of the second relation in a chain', () => {
    const src = 'a <= b > c';
    assert.deepEqual(errorTexts(src), ['>']);
    assert.equal(parseExpression(src).errors[0].span.start, 7);
  });

  it('keeps a best-effort tree on error', () => {
    const r = parseExpression('tasks.fetch.output.');
    assert.ok(r.ast && r.ast.kind === 'member');
    if (r.ast?.kind !== 'member') return;
    assert.equal(r.ast.property, '');
    assert.equal(sx(r.ast.object), 'tasks.fetch.output');
    const arith = parseExpression('inputs.a + 1');
    assert.equal(sx(arith.ast!), 'inputs.a');
    const chained = parseExpression('a < b < c');
    assert.equal(sx(chained.ast!), '(< a b)');
  });

  it('never throws on garbage', () => {
    for (const src of [')', ']]', '((((', '? :', ',,', '.', '[', '!', 'a ?', 'a ? b', 'f(', "'", '"', '}}', '\u{1F600}']) {
      const r = parseExpression(src);
      assert.ok(r.errors.length > 0, src);
    }
  });

  it('bounds nesting and length instead of overflowing the stack', () => {
    assert.match(parseExpression('('.repeat(1500) + 'a' + ')'.repeat(1500)).errors[0].message, /too long/);
    assert.match(parseExpression('('.repeat(500) + 'a' + ')'.repeat(500)).errors[0].message, /nested too deeply/);
    assert.match(parseExpression('!'.repeat(5000) + 'a').errors[0].message, /too long/);
    assert.deepEqual(parseExpression('('.repeat(150) + 'a' + ')'.repeat(150)).errors, []);
  });
});

describe('collectReferences', () => {
  const refs = (src: string) => collectReferences(ast(src)).map((r) => [r.root, ...r.segments.map((s) => s.name)].join('/'));

  it('follows dotted and string-index chains', () => {
    assert.deepEqual(refs("tasks.fetch.output['k-dash'].x"), ['tasks/fetch/output/k-dash/x']);
  });

  it('includes bare identifiers and has() arguments', () => {
    assert.deepEqual(refs('item == index'), ['item', 'index']);
    assert.deepEqual(refs('has(inputs.opt) ? tasks : with.a'), ['inputs/opt', 'tasks', 'with/a']);
  });

  it('stops at a numeric or computed index and collects the index expression', () => {
    assert.deepEqual(refs('tasks.a.output.items[0].name'), ['tasks/a/output/items']);
    assert.deepEqual(refs('inputs.m[with.key].x'), ['inputs/m', 'with/key']);
  });

  it('collects method receivers and call arguments, not literal-rooted chains', () => {
    assert.deepEqual(refs("with.s.contains(inputs.q) && 'x'.size() > 0"), ['with/s', 'inputs/q']);
    assert.deepEqual(refs('[inputs.a, const.b][0]'), ['inputs/a', 'const/b']);
  });

  it('survives half-typed expressions whose missing operands are placeholders', () => {
    const loose = (src: string) => collectReferences(parseExpression(src).ast!).map((r) => [r.root, ...r.segments.map((s) => s.name)].join('/'));
    assert.deepEqual(loose('inputs.a == '), ['inputs/a']);
    assert.deepEqual(loose('tasks.'), ['tasks']);
  });

  it('gives spans of the root, each segment and the whole chain', () => {
    const src = "  tasks.fetch['k'].y";
    const [r] = collectReferences(parseExpression(src, 50).ast!);
    const at = (s: { start: number; end: number }) => src.slice(s.start - 50, s.end - 50);
    assert.equal(at(r.rootSpan), 'tasks');
    assert.deepEqual(r.segments.map((s) => at(s.span)), ['fetch', "'k'", 'y']);
    assert.equal(at(r.span), "tasks.fetch['k'].y");
  });
});

describe('evaluate', () => {
  const scope: EvalScope = {
    inputs: { name: 'Ada', n: 3, flag: true, list: ['a', 'b'], obj: { 'k-dash': 1, nested: { x: null } } },
    const: { limit: 2.5 },
    with: { s: 'hello world' },
    tasks: {
      fetch: { status: 'success', output: { items: [{ id: 1 }, { id: 2 }] }, error: null, duration_ms: 12, title: 'T' },
      skipped: { status: 'skipped', output: null, error: null },
    },
  };
  const ev = (src: string, s: EvalScope = scope) => evaluateSource(src, s);

  it('resolves references through members and indexes', () => {
    assert.equal(ev('inputs.name'), 'Ada');
    assert.equal(ev("inputs.obj['k-dash']"), 1);
    assert.equal(ev('tasks.fetch.output.items[1].id'), 2);
    assert.equal(ev('tasks.fetch.title'), 'T', 'extract bindings are record fields');
    assert.equal(ev('tasks.skipped.started_at'), null, 'missing projections read null');
    assert.deepEqual(ev('[inputs.n, const.limit]'), [3, 2.5]);
  });

  it('reports unresolved references with NIKA-VAR-001 naming the path', () => {
    throwsCode(() => ev('inputs.missing'), 'NIKA-VAR-001', 'inputs.missing');
    throwsCode(() => ev('tasks.nope.output'), 'NIKA-VAR-001', "task 'nope'");
    throwsCode(() => ev('tasks.skipped.output.x'), 'NIKA-VAR-001', 'tasks.skipped.output is null');
    throwsCode(() => ev('tasks.fetch.output.items[5]'), 'NIKA-VAR-001', 'out of range');
    throwsCode(() => ev('foo.bar'), 'NIKA-VAR-001', "unknown root 'foo'");
    throwsCode(() => ev('vars.x'), 'NIKA-VAR-001', 'v1-draft');
    throwsCode(() => ev('item'), 'NIKA-VAR-001', 'for_each');
  });

  it('reads item/index in a loop and vars/env when present', () => {
    assert.equal(ev('item.k == index', { item: { k: 2 }, index: 2 }), true);
    assert.equal(ev('item', { inLoop: true }), null);
    assert.equal(ev('vars.x', { vars: { x: 1 } }), 1);
    assert.equal(ev('env.HOME', { env: { HOME: '/h' } }), '/h');
  });

  it('rejects bad indexes', () => {
    throwsCode(() => ev('inputs.list[-1]'), 'NIKA-VAR-006', 'negative');
    throwsCode(() => ev('inputs.list[0.5]'), 'NIKA-VAR-006', 'integer');
    throwsCode(() => ev("inputs.list['0']"), 'NIKA-VAR-006');
    throwsCode(() => ev('inputs.obj[0]'), 'NIKA-VAR-006');
    throwsCode(() => ev('inputs.name[0]'), 'NIKA-VAR-006');
    throwsCode(() => ev('inputs.name.length'), 'NIKA-VAR-006');
  });

  it('is strongly typed: cross-type comparison is NIKA-VAR-006', () => {
    throwsCode(() => ev('42 == "42"'), 'NIKA-VAR-006');
    throwsCode(() => ev('inputs.n < "4"'), 'NIKA-VAR-006');
    throwsCode(() => ev('true == 1'), 'NIKA-VAR-006');
    throwsCode(() => ev('null < 1'), 'NIKA-VAR-006');
    assert.equal(ev('1 == 1.0'), true);
    assert.equal(ev('inputs.n > const.limit'), true);
    assert.equal(ev("'abc' < 'abd'"), true);
    assert.equal(ev("inputs.list == ['a', 'b']"), true);
    assert.equal(ev("inputs.obj.nested == inputs.obj.nested"), true);
  });

  it('compares null with anything', () => {
    assert.equal(ev('null == 1'), false);
    assert.equal(ev('"x" != null'), true);
    assert.equal(ev('tasks.skipped.output == null'), true);
    assert.equal(ev('inputs.obj.nested.x == null'), true);
  });

  it('has() is true only for defined non-null values and never raises', () => {
    assert.equal(ev('has(inputs.name)'), true);
    assert.equal(ev('has(inputs.missing)'), false);
    assert.equal(ev('has(inputs.obj.nested.x)'), false);
    assert.equal(ev('has(tasks.nope.output.deep)'), false);
    assert.equal(ev('has(item)'), false);
    assert.equal(ev('has(inputs.missing) && inputs.missing == 1'), false, '&& short-circuits');
  });

  it('size() of strings (code points), lists and maps', () => {
    assert.equal(ev("size('héllo')"), 5);
    assert.equal(ev("'a\u{1F600}'.size()"), 2);
    assert.equal(ev('size(inputs.list)'), 2);
    assert.equal(ev('inputs.obj.size()'), 2);
    assert.equal(evaluateSource('size(with.b)', { with: { b: new Uint8Array(4) } }), 4);
    throwsCode(() => ev('size(inputs.n)'), 'NIKA-VAR-006');
  });

  it('string methods need strings', () => {
    assert.equal(ev("with.s.contains('lo w')"), true);
    assert.equal(ev("with.s.startsWith('hell')"), true);
    assert.equal(ev("with.s.endsWith('hell')"), false);
    throwsCode(() => ev("inputs.list.contains('a')"), 'NIKA-VAR-006', "'x in list'");
    throwsCode(() => ev('with.s.contains(1)'), 'NIKA-VAR-006');
  });

  it('in: list membership and map keys only', () => {
    assert.equal(ev("'b' in inputs.list"), true);
    assert.equal(ev("'z' in inputs.list"), false);
    assert.equal(ev("1 in ['1', 1]"), true, 'other-typed elements are no match, not an error');
    assert.equal(ev("'k-dash' in inputs.obj"), true);
    assert.equal(ev("'nope' in inputs.obj"), false);
    throwsCode(() => ev("'ell' in with.s"), 'NIKA-VAR-006', 'contains');
    throwsCode(() => ev('1 in inputs.obj'), 'NIKA-VAR-006');
  });

  it('logic needs bools and short-circuits', () => {
    assert.equal(ev('inputs.flag && inputs.n == 3'), true);
    throwsCode(() => ev('!inputs.flag || inputs.missing'), 'NIKA-VAR-001', 'inputs.missing');
    assert.equal(ev('inputs.flag || inputs.missing'), true);
    assert.equal(ev('!inputs.flag && inputs.missing'), false);
    throwsCode(() => ev('inputs.n && true'), 'NIKA-VAR-006', "'&&'");
    throwsCode(() => ev("true && 'x'"), 'NIKA-VAR-006', "right operand of '&&'");
  });

  it('ternary needs a bool condition', () => {
    assert.equal(ev("inputs.n > 2 ? 'big' : 'small'"), 'big');
    assert.equal(ev("false ? 1 : true ? 2 : 3"), 2);
    throwsCode(() => ev("inputs.name ? 1 : 2"), 'NIKA-VAR-006', 'ternary');
    throwsCode(() => ev('!inputs.n'), 'NIKA-VAR-006');
  });

  it('evaluateSource turns syntax errors into NIKA-VAR-005', () => {
    throwsCode(() => ev('inputs.n + 1'), 'NIKA-VAR-005', 'arithmetic');
    throwsCode(() => ev('x.lower()'), 'NIKA-VAR-005');
  });

  it('evaluate refuses an error tree instead of guessing', () => {
    const { ast: partial } = parseExpression('-inputs.n');
    throwsCode(() => evaluate(partial!, scope), 'NIKA-VAR-005');
  });
});

describe('renderTemplate', () => {
  const scope: EvalScope = {
    inputs: { n: 3, f: 1.5, ok: true, none: null, obj: { b: 1, a: { d: [1, { z: 0, y: 'q' }], c: 'x' } }, list: [2, 'x'], s: 'str' },
    with: { blob: new Uint8Array([1, 2]) },
  };

  it('returns the raw value for a whole-value island', () => {
    assert.equal(renderTemplate('${{ inputs.n }}', scope), 3);
    assert.equal(renderTemplate('${{inputs.ok}}', scope), true);
    assert.equal(renderTemplate('${{ inputs.none }}', scope), null);
    assert.equal(renderTemplate('${{ inputs.obj }}', scope), (scope.inputs as Record<string, unknown>).obj);
    assert.ok(renderTemplate('${{ with.blob }}', scope) instanceof Uint8Array);
  });

  it('interpolates into text otherwise', () => {
    assert.equal(renderTemplate('n=${{ inputs.n }} f=${{ inputs.f }} ok=${{ inputs.ok }} none=${{ inputs.none }}', scope), 'n=3 f=1.5 ok=true none=null');
    assert.equal(renderTemplate(' ${{ inputs.n }}', scope), ' 3', 'surrounding text makes it a string');
    assert.equal(renderTemplate('${{ inputs.s }}${{ inputs.s }}', scope), 'strstr');
    assert.equal(renderTemplate('plain', scope), 'plain');
  });

  it('renders objects and lists as compact JSON with sorted keys', () => {
    assert.equal(renderTemplate('o=${{ inputs.obj }}', scope), 'o={"a":{"c":"x","d":[1,{"y":"q","z":0}]},"b":1}');
    assert.equal(renderTemplate('l=${{ inputs.list }}', scope), 'l=[2,"x"]');
  });

  it('refuses bytes inside a string (NIKA-VAR-007)', () => {
    throwsCode(() => renderTemplate('b=${{ with.blob }}', scope), 'NIKA-VAR-007');
  });

  it('applies the escape rule', () => {
    assert.equal(renderTemplate('\\${{ inputs.n }}', scope), '${{ inputs.n }}');
    assert.equal(renderTemplate('\\\\${{ inputs.n }}', scope), '\\3');
    assert.equal(renderTemplate('\\\\\\${{ inputs.n }}', scope), '\\${{ inputs.n }}');
    assert.equal(renderTemplate('a\\b ${{ inputs.n }}', scope), 'a\\b 3');
  });

  it('reports an unclosed island (NIKA-VAR-008) and bad syntax (NIKA-VAR-005)', () => {
    throwsCode(() => renderTemplate('x ${{ inputs.n', scope), 'NIKA-VAR-008');
    throwsCode(() => renderTemplate('${{ inputs.n', scope), 'NIKA-VAR-008');
    throwsCode(() => renderTemplate('${{ inputs.n + 1 }}', scope), 'NIKA-VAR-005');
    throwsCode(() => renderTemplate('${{ }}', scope), 'NIKA-VAR-005', 'empty');
  });

  it('handles }} inside string literals', () => {
    assert.equal(renderTemplate("${{ 'a}}b' }}!", scope), 'a}}b!');
  });
});

describe('interpolateDeep', () => {
  it('renders string leaves and leaves keys alone', () => {
    const scope: EvalScope = { inputs: { n: 2, tags: ['x'] } };
    const out = interpolateDeep({ '${{ inputs.n }}': ['${{ inputs.n }}', 'n=${{ inputs.n }}', 7, null, { t: '${{ inputs.tags }}' }] }, scope);
    assert.deepEqual(out, { '${{ inputs.n }}': [2, 'n=2', 7, null, { t: ['x'] }] });
  });

  it('does not mutate its input', () => {
    const value = { a: '${{ inputs.n }}' };
    interpolateDeep(value, { inputs: { n: 1 } });
    assert.deepEqual(value, { a: '${{ inputs.n }}' });
  });
});

describe('helpers', () => {
  it('staticType tells boolean forms from bare values', () => {
    const t = (src: string) => staticType(ast(src));
    assert.equal(t('inputs.flag == true'), 'bool');
    assert.equal(t('!inputs.flag'), 'bool');
    assert.equal(t("has(inputs.x) && with.s.contains('a')"), 'bool');
    assert.equal(t("a ? true : b == 1"), 'bool');
    assert.equal(t('inputs.flag'), 'unknown');
    assert.equal(t("'prod'"), 'string');
    assert.equal(t('size(x)'), 'number');
    assert.equal(t("a ? 1 : 'x'"), 'unknown');
  });

  it('islandAt finds the island under a cursor', () => {
    const s = 'a ${{ inputs. }} b ${{ tasks';
    assert.equal(islandAt(s, s.indexOf('inputs.') + 7)?.source, ' inputs. ');
    assert.equal(islandAt(s, 0), undefined);
    assert.equal(islandAt(s, s.length)?.source, ' tasks');
    assert.equal(islandAt(s, s.indexOf('}}') + 1), undefined);
  });
});
