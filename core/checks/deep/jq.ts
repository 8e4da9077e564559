// jq programs written literally in a workflow (reference §4.7): `extract:` bindings, `nika:jq`
// `expression` and `nika:fetch` `jq:`. What real jq would refuse to compile, and `env`/`$ENV`,
// are NIKA-VAR-005 errors; constructs `jq-subset/0.1` refuses by design but the engine still runs
// are NIKA-VAR-005 warnings (the spec says only env/$ENV are enforced today). Two lints ride on
// the same parse: `one-obvious-way/009` (a binding ending in an iteration emits several values)
// and `one-obvious-way/013` (a nika:jq task that only reshapes one producer's output).
import { isMap, isScalar } from 'yaml';
import type { Scalar } from 'yaml';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, keyName, scalarValueOffset, spanOf, type NikaDocument } from '../../document.js';
import { findIslands, parseExpression } from '../../expr/index.js';
import { checkJqProgram } from '../../jq/parse.js';
import type { Task } from '../../ir.js';
import type { Span } from '../../text.js';
import { semanticModel } from '../semantic/model.js';
import type { Check } from '../index.js';
import { deepFacts } from './facts.js';

export const jqCheck: Check = (ctx) => {
  if (ctx.dialect.dialect === 'legacy') return [];
  const out: NikaDiagnostic[] = [];
  const model = semanticModel(ctx);
  const kept = deepFacts(ctx);
  const list = ctx.workflow.tasks;
  for (let i = 0; i < list.length; i++) {
    const facts = kept ? kept[i].jq : jqFacts(ctx.doc, model.taskNode(list[i]), list[i]);
    for (const d of facts.found) out.push(d);
    // The reshape lint is the one finding that looks at another task (the producer).
    const r = facts.reshape;
    const producer = r && model.tasks.get(r.producer);
    if (r && producer && !producer.forEach) out.push(reshapeLint(producer.id, { start: r.span.start, end: r.span.end }));
  }
  return out;
};

export interface JqFacts {
  /** The task's findings other than the reshape lint, in order. */
  found: NikaDiagnostic[];
  /** A reshape-lint candidate: the producer it reads and the span of its `tool:`. */
  reshape?: { producer: string; span: Span };
}

export function jqFacts(doc: NikaDocument, node: unknown, task: Task): JqFacts {
  const found: NikaDiagnostic[] = [];
  let reshape: JqFacts['reshape'];
  const extract = getNode(node, 'extract');
  if (isMap(extract)) {
    for (const p of extract.items) {
      if (!isLiteralProgram(p.value)) continue;
      judge(doc, p.value, `extract binding "${keyName(p) ?? ''}"`, found, true);
    }
  }
  const invoke = getNode(node, 'invoke');
  const tool = getNode(invoke, 'tool');
  const args = getNode(invoke, 'args');
  if (!isScalar(tool) || !isMap(args)) return { found };
  if (tool.value === 'nika:jq') {
    const expr = getNode(args, 'expression');
    if (isLiteralProgram(expr)) {
      judge(doc, expr, 'nika:jq expression', found, false);
      reshape = reshapeCandidate(task, args, tool);
    }
  }
  if (tool.value === 'nika:fetch') {
    const jq = getNode(args, 'jq');
    if (isLiteralProgram(jq)) judge(doc, jq, 'nika:fetch jq', found, false);
  }
  return reshape ? { found, reshape } : { found };
}

function isLiteralProgram(node: unknown): node is Scalar<string> {
  // A program holding ${{ }} is reported by the expression checks (extract) or built at run time.
  return isScalar(node) && typeof node.value === 'string' && !node.value.includes('${{');
}

/** Document span of program offsets [a, b), or the whole scalar when offsets are approximate. */
function programSpan(doc: NikaDocument, s: Scalar<string>, a: number, b: number): Span {
  const whole = spanOf(s)!;
  const v = s.value;
  const start = Math.max(0, Math.min(a, v.length));
  const end = Math.max(start, Math.min(b, v.length));
  if (v.length === 0 || start === end) {
    if (start === v.length && v.length > 0) {
      const at = scalarValueOffset(doc, s, v.length - 1) + 1;
      return doc.text.slice(at - 1, at) === v[v.length - 1] ? { start: at - 1, end: at } : whole;
    }
    return whole;
  }
  const ds = scalarValueOffset(doc, s, start);
  const de = scalarValueOffset(doc, s, end - 1) + 1;
  return doc.text.slice(ds, de) === v.slice(start, end) ? { start: ds, end: de } : whole;
}

function judge(doc: NikaDocument, s: Scalar<string>, what: string, out: NikaDiagnostic[], binding: boolean): void {
  const info = checkJqProgram(s.value);
  for (const p of info.problems) {
    const span = programSpan(doc, s, p.start, p.end);
    const msg = p.severity === 'error' ? `${what}: ${p.message}.` : `${what}: ${p.message}.`;
    out.push(diag('NIKA-VAR-005', msg, span, p.severity));
  }
  if (binding && info.trailingIterate && !info.problems.some((p) => p.severity === 'error')) {
    const span = programSpan(doc, s, info.trailingIterate.start, info.trailingIterate.end);
    const whole = spanOf(s)!;
    out.push(diag('one-obvious-way/009', `${what} ends in an iteration, so it emits one value per element, but a binding must emit exactly one value (NIKA-VAR-002 at run time). Collect them: [ ${s.value.trim()} ].`, span, 'warning',
      { fixes: [{ title: 'Collect into an array: [ … ]', edits: [{ span: whole, newText: JSON.stringify(`[${s.value.trim()}]`) }], preferred: true }] }));
  }
}

/**
 * one-obvious-way/013: a nika:jq task whose input is exactly one producer's output (through a
 * with: binding) is a reshaping of that producer, which an `extract:` binding on it says
 * directly (one task fewer, the value typed by name). The producer must exist and not fan out;
 * that is judged against the other tasks on every run.
 */
function reshapeCandidate(task: Task, args: unknown, tool: Scalar): JqFacts['reshape'] {
  if (task.forEach) return undefined;
  const input = getPair(args, 'input')?.value;
  if (!isScalar(input) || typeof input.value !== 'string') return undefined;
  const ref = wholeReference(input.value);
  if (!ref || ref[0] !== 'with' || ref.length !== 2) return undefined;
  const bound = task.with[ref[1]];
  if (typeof bound !== 'string') return undefined;
  const src = wholeReference(bound);
  if (!src || src[0] !== 'tasks' || src.length !== 3 || src[2] !== 'output') return undefined;
  const span = spanOf(tool);
  if (!span) return undefined;
  return { producer: src[1], span };
}

function reshapeLint(producer: string, span: Span): NikaDiagnostic {
  return diag('one-obvious-way/013', `This nika:jq task only reshapes the output of "${producer}"; write the program as an extract: binding on "${producer}" (extract: { name: "<program>" }) and read \${{ tasks.${producer}.name }}.`, span, 'warning');
}

/** The dotted path of a value that is exactly one `${{ a.b.c }}` reference, else undefined. */
function wholeReference(value: string): string[] | undefined {
  const islands = findIslands(value);
  if (islands.length !== 1 || value.trim() !== value.slice(islands[0].start, islands[0].end).trim()) return undefined;
  const { ast } = parseExpression(islands[0].source);
  const path: string[] = [];
  let n = ast;
  while (n && n.kind === 'member') { path.unshift(n.property); n = n.object; }
  if (!n || n.kind !== 'ident') return undefined;
  path.unshift(n.name);
  return path;
}
