// Task-policy rules of current v1 the schema cannot express:
// - NIKA-PARSE-028 (§1.7): `run: { entropy: none }` with a source of randomness left in the
//   file: a retry whose jitter is on (it is on by default) or a `nika:uuid` call / grant.
//   (026/027, the entropy × clock pairs, are schema rules: the structure checks report them.)
// - `on_codes` (§2, §8.1): entries are error codes (`NIKA-EXEC-001`) or code patterns (the engine
//   matches them as anchored regexes); a literal that is not code-shaped can never match
//   (NIKA-PARSE-011 under retry, NIKA-PARSE-012 under on_error).
// - `for_each.items` (§2.4): a string that is not one whole `${{ }}` is text, never a list, so
//   the fan-out is certain to fail at run time (NIKA-VAR-006, "statically evident").
import { isMap, isScalar, isSeq } from 'yaml';
import type { YAMLMap } from 'yaml';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, keySpan, spanOf } from '../../document.js';
import { findIslands } from '../../expr/index.js';
import type { CheckContext } from '../context.js';
import { appendToMap } from '../semantic/edits.js';
import { semanticModel } from '../semantic/model.js';
import type { Check } from '../index.js';
import { deepFacts } from './facts.js';

export const CODE_PATTERN = /^NIKA-[A-Z]{2,9}(-[A-Z][A-Z0-9_]{1,15})?-[0-9]{3}$/;

export const runRulesCheck: Check = (ctx) => {
  if (ctx.dialect.dialect !== 'v1') return [];
  const out: NikaDiagnostic[] = [];
  const doc = ctx.doc;
  const model = semanticModel(ctx);
  const entropy = getNode(getNode(doc.root, 'run'), 'entropy');
  const noEntropy = isScalar(entropy) && entropy.value === 'none';

  // Not task-local: a jitter fix appended to a block map takes the file's line-ending style
  // (eolOf reads the whole text). Kept per task in facts.ts, with that style as the key.
  const facts = deepFacts(ctx);
  const list = ctx.workflow.tasks;
  for (let i = 0; i < list.length; i++) {
    for (const d of facts ? facts[i].runRules : runRulesFacts(ctx, model.taskNode(list[i]), noEntropy)) out.push(d);
  }
  return out;
};

/** One task's findings: its own YAML and the envelope's run.entropy. */
export function runRulesFacts(ctx: CheckContext, node: unknown, noEntropy: boolean): NikaDiagnostic[] {
  const out: NikaDiagnostic[] = [];
  const doc = ctx.doc;
  const retry = getPair(node, 'retry');
  if (retry && isMap(retry.value)) {
    codes(retry.value, 'NIKA-PARSE-011', 'retry', out);
    if (noEntropy) {
      const jitter = getPair(retry.value, 'jitter');
      const on = !jitter || !isScalar(jitter.value) || jitter.value.value !== false;
      if (on) {
        const span = jitter ? spanOf(jitter.value)! : keySpan(retry)!;
        const edit = jitter ? { span, newText: 'false' } : appendToMap(doc, retry.value as YAMLMap<unknown, unknown>, [['jitter', 'false']]);
        out.push(diag('NIKA-PARSE-028', `run: { entropy: none } promises no randomness, but this retry's jitter is ${jitter ? 'on' : 'on by default'}; set jitter: false.`, span, 'error',
          edit ? { fixes: [{ title: 'Set jitter: false', edits: [edit], preferred: true }] } : undefined));
      }
    }
  }
  const onError = getNode(node, 'on_error');
  if (isMap(onError)) codes(onError, 'NIKA-PARSE-012', 'on_error', out);

  const invoke = getNode(node, 'invoke');
  const tool = getNode(invoke, 'tool');
  if (noEntropy && isScalar(tool) && tool.value === 'nika:uuid') {
    out.push(diag('NIKA-PARSE-028', 'run: { entropy: none } promises no randomness, but nika:uuid generates random ids; derive ids from the data (nika:hash) or declare entropy: { seeded: N }.', spanOf(tool)!));
  }
  const tools = getNode(getNode(node, 'agent'), 'tools');
  if (noEntropy && isSeq(tools)) {
    for (const t of tools.items) {
      if (isScalar(t) && t.value === 'nika:uuid') out.push(diag('NIKA-PARSE-028', 'run: { entropy: none } promises no randomness, but this agent may call nika:uuid.', spanOf(t)!));
    }
  }

  const items = getNode(getNode(node, 'for_each'), 'items');
  if (isScalar(items) && typeof items.value === 'string') {
    const islands = findIslands(items.value);
    const whole = islands.length === 1 && items.value.trim() === items.value.slice(islands[0].start, islands[0].end).trim();
    if (!whole) {
      out.push(diag('NIKA-VAR-006', islands.length === 0
        ? 'for_each.items is plain text, not a list: write a YAML list ([a, b]) or one ${{ }} expression that yields a list.'
        : 'for_each.items mixes text with ${{ }}, which makes a string, never a list: make the value exactly one ${{ }} expression.', spanOf(items)!));
    }
  }
  return out;
}

function codes(policy: YAMLMap<unknown, unknown>, code: string, where: string, out: NikaDiagnostic[]): void {
  const list = getNode(policy, 'on_codes');
  if (!isSeq(list)) return;
  for (const item of list.items) {
    if (!isScalar(item) || typeof item.value !== 'string') continue;
    const v = item.value;
    const span = spanOf(item)!;
    if (/^[A-Za-z0-9_-]+$/.test(v)) {
      if (CODE_PATTERN.test(v)) continue;
      const upper = v.toUpperCase();
      const fix = CODE_PATTERN.test(upper) ? { fixes: [{ title: `Change to ${upper}`, edits: [{ span, newText: upper }], preferred: true }] } : undefined;
      out.push(diag(code, `${where}.on_codes: "${v}" is not an error code (NIKA-<FAMILY>-NNN, e.g. NIKA-EXEC-001 or NIKA-BUILTIN-FETCH-001), so it never matches.`, span, 'error', fix));
      continue;
    }
    // A pattern (the engine anchors it): it must at least compile.
    try {
      new RegExp(`^(?:${v})$`);
    } catch {
      out.push(diag(code, `${where}.on_codes: "${v}" is neither an error code nor a valid code pattern.`, span));
    }
  }
}
