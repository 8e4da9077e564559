// Schema findings → Nika diagnostics: which code (reference §1–§3, §8), which words, which
// span, and the quick fix when one is mechanical.
import { isScalar } from 'yaml';
import { diag, type NikaDiagnostic, type DiagnosticData } from '../diagnostic.js';
import { plain, type NikaDocument } from '../document.js';
import { parseDuration } from '../duration.js';
import type { Dialect } from '../ir.js';
import type { Span } from '../text.js';
import { explain, type Finding, type ValuePath } from './explain.js';
import { keySpanAt, locatePath, ownerSpan, valueSpan } from './locate.js';
import { oldSpelling, type Scope } from './old-spellings.js';
import { validate } from './registry.js';
import { suggest } from './suggest.js';

const VERB_KEYS = new Set(['infer', 'exec', 'invoke', 'agent', 'fetch']);
/** Draft-era `after:` participles and the predicate that replaced each. */
export const OLD_PREDICATES: Record<string, string> = { succeeded: 'success', failed: 'failure', completed: 'terminal', finished: 'terminal', done: 'terminal', skip: 'skipped' };

/** Validates the document against its dialect's schema and explains every error. */
export function schemaDiagnostics(doc: NikaDocument, dialect: Dialect): NikaDiagnostic[] {
  if (!doc.yaml || doc.tooLarge) return [];
  const contents = doc.yaml.contents;
  // An empty document or a bare scalar is judged like an empty mapping: "missing nika:/tasks:".
  const value = contents == null || (isScalar(contents) && contents.value == null) ? {} : plain(contents);
  const findings = explain(dialect, validate(dialect, value), value);
  const out: NikaDiagnostic[] = [];
  const seen = new Set<string>();
  for (const f of findings) {
    // Current-v1 type expressions are judged by core/types (closed grammar, did-you-mean fixes);
    // the schema's view of the same token would be a second, vaguer finding.
    if (dialect === 'v1' && inTypeExpression(f.path)) continue;
    for (const d of toDiagnostics(doc, dialect, f, value)) {
      const key = `${d.code}|${d.span.start}|${d.span.end}|${d.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(d);
    }
  }
  return out.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}

// ---- where a path points ----------------------------------------------------------------------

function isTaskPath(path: ValuePath): boolean {
  return path[0] === 'tasks' && path.length >= 2;
}

/** The part of a task path after `tasks.<id>` (empty for the task itself). */
function inTask(path: ValuePath): ValuePath | undefined {
  return isTaskPath(path) ? path.slice(2) : undefined;
}

function taskLabel(path: ValuePath, value: unknown): string {
  const id = path[1];
  if (typeof id === 'number') {
    const t = (value as { tasks?: unknown[] }).tasks?.[id] as Record<string, unknown> | undefined;
    const name = t && typeof t === 'object' ? t.id ?? t.name : undefined;
    return typeof name === 'string' ? `task "${name}"` : `task #${id + 1}`;
  }
  return `task "${id}"`;
}

function scopeOf(path: ValuePath): Scope | undefined {
  if (path.length === 0) return 'root';
  const t = inTask(path);
  if (!t) return undefined;
  if (t.length === 0) return 'task';
  if (t.length === 1 && typeof t[0] === 'string' && (VERB_KEYS.has(t[0]) || t[0] === 'on_error')) return t[0] as Scope;
  return undefined;
}

function where(path: ValuePath, value: unknown): string {
  if (path.length === 0) return 'at the top level';
  if (path.length === 2 && path[0] === 'tasks') return `in ${taskLabel(path, value)}`;
  const t = inTask(path);
  if (t && t.length === 1 && VERB_KEYS.has(String(t[0]))) return `in ${t[0]} (${taskLabel(path, value)})`;
  if (path.length === 2) {
    const kind: Record<string, string> = { inputs: 'input', secrets: 'secret', const: 'constant', outputs: 'output', mcp: 'MCP server' };
    if (kind[String(path[0])]) return `in ${kind[String(path[0])]} "${path[1]}"`;
  }
  return `in ${fieldName(path)}`;
}

/** `command[0]`, `retry`, `for_each` … for messages. */
function fieldName(path: ValuePath): string {
  let i = path.length - 1;
  let suffix = '';
  while (i >= 0 && typeof path[i] === 'number') { suffix = `[${path[i]}]` + suffix; i--; }
  return i >= 0 ? `${path[i]}${suffix}` : suffix || 'document';
}

/** The path is a type expression or inside one (`inputs.x.type…`, `outputs.x.type…`, `const.x.type…` of a typed const, task `returns…`). */
function inTypeExpression(path: ValuePath): boolean {
  if ((path[0] === 'inputs' || path[0] === 'const' || path[0] === 'outputs') && path.length >= 3 && path[2] === 'type') return true;
  const t = inTask(path);
  return !!t && t.length >= 1 && t[0] === 'returns';
}

function isTypePosition(path: ValuePath): boolean {
  if ((path[0] === 'inputs' || path[0] === 'const' || path[0] === 'outputs') && path[2] === 'type') return true;
  const t = inTask(path);
  return !!t && t[0] === 'returns';
}

/** The code a finding gets from where it is, when no more specific rule applies. */
function contextCode(path: ValuePath): string | undefined {
  if (isTypePosition(path)) return 'NIKA-TYPE-001';
  const t = inTask(path);
  if (t?.[0] === 'retry') return 'NIKA-PARSE-011';
  if (t?.[0] === 'on_error') return 'NIKA-PARSE-012';
  if (t?.[0] === 'timeout') return 'NIKA-PARSE-010';
  return undefined;
}

// ---- fixes ------------------------------------------------------------------------------------

function fix(title: string, span: Span, newText: string, preferred = true): DiagnosticData {
  return { fixes: [{ title, edits: [{ span, newText }], preferred }] };
}

function kebab(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-').replace(/^[-0-9]+|-+$/g, '');
}

function quoteLike(doc: NikaDocument, span: Span, text: string): string {
  const src = doc.text.slice(span.start, span.end);
  if (src.startsWith('"')) return JSON.stringify(text);
  if (src.startsWith("'")) return `'${text.replace(/'/g, "''")}'`;
  return text;
}

// ---- one finding → diagnostics ----------------------------------------------------------------

function toDiagnostics(doc: NikaDocument, dialect: Dialect, f: Finding, value: unknown): NikaDiagnostic[] {
  const p = f.path;
  const t = inTask(p);
  switch (f.kind) {
    case 'unknown-key': {
      const span = keySpanAt(doc, p, f.key);
      const scope = scopeOf(p);
      const old = scope && dialect === 'v1' ? oldSpelling(scope, f.key) : undefined;
      let code = old?.code ?? 'NIKA-PARSE-005';
      if (p.length === 0 && dialect === 'v1' && f.key === 'tasks') code = 'NIKA-PARSE-005';
      const guess = suggest(f.key, f.candidates);
      let message = `Unknown key "${f.key}" ${where(p, value)}.`;
      let data: DiagnosticData | undefined;
      if (old) {
        message += ` In v1, ${old.advice}.`;
        const target = old.rename;
        if (target && !f.candidates.includes(f.key) && !hasKey(value, p, target)) data = fix(`Rename to ${target}:`, span, target);
      } else if (guess) {
        message += ` Did you mean "${guess}"?`;
        data = fix(`Change to "${guess}"`, span, guess);
      } else if (f.candidates.length > 0 && f.candidates.length <= 12) {
        message += ` Allowed here: ${f.candidates.join(', ')}.`;
      }
      return [diag(code, message, span, 'error', data)];
    }
    case 'missing-key': {
      const span = ownerSpan(doc, p);
      if (p.length === 0 && (f.key === 'nika' || f.key === 'tasks')) {
        const msg = f.key === 'nika'
          ? 'Missing "nika:": a workflow starts with its name, e.g. nika: my-workflow.'
          : 'Missing "tasks:": a workflow needs at least one task.';
        return [diag('NIKA-PARSE-002', msg, span)];
      }
      if (t && t.length === 1 && VERB_KEYS.has(String(t[0]))) {
        return [diag('NIKA-PARSE-018', `${t[0]} needs "${f.key}:" (${taskLabel(p, value)}).`, span)];
      }
      if (p[0] === 'secrets' && p.length === 2) {
        return [diag('NIKA-PARSE-014', `Secret "${p[1]}" needs "${f.key}:" (${f.key === 'source' ? 'env, file or vault' : 'where the value is stored'}).`, span)];
      }
      if (t && t.length === 0 && (f.key === 'id' || f.key === 'name')) {
        return [diag('NIKA-PARSE-019', `Task #${Number(p[1]) + 1} needs an ${f.key}:.`, span)];
      }
      return [diag(contextCode(p) ?? 'NIKA-PARSE-019', `Missing required key "${f.key}" ${where(p, value)}.`, span)];
    }
    case 'exclusive-none': {
      const span = ownerSpan(doc, p);
      const list = f.keys.length === 2 ? `${f.keys[0]}: or ${f.keys[1]}:` : `one of ${f.keys.map((k) => k + ':').join(', ')}`;
      if (t && t.length === 0 && f.keys.some((k) => VERB_KEYS.has(k))) return [diag('NIKA-PARSE-008', `${cap(taskLabel(p, value))} has no verb: add ${list}.`, span)];
      if (t && t.length === 0) return [diag('NIKA-PARSE-019', `${cap(taskLabel(p, value))} needs ${list}.`, span)];
      if (t?.[0] === 'on_error') return [diag('NIKA-PARSE-012', `on_error needs recover: <value> or skip: true.`, span)];
      if (t && t.length === 1 && VERB_KEYS.has(String(t[0]))) {
        const hint = t[0] === 'exec' ? ' (command: [program, args…] runs without a shell; shell: "…" runs a command line)' : '';
        return [diag('NIKA-PARSE-018', `${t[0]} needs ${list}${hint}.`, span)];
      }
      return [diag(contextCode(p) ?? 'NIKA-PARSE-019', `${cap(where(p, value))}: add ${list}.`, span)];
    }
    case 'exclusive-many': {
      // The first one written stays; each later one is the finding.
      const keys = [...f.keys].sort((a, b) => keySpanAt(doc, p, a).start - keySpanAt(doc, p, b).start);
      const [first, ...others] = keys;
      return others.map((k) => {
        const span = keySpanAt(doc, p, k);
        if (t && t.length === 0 && VERB_KEYS.has(k)) {
          return diag('NIKA-PARSE-009', `${cap(taskLabel(p, value))} has several verbs (${keys.join(', ')}); a task does exactly one thing: move "${k}" into a task of its own.`, span);
        }
        if (t?.[0] === 'on_error') return diag('NIKA-PARSE-012', `on_error takes recover: or skip:, not both.`, span);
        return diag(contextCode(p) ?? 'NIKA-PARSE-019', `"${first}" and "${k}" cannot be used together ${where(p, value)}; keep one.`, span);
      });
    }
    case 'bad-key-name': {
      const span = keySpanAt(doc, p, f.key);
      if (p.length === 1 && p[0] === 'tasks') return [diag('NIKA-PARSE-006', `Task id "${f.key}" ${f.message}.`, span, 'error', idFix(f.key, span))];
      if (t?.[0] === 'after' && t.length === 1) return [diag('NIKA-PARSE-006', `"${f.key}" is not a task id: it ${f.message}.`, span)];
      if (f.code === 'NIKA-PARSE-013') return [diag('NIKA-PARSE-013', `"${f.key}" ${f.message}.`, span)];
      return [diag(f.code ?? contextCode(p) ?? 'NIKA-PARSE-019', `"${f.key}" ${f.message} (${where(p, value).replace(/^in /, '')}).`, span)];
    }
    case 'constraint': {
      const span = f.at ? keySpanAt(doc, p, f.at) : valueSpan(doc, p);
      const code = f.code ?? (p[0] === 'secrets' ? 'NIKA-PARSE-014' : contextCode(p) ?? 'NIKA-PARSE-019');
      return [diag(code, f.message + '.', span)];
    }
    case 'bad-value':
      return badValue(doc, dialect, f, value);
  }
}

function hasKey(value: unknown, path: ValuePath, key: string): boolean {
  let node = value;
  for (const s of path) node = node && typeof node === 'object' ? (node as Record<string | number, unknown>)[s] : undefined;
  return !!node && typeof node === 'object' && key in (node as object);
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function idFix(id: string, span: Span): DiagnosticData | undefined {
  const fixed = id.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[_0-9]+|_+$/g, '');
  return fixed && fixed !== id ? fix(`Rename to ${fixed}`, span, fixed, false) : undefined;
}

function valueAt(value: unknown, path: ValuePath): unknown {
  let node = value;
  for (const s of path) node = node && typeof node === 'object' ? (node as Record<string | number, unknown>)[s] : undefined;
  return node;
}

function ownedBySemanticChecks(p: ValuePath, t: ValuePath | undefined): boolean {
  if (p.length === 1 && p[0] === 'model') return true;
  if (!t) return false;
  if (t.length === 2 && (t[0] === 'infer' || t[0] === 'agent') && t[1] === 'model') return true;
  if (t.length === 2 && t[0] === 'invoke' && t[1] === 'tool') return true;
  return t.length === 3 && t[0] === 'agent' && t[1] === 'tools';
}

function badValue(doc: NikaDocument, dialect: Dialect, f: Extract<Finding, { kind: 'bad-value' }>, value: unknown): NikaDiagnostic[] {
  const p = f.path;
  const t = inTask(p);
  const span = valueSpan(doc, p);
  const v = valueAt(value, p);
  const name = fieldName(p);

  // Tool ids and models have richer semantic checks (fixes, catalog lookups); a second,
  // schema-worded finding on the same token would only be noise.
  if (f.keyword === 'pattern' && typeof v === 'string' && ownedBySemanticChecks(p, t)) return [];

  // Envelope.
  if (p.length === 1 && p[0] === 'nika') {
    const s = typeof v === 'string' || typeof v === 'number' ? String(v) : '';
    const k = kebab(s);
    return [diag('NIKA-PARSE-003', `nika: must be the workflow's name in kebab-case (a lowercase letter, then lowercase letters, digits or hyphens), e.g. my-workflow${s ? `; "${s}" is not` : ''}.`, span, 'error', k && k !== s ? fix(`Change to ${k}`, span, k) : undefined)];
  }
  if (p.length === 1 && p[0] === 'tasks') {
    if (Array.isArray(v) && dialect === 'v1') {
      return [diag('NIKA-PARSE-022', 'tasks: must be a map keyed by task id (tasks: { build: { exec: … } }), not a list.', span, 'error', { convert: 'tasks-list-to-map' })];
    }
    if (v == null || (f.keyword === 'minProperties' || f.keyword === 'minItems')) {
      return [diag('NIKA-PARSE-002', 'tasks: is empty: a workflow needs at least one task.', span)];
    }
  }
  // Task envelope.
  if (t && t.length === 1 && t[0] === 'timeout') {
    if (typeof v === 'number') {
      return [diag('NIKA-PARSE-010', `timeout must be a quoted duration string such as "${v}s".`, span, 'error', fix(`Change to "${v}s"`, span, `"${v}s"`))];
    }
    const reason = typeof v === 'string' ? (parseDuration(v) as { reason?: string }).reason : undefined;
    return [diag('NIKA-PARSE-010', `Invalid timeout: ${reason ?? 'write a quoted duration such as "30s" or "1h30m"'}.`, span)];
  }
  if (t && t.length === 2 && t[0] === 'after' && f.keyword === 'enum') {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    const to = OLD_PREDICATES[s] ?? (typeof v === 'string' ? suggest(s, ['success', 'failure', 'skipped', 'terminal', 'unwind']) : undefined);
    const msg = `"${s}" is not an after: predicate: use success, failure, skipped, terminal or unwind.${to ? ` Did you mean "${to}"?` : ''}`;
    return [diag('NIKA-DAG-005', msg, span, 'error', to ? fix(`Change to ${to}`, span, to) : undefined)];
  }
  if (t && t.length === 1 && t[0] === 'after' && Array.isArray(v)) {
    return [diag('NIKA-PARSE-019', 'after: is a map of task id → predicate, e.g. after: { build: success }, not a list.', span)];
  }
  if (t && t.length === 1 && t[0] === 'for_each' && f.keyword === 'type') {
    return [diag('NIKA-PARSE-019', 'for_each takes a mapping: for_each: { items: …, max_parallel: N, fail_fast: true }.', span)];
  }
  if (t && t.length === 2 && t[0] === 'exec' && t[1] === 'command' && typeof v === 'string') {
    const loc = locatePath(doc, p);
    const key = loc.pair ? keySpanAt(doc, p.slice(0, -1), 'command') : undefined;
    const canRename = key && !hasKey(value, p.slice(0, -1), 'shell');
    return [diag('NIKA-PARSE-019', 'command must be a list of arguments ([program, arg, …]); for a shell command line use shell: instead.', span, 'error', canRename ? fix('Use shell: for this command line', key, 'shell') : undefined)];
  }
  if (t && t.length === 1 && VERB_KEYS.has(String(t[0])) && f.keyword === 'type') {
    return [diag('NIKA-PARSE-019', `${t[0]} takes a mapping of its fields${t[0] === 'infer' || t[0] === 'agent' ? ', e.g. infer: { prompt: "…" }' : ''}.`, span)];
  }
  if (p[0] === 'secrets' && p.length === 2 && f.keyword === 'type') {
    return [diag('NIKA-PARSE-014', `Secret "${p[1]}" must say where its value is stored, e.g. { source: env, key: API_KEY }; never write the value itself in the file.`, span)];
  }

  // Generic: did-you-mean for enums, context code otherwise.
  let data: DiagnosticData | undefined;
  let message = `"${name}" ${f.message}`;
  if (f.keyword === 'enum' && typeof v === 'string' && f.allowed) {
    const to = suggest(v, f.allowed.filter((x): x is string => typeof x === 'string'));
    if (to) { message += `. Did you mean "${to}"?`; data = fix(`Change to ${to}`, span, quoteLike(doc, span, to)); }
  }
  if (!message.endsWith('?')) message += '.';
  if (f.keyword === 'pattern' && typeof v === 'string') message = `"${name}" ${f.message}; "${v}" is not.`;
  return [diag(f.code ?? contextCode(p) ?? 'NIKA-PARSE-019', message, span, 'error', data)];
}
