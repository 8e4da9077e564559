// Per-builtin static rules of reference §5 beyond the generic argument contract (names, required
// arguments, enums, exactly-one-of, which core/checks/semantic/tools.ts already judges). Only
// literal values are judged; a value holding `${{` is left to run time. All NIKA-BUILTIN-001.
import { isMap, isScalar } from 'yaml';
import type { Pair, YAMLMap } from 'yaml';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, keyName, keySpan, spanOf } from '../../document.js';
import { parseDuration } from '../../duration.js';
import { semanticModel } from '../semantic/model.js';
import type { Check } from '../index.js';

const EVENT_TYPE = /^[a-z][a-z0-9_.-]*$/;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** What each nika:date op needs besides `op` (§5: "per op"). */
const DATE_NEEDS: Record<string, string[]> = { add: ['duration'], subtract: ['duration'], diff: ['start', 'end'], parse: ['input'], format: ['format'] };

export const builtinRulesCheck: Check = (ctx) => {
  if (ctx.dialect.dialect !== 'v1') return [];
  const out: NikaDiagnostic[] = [];
  const model = semanticModel(ctx);
  for (const task of ctx.workflow.tasks) {
    const invoke = getNode(model.taskNode(task), 'invoke');
    const tool = getNode(invoke, 'tool');
    const argsPair = getPair(invoke, 'args');
    if (!isScalar(tool) || typeof tool.value !== 'string' || !argsPair || !isMap(argsPair.value)) continue;
    const args = argsPair.value as YAMLMap<unknown, unknown>;
    const a = new Map<string, Pair<unknown, unknown>>();
    for (const p of args.items) { const k = keyName(p); if (k !== undefined && !a.has(k)) a.set(k, p); }
    const lit = (name: string): string | undefined => {
      const v = a.get(name)?.value;
      return isScalar(v) && v.value !== null && !String(v.value).includes('${{') ? String(v.value) : undefined;
    };
    const valueSpan = (name: string) => spanOf(a.get(name)!.value) ?? keySpan(a.get(name)!)!;
    const anchor = keySpan(argsPair)!;
    switch (tool.value) {
      case 'nika:emit': {
        const t = lit('event_type');
        if (t !== undefined && !EVENT_TYPE.test(t)) {
          out.push(diag('NIKA-BUILTIN-001', `nika:emit event_type "${t}" must match ^[a-z][a-z0-9_.-]*$ (lowercase, digits, _ . -).`, valueSpan('event_type')));
        }
        break;
      }
      case 'nika:wait': {
        for (const name of ['duration', 'timeout']) {
          const d = lit(name);
          if (d === undefined) continue;
          const r = parseDuration(d);
          if (!r.ok) out.push(diag('NIKA-BUILTIN-001', `nika:wait ${name}: ${r.reason}.`, valueSpan(name)));
        }
        if (a.has('timeout') && !a.has('until')) out.push(diag('NIKA-BUILTIN-001', 'nika:wait timeout only applies with until:.', keySpan(a.get('timeout')!)!));
        break;
      }
      case 'nika:date': {
        const op = lit('op');
        const missing = op ? (DATE_NEEDS[op] ?? []).filter((n) => !a.has(n)) : [];
        if (missing.length) out.push(diag('NIKA-BUILTIN-001', `nika:date op: ${op} needs ${missing.map((m) => `'${m}'`).join(' and ')}.`, valueSpan('op')));
        break;
      }
      case 'nika:fetch': {
        const method = (lit('method') ?? (a.has('method') ? undefined : 'GET'))?.toUpperCase();
        for (const name of ['form', 'multipart']) {
          if (a.has(name) && method !== undefined && !BODY_METHODS.has(method)) {
            out.push(diag('NIKA-BUILTIN-001', `nika:fetch ${name} needs method POST, PUT or PATCH (the method is ${method}).`, keySpan(a.get(name)!)!));
          }
        }
        if (a.has('traverse')) {
          const clash = ['mode', 'selector', 'jq', 'body', 'form', 'multipart'].filter((n) => a.has(n));
          if (method !== undefined && method !== 'GET') out.push(diag('NIKA-BUILTIN-001', 'nika:fetch traverse only works with GET.', keySpan(a.get('traverse')!)!));
          for (const c of clash) out.push(diag('NIKA-BUILTIN-001', `nika:fetch traverse cannot be combined with ${c}.`, keySpan(a.get(c)!)!));
          const tr = a.get('traverse')!.value;
          const max = getNode(tr, 'max_pages');
          if (isMap(tr) && !max) out.push(diag('NIKA-BUILTIN-001', 'nika:fetch traverse needs max_pages (1 to 25).', keySpan(a.get('traverse')!)!));
          if (isScalar(max) && typeof max.value === 'number' && (max.value < 1 || max.value > 25 || !Number.isInteger(max.value))) {
            out.push(diag('NIKA-BUILTIN-001', `nika:fetch traverse.max_pages is between 1 and 25, not ${max.value}.`, spanOf(max)!));
          }
        }
        break;
      }
      case 'nika:hash': {
        const op = lit('op') ?? 'hash';
        if (op === 'sign') {
          const key = a.get('key')?.value;
          // The key's shape (exactly one secrets reference) is judged by the audit checks.
          if (!key) out.push(diag('NIKA-BUILTIN-001', "nika:hash op: sign needs 'key' (a ${{ secrets.NAME }} reference).", anchor));
        }
        if (op === 'verify') {
          const missing = ['public_key', 'signature'].filter((n) => !a.has(n));
          if (missing.length) out.push(diag('NIKA-BUILTIN-001', `nika:hash op: verify needs ${missing.map((m) => `'${m}'`).join(' and ')}.`, anchor));
        }
        break;
      }
    }
  }
  return out;
};
