// Type positions of current v1 (reference §4.8, §1.3, §1.4, §1.8, §2): `inputs.*.type`, typed
// `const`, `outputs.*.type` and task `returns:` — the closed grammar (NIKA-TYPE-001), the regex
// dialect (NIKA-TYPE-006), defaults and typed constants that must fit (NIKA-DEFAULT-001),
// `returns:` next to a verb `schema:` (NIKA-TYPE-003) and `returns:` that an exec's capture/decode
// can never produce (NIKA-TYPE-004). Older dialects had their own type words and are judged by
// their own schemas.
import { isMap, isScalar, isSeq } from 'yaml';
import type { Pair } from 'yaml';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, keyName, keySpan, plain, scalarValueOffset, spanOf, type NikaDocument } from '../../document.js';
import type { Span } from '../../text.js';
import { conform, parseType, showType, type TypeNode, type TypePath } from '../../types/index.js';
import type { Check } from '../index.js';

export const typesCheck: Check = (ctx) => {
  if (ctx.dialect.dialect !== 'v1' || !ctx.doc.root) return [];
  const doc = ctx.doc;
  const out: NikaDiagnostic[] = [];
  const root = ctx.doc.root;

  for (const [name, entry] of entries(getNode(root, 'inputs'))) {
    const typePair = getPair(entry, 'type');
    if (!typePair) continue;
    const type = judgeType(doc, typePair.value, out);
    const def = getPair(entry, 'default');
    if (def && type) fitsOrReport(doc, type, def.value, `The default of input "${name}"`, out);
  }

  for (const [name, entry] of entries(getNode(root, 'const'))) {
    if (!isMap(entry)) continue;
    const typePair = getPair(entry, 'type');
    const valuePair = getPair(entry, 'value');
    const defaultPair = getPair(entry, 'default');
    // §1.4: only an object with both `type` and `value` is a typed constant.
    if (typePair && valuePair) {
      const type = judgeType(doc, typePair.value, out);
      if (type) fitsOrReport(doc, type, valuePair.value, `The value of constant "${name}"`, out);
    } else if (typePair && defaultPair && !valuePair && entry.items.length <= 3) {
      const span = keySpan(defaultPair)!;
      out.push(diag('typed-const/value', `const "${name}" is a plain object here: a typed constant is written { type, value } (default: belongs to inputs). Rename default: to value:.`, span, 'hint',
        { fixes: [{ title: 'Rename default: to value:', edits: [{ span, newText: 'value' }], preferred: true }] }));
    }
  }

  for (const [, entry] of entries(getNode(root, 'outputs'))) {
    const typePair = getPair(entry, 'type');
    if (typePair) judgeType(doc, typePair.value, out);
  }

  const tasks = getNode(root, 'tasks');
  if (isMap(tasks)) {
    for (const p of tasks.items) {
      const task = p.value;
      const returns = getPair(task, 'returns');
      if (!returns) continue;
      const type = judgeType(doc, returns.value, out);
      for (const verb of ['infer', 'agent']) {
        const schema = getPair(getNode(task, verb), 'schema');
        if (schema) {
          out.push(diag('NIKA-TYPE-003', `returns: and ${verb}.schema: both declare this task's output; keep one (returns: is the preferred form).`, keySpan(schema)!));
        }
      }
      const exec = getNode(task, 'exec');
      if (type && isMap(exec)) {
        const produced = execProduces(exec);
        if (produced && !reachable(type, produced.kind)) {
          out.push(diag('NIKA-TYPE-004', `returns: ${showType(type)} can never hold what this exec produces: ${produced.why}.`, spanOf(returns.value) ?? keySpan(returns)!));
        }
      }
    }
  }
  return out;
};

function entries(map: unknown): Array<[string, unknown]> {
  if (!isMap(map)) return [];
  const out: Array<[string, unknown]> = [];
  for (const p of map.items) { const k = keyName(p); if (k !== undefined) out.push([k, p.value]); }
  return out;
}

/** Reports the type's own problems (those the schema does not already report); returns the parsed type. */
function judgeType(doc: NikaDocument, node: unknown, out: NikaDiagnostic[]): TypeNode | undefined {
  if (containsExpression(node)) return undefined;
  const parsed = parseType(plain(node));
  for (const p of parsed.problems) {
    const span = spanAt(doc, node, p.path, p.onKey, p.offset, p.length);
    const data = p.suggestion && !p.onKey ? { fixes: [{ title: `Change to ${p.suggestion}`, edits: [{ span, newText: p.suggestion }], preferred: true }] } : undefined;
    out.push(diag(p.code, p.message, span, 'error', data));
  }
  return parsed.type;
}

function fitsOrReport(doc: NikaDocument, type: TypeNode, valueNode: unknown, what: string, out: NikaDiagnostic[]): void {
  if (containsExpression(valueNode)) return;
  for (const m of conform(type, plain(valueNode), 3)) {
    out.push(diag('NIKA-DEFAULT-001', `${what} does not fit its type: ${m.message}.`, spanAt(doc, valueNode, m.path, false)));
  }
}

function containsExpression(node: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (isScalar(node)) return typeof node.value === 'string' && node.value.includes('${{');
  if (isMap(node)) return node.items.some((p) => containsExpression(p.value, depth + 1));
  if (isSeq(node)) return node.items.some((i) => containsExpression(i, depth + 1));
  return false;
}

/** The span of the node at `path` under `node` (or of its key), falling back to the deepest node found. */
function spanAt(doc: NikaDocument, node: unknown, path: TypePath, onKey?: boolean, offset?: number, length?: number): Span {
  let cur = node;
  let lastPair: Pair<unknown, unknown> | undefined;
  let fallback = spanOf(node) ?? { start: 0, end: 0 };
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    let next: unknown;
    if (typeof seg === 'number' && isSeq(cur)) next = cur.items[seg];
    else if (typeof seg === 'string' && isMap(cur)) { lastPair = getPair(cur, seg); next = lastPair?.value; }
    if (next === undefined && !(lastPair && i === path.length - 1 && onKey)) return fallback;
    if (i === path.length - 1 && onKey && lastPair && typeof seg === 'string') return keySpan(lastPair) ?? fallback;
    cur = next;
    fallback = spanOf(cur) ?? fallback;
  }
  if (offset !== undefined && isScalar(cur) && typeof cur.value === 'string') {
    const len = Math.max(1, Math.min(length ?? 1, cur.value.length - offset));
    const start = scalarValueOffset(doc, cur, offset);
    const end = scalarValueOffset(doc, cur, offset + len - 1) + 1;
    // Escapes in a quoted scalar make offsets approximate: then the whole scalar is the span.
    return end > start && doc.text.slice(start, end) === cur.value.slice(offset, offset + len) ? { start, end } : fallback;
  }
  return fallback;
}

// ---- returns reachability (NIKA-TYPE-004) -------------------------------------------------------

type Produced = 'string' | 'bytes' | 'any' | 'list' | 'structured';

function execProduces(exec: unknown): { kind: Produced; why: string } | undefined {
  const capture = scalarText(getNode(exec, 'capture')) ?? 'stdout';
  const decode = scalarText(getNode(exec, 'decode')) ?? 'text';
  if (capture === 'structured') return { kind: 'structured', why: 'capture: structured gives { stdout, stderr, exit_code }' };
  if (capture.includes('${{') || decode.includes('${{')) return undefined;
  switch (decode) {
    case 'text': return { kind: 'string', why: `decode: text (the default) gives the ${capture} text` };
    case 'bytes': return { kind: 'bytes', why: 'decode: bytes gives raw bytes' };
    case 'jsonl': return { kind: 'list', why: 'decode: jsonl gives a list (one element per line)' };
    case 'json': return { kind: 'any', why: 'decode: json' };
  }
  return undefined;
}

function scalarText(node: unknown): string | undefined {
  return isScalar(node) && node.value != null ? String(node.value) : undefined;
}

/** Could some value of the produced kind be of type `t`? */
function reachable(t: TypeNode, kind: Produced): boolean {
  if (kind === 'any' || t.kind === 'any') return true;
  switch (t.kind) {
    case 'union': return t.of.some((m) => reachable(m, kind));
    case 'prim':
      if (kind === 'string') return ['string', 'uri', 'path', 'duration', 'timestamp'].includes(t.name);
      if (kind === 'bytes') return t.name === 'bytes';
      return false;
    case 'enum': case 'string': return kind === 'string';
    case 'array': return kind === 'list';
    case 'map': return kind === 'structured';
    case 'object': {
      if (kind !== 'structured') return false;
      const known = new Set(['stdout', 'stderr', 'exit_code']);
      return t.fields.every((f) => known.has(f.name) || f.optional);
    }
    default: return false;
  }
}
