// Completion everywhere in a workflow: keys per dialect, verb snippets, enum values, tool ids
// (builtins and the MCP catalog), models, tool arguments, and names inside `${{ }}`. Works on
// half-typed documents through the patched parse of cursorContext (of the cursor's slice only,
// given the model's analysis).
import {
  CompletionItemKind, InsertTextFormat, InsertTextMode, MarkupKind,
  type CompletionItem, type CompletionList, type Position, type Range,
} from 'vscode-languageserver';
import { CEL_CALLABLES, EXPRESSION_ROOTS, TASK_PROJECTIONS } from '../../core/catalog/cel.js';
import { MOCK_MODELS, PROVIDERS } from '../../core/catalog/providers.js';
import type { Task, Workflow, YamlPath } from '../../core/ir.js';
import { taskAtPath } from '../../core/scan.js';
import type { LineIndex, Span } from '../../core/text.js';
import type { DocModel } from '../model.js';
import { cursorContext, cursorContextStats, PLACEHOLDER, siblingValue, type CursorContext } from './cursorContext.js';
import { contextOfMap, keysFor, PREDICATE_DOCS, VERB_SNIPPETS, type KeyDoc } from './keys.js';
import { allBuiltins, builtinArgs, requiredArgsSnippet, schemaArgs, toolInfo, toolMarkdown, valueSnippet, type ArgInfo } from './tools.js';

const EMPTY: CompletionList = { isIncomplete: false, items: [] };
const RETRIGGER = { title: 'Suggest', command: 'editor.action.triggerSuggest' };
const md = (value: string) => ({ kind: MarkupKind.Markdown, value });
const VERB_NAMES = new Set(['infer', 'exec', 'invoke', 'agent', 'fetch']);

interface Env {
  model: DocModel; text: string; lines: LineIndex; ctx: CursorContext; range: Range; wf: Workflow;
  /** Task items leave their detail to completionItem/resolve (set when that was done). */
  lazyTasks?: boolean;
  opts: CompletionOptions;
}

export interface CompletionOptions {
  /** What the client accepts in `CompletionList.itemDefaults` (LSP 3.17). */
  itemDefaults?: readonly string[];
  /** The client resolves `detail` lazily (completionItem.resolveSupport). */
  resolvesDetail?: boolean;
  /** The document, for resolving items later. */
  uri?: string;
}

/** What a list of task ids carries (in its item defaults) for completionItem/resolve to find them. */
export interface TaskItemData { nika: 'task'; uri: string }

/** The most items a list holds; past it the list is filtered by the typed word and marked incomplete. */
export const MAX_ITEMS = 1000;

/**
 * The text being completed, when the model is of an earlier version (the one before the keystroke
 * that asked): only a context read around the cursor is then trusted; null means "ask again with
 * a model of this text".
 */
export interface CurrentText { text: string; lines: LineIndex }

export function completion(model: DocModel, position: Position, opts?: CompletionOptions): CompletionList;
export function completion(model: DocModel, position: Position, opts: CompletionOptions, current: CurrentText): CompletionList | null;
export function completion(model: DocModel, position: Position, opts: CompletionOptions = {}, current?: CurrentText): CompletionList | null {
  const lines = current?.lines ?? model.analysis.doc.lines;
  const text = current?.text ?? model.text;
  if (model.analysis.doc.tooLarge) return current ? null : EMPTY;
  const offset = lines.offsetAt(position);
  const ctx = cursorContext(text, offset, lines, model.analysis, { sliceOnly: !!current });
  if (!ctx) return current && cursorContextStats.path === 'refused' ? null : EMPTY;
  const env: Env = { model, text, lines, ctx, range: lines.rangeOf(ctx.replace), wf: ctx.workflow, opts };
  let items = ctx.kind === 'expression' ? expressionItems(env, offset) : ctx.kind === 'key' ? keyItems(env) : valueItems(env);
  let isIncomplete = false;
  if (items.length > MAX_ITEMS) {
    // Beyond the cap the client must ask again as the word grows, and get what matches it.
    // The word is what the client filters by: the text from the item's replace range to the cursor.
    let lastRange: Range | undefined;
    let word = ctx.word;
    items = items.filter((it) => {
      const r = it.textEdit && 'range' in it.textEdit ? it.textEdit.range : undefined;
      if (r && r !== lastRange) { lastRange = r; word = text.slice(lines.offsetAt(r.start), offset); }
      return fuzzyMatch(word, it.filterText ?? it.label);
    }).slice(0, MAX_ITEMS);
    isIncomplete = true;
  }
  const list = withDefaults({ isIncomplete, items }, opts);
  if (env.lazyTasks) {
    if (list.itemDefaults && opts.uri) list.itemDefaults.data = { nika: 'task', uri: opts.uri } satisfies TaskItemData;
    else {
      const byId = new Map(env.wf.tasks.map((t) => [t.id, t]));
      for (const it of list.items) { const t = byId.get(it.label); if (t) it.detail ??= taskSummary(t); }
    }
  }
  return list;
}

/** completionItem/resolve: the detail a task item left out, from the document's current model. */
export function resolveCompletionItem(item: CompletionItem, modelOf: (uri: string) => DocModel | undefined): CompletionItem {
  const data = item.data as Partial<TaskItemData> | undefined;
  if (data?.nika !== 'task' || typeof data.uri !== 'string' || item.detail !== undefined) return item;
  const model = modelOf(data.uri);
  if (model) item.detail = taskDetail(model.analysis.workflow, item.label);
  return item;
}

function taskDetail(wf: Workflow, id: string): string | undefined {
  const t = wf.tasks.find((x) => x.id === id);
  return t ? taskSummary(t) : undefined;
}

/** VS Code's rule, loosely: the word's characters appear in the label in order (case ignored). */
function fuzzyMatch(word: string, label: string): boolean {
  let j = 0;
  const w = word.toLowerCase();
  const l = label.toLowerCase();
  for (let i = 0; i < l.length && j < w.length; i++) if (l[i] === w[j]) j++;
  return j === w.length;
}

/**
 * Items that replace the same range (the word at the cursor, or the name inside `${{ }}`) carry it
 * once, in the list's defaults, when the client supports it: a list of 1,000 task ids is then a
 * third smaller on the wire.
 */
function withDefaults(list: CompletionList, opts: CompletionOptions): CompletionList {
  if (!opts.itemDefaults?.includes('editRange') || list.items.length < 2) return list;
  // Items made together share one range object: count by object, then merge equal ranges.
  const byObject = new Map<Range, number>();
  for (const item of list.items) {
    const te = item.textEdit;
    if (te && 'range' in te) byObject.set(te.range, (byObject.get(te.range) ?? 0) + 1);
  }
  const key = (r: Range) => `${r.start.line}:${r.start.character}:${r.end.line}:${r.end.character}`;
  const counts = new Map<string, { range: Range; n: number }>();
  for (const [range, n] of byObject) {
    const c = counts.get(key(range));
    if (c) c.n += n; else counts.set(key(range), { range, n });
  }
  let best: { range: Range; n: number } | undefined;
  for (const c of counts.values()) if (!best || c.n > best.n) best = c;
  if (!best || best.n < 2) return list;
  const r = best.range;
  list.itemDefaults = { editRange: r };
  const plain = opts.itemDefaults.includes('insertTextFormat');
  if (plain) list.itemDefaults.insertTextFormat = InsertTextFormat.PlainText;
  const same = (x: Range) => x === r || (x.start.line === r.start.line && x.start.character === r.start.character
    && x.end.line === r.end.line && x.end.character === r.end.character);
  // The items were made for this request: trimmed in place (a copy of 1,000 items costs more).
  // Fields are set to undefined rather than deleted (JSON leaves both out; deleting makes every
  // item a slow dictionary object, to build and to serialize).
  for (const item of list.items) {
    const te = item.textEdit;
    if (te && 'range' in te && same(te.range)) {
      item.textEdit = undefined;
      // Without it the label is inserted (LSP 3.17), which it usually is.
      if (te.newText !== item.label) item.textEditText = te.newText;
    }
    if (item.filterText === item.label) item.filterText = undefined;
    if (plain && item.insertTextFormat === InsertTextFormat.PlainText) item.insertTextFormat = undefined;
  }
  return list;
}

function edit(env: Env, newText: string, snippet = false, range: Range = env.range): Partial<CompletionItem> {
  return {
    textEdit: { range, newText },
    insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    ...(snippet && newText.includes('\n') ? { insertTextMode: InsertTextMode.adjustIndentation } : {}),
  };
}

// ---- keys --------------------------------------------------------------------------------------

function keyItems(env: Env): CompletionItem[] {
  const { ctx } = env;
  const dialect = ctx.dialect.dialect;
  const mapCtx = contextOfMap(ctx.path, dialect);
  if (mapCtx.kind === 'after') return afterKeyItems(env);
  if (mapCtx.kind === 'args') return argKeyItems(env);
  // `- |` in a list of scalars (agent.tools, depends_on, …) is a value, not a key.
  const last = ctx.path[ctx.path.length - 1];
  if (typeof last === 'number') {
    const listKey = ctx.path[ctx.path.length - 2];
    if (typeof listKey === 'string' && SCALAR_LISTS.has(listKey) && ctx.presentKeys.size === 0) {
      return valueItems({ ...env, ctx: { ...ctx, kind: 'value' } });
    }
  }
  const keys = keysFor(mapCtx, dialect);
  const hasVerb = mapCtx.kind === 'task' && [...ctx.presentKeys].some((k) => VERB_NAMES.has(k));
  return keys
    .filter((k) => !ctx.presentKeys.has(k.name) && !(hasVerb && k.shape === 'verb'))
    .map((k, i) => keyItem(env, k, i));
}

const SCALAR_LISTS = new Set(['tools', 'depends_on', 'command', 'skills', 'on_codes', 'source', 'target', 'read', 'write', 'http', 'env', 'exec', 'mcp', 'stop_conditions']);

function keyItem(env: Env, k: KeyDoc, order: number): CompletionItem {
  const { ctx } = env;
  const item: CompletionItem = {
    label: k.name,
    kind: k.shape === 'verb' ? CompletionItemKind.Keyword : CompletionItemKind.Property,
    detail: k.shape === 'verb' ? 'verb' : k.required ? 'required' : undefined,
    documentation: md(k.doc + (k.deprecated ? `\n\n_Older spelling; current v1: ${k.deprecated}._` : '')),
    sortText: `${k.required ? '0' : k.shape === 'verb' ? '1' : '2'}_${String(order).padStart(3, '0')}`,
    filterText: k.name,
  };
  if (k.deprecated) item.tags = [1];
  if (ctx.keyHasColon) return { ...item, ...edit(env, k.name) };
  return { ...item, ...edit(env, keySnippet(k, ctx.inFlow), true) };
}

function keySnippet(k: KeyDoc, flow: boolean): string {
  if (k.shape === 'verb') return flow ? VERB_SNIPPETS[k.name].flow : VERB_SNIPPETS[k.name].block;
  if (k.shape === 'map') {
    if (flow) return `${k.name}: { ${k.snippet ?? '$0'} }`;
    return k.snippet ? `${k.name}:\n  ${k.snippet}` : `${k.name}:\n  $0`;
  }
  if (k.shape === 'list') {
    if (k.snippet) return `${k.name}: ${k.snippet}`;
    return flow ? `${k.name}: [$0]` : `${k.name}:\n  - $0`;
  }
  if (k.enum) return `${k.name}: \${1|${k.enum.join(',')}|}`;
  return `${k.name}: ${k.snippet ?? '$0'}`;
}

function afterKeyItems(env: Env): CompletionItem[] {
  const task = currentTask(env);
  return orderedTasks(env.wf, task)
    .filter((t) => !env.ctx.presentKeys.has(t.id))
    .map((t, i) => ({
      label: t.id,
      kind: CompletionItemKind.Reference,
      detail: taskSummary(t),
      sortText: String(i).padStart(4, '0'),
      ...edit(env, env.ctx.keyHasColon ? t.id : `${t.id}: \${1|success,failure,skipped,terminal,unwind|}`, !env.ctx.keyHasColon),
    }));
}

function argKeyItems(env: Env): CompletionItem[] {
  const tool = siblingValue(env.ctx, env.ctx.path.slice(0, -1), 'tool');
  if (!tool) return [];
  const info = toolInfo(tool, env.model.catalog);
  if (!info) return [];
  return info.args.filter((a) => !env.ctx.presentKeys.has(a.name)).map((a, i) => argItem(env, a, i));
}

function argItem(env: Env, a: ArgInfo, i: number): CompletionItem {
  const value = env.ctx.inFlow ? valueSnippet(a, 1) : a.type === 'object' && !a.enum ? '\n  $0' : valueSnippet(a, 1);
  return {
    label: a.name,
    kind: CompletionItemKind.Field,
    detail: `${a.type ?? 'any'}${a.required ? ' (required)' : ''}`,
    documentation: a.description ? md(a.description + (a.enum ? `\n\nOne of: ${a.enum.map((e) => `\`${String(e)}\``).join(', ')}` : '')) : undefined,
    sortText: `${a.required ? '0' : '1'}_${String(i).padStart(3, '0')}`,
    ...edit(env, env.ctx.keyHasColon ? a.name : `${a.name}: ${value}`, !env.ctx.keyHasColon),
  };
}

// ---- values ------------------------------------------------------------------------------------

function valueItems(env: Env): CompletionItem[] {
  const { ctx } = env;
  const dialect = ctx.dialect.dialect;
  const path = ctx.path;
  const last = path[path.length - 1];
  const isItem = typeof last === 'number';
  const field = isItem ? path[path.length - 2] : last;
  const ownerPath = isItem ? path.slice(0, -2) : path.slice(0, -1);
  const owner = contextOfMap(ownerPath, dialect);
  const out: CompletionItem[] = [];

  if (ctx.word.startsWith('$')) out.push(exprSnippetItem(env));

  if (field === 'tool' && owner.kind === 'body' && owner.verb === 'invoke' && !isItem) {
    const hasArgs = ctx.presentKeys.has('args') || ctx.presentKeys.has('params');
    return [...out, ...toolIdItems(env, { agent: false, skeleton: !hasArgs && !ctx.inFlow && !ctx.quote })];
  }
  if (isItem && field === 'tools' && ((owner.kind === 'body' && owner.verb === 'agent') || (ownerPath.length === 1 && ownerPath[0] === 'permits'))) {
    return [...out, ...toolIdItems(env, { agent: true, skeleton: false })];
  }
  if (field === 'model' && !isItem && (owner.kind === 'envelope' || (owner.kind === 'body' && (owner.verb === 'infer' || owner.verb === 'agent')))) {
    return [...out, ...modelItems(env)];
  }
  if (owner.kind === 'after' && !isItem) return [...out, ...predicateItems(env)];
  if ((field === 'depends_on' && owner.kind === 'task') || ((field === 'source' || field === 'target') && ownerPath[0] === 'flows')) {
    return [...out, ...orderedTasks(env.wf, currentTask(env)).map((t, i) => taskIdItem(env, t, i))];
  }
  if (ownerPath.length === 3 && ownerPath[0] === 'tasks' && ownerPath[2] === 'with' && !isItem) {
    return [...out, ...withValueItems(env)];
  }
  if (owner.kind === 'args' && typeof field === 'string') {
    const tool = siblingValue(ctx, ownerPath.slice(0, -1), 'tool');
    const arg = tool ? toolInfo(tool, env.model.catalog)?.args.find((a) => a.name === field) : undefined;
    if (arg?.enum) return [...out, ...enumItems(env, arg.enum.map(String), arg.description)];
    if (arg?.type === 'boolean') return [...out, ...enumItems(env, ['true', 'false'])];
    return out;
  }
  if (field === 'group' && owner.kind === 'task') {
    const groups = [...new Set(env.wf.tasks.map((t) => t.group).filter((g): g is string => !!g && !g.includes(PLACEHOLDER)))];
    return [...out, ...enumItems(env, groups)];
  }
  if (typeof field === 'string' && !isItem) {
    const doc = keysFor(owner, dialect).find((k) => k.name === field);
    if (doc?.enum) return [...out, ...enumItems(env, [...doc.enum], doc.doc)];
  }
  return out;
}

function enumItems(env: Env, values: string[], doc?: string): CompletionItem[] {
  return values.map((v, i) => ({
    label: v,
    kind: CompletionItemKind.EnumMember,
    documentation: doc ? md(doc) : undefined,
    sortText: String(i).padStart(3, '0'),
    ...edit(env, v),
  }));
}

function predicateItems(env: Env): CompletionItem[] {
  return Object.entries(PREDICATE_DOCS).map(([p, doc], i) => ({
    label: p, kind: CompletionItemKind.EnumMember, documentation: md(doc), sortText: String(i), ...edit(env, p),
  }));
}

function exprSnippetItem(env: Env): CompletionItem {
  return {
    label: '${{ … }}', kind: CompletionItemKind.Snippet, filterText: '${{',
    documentation: md('An expression: `${{ inputs.x }}`, `${{ with.y }}`, `${{ tasks.z.output }}` …'),
    sortText: '0',
    ...edit(env, '\\${{ $1 }}', true),
  };
}

function toolIdItems(env: Env, opts: { agent: boolean; skeleton: boolean }): CompletionItem[] {
  const { ctx, model } = env;
  const out: CompletionItem[] = [];
  const word = ctx.word;
  const mcp = /^mcp:([^/]*)\/(.*)$/.exec(word);
  if (mcp) {
    const server = model.catalog.servers.find((s) => s.name === mcp[1]);
    if (opts.agent) {
      out.push({ label: `mcp:${mcp[1]}/*`, kind: CompletionItemKind.Folder, detail: 'every tool of the server', sortText: '0', ...edit(env, `mcp:${mcp[1]}/*`) });
    }
    for (const [i, tool] of (server?.tools ?? []).entries()) {
      const id = `mcp:${mcp[1]}/${tool.name}`;
      const info = toolInfo(id, model.catalog);
      const required = info?.args.filter((a) => a.required).map((a) => a.name) ?? [];
      const item: CompletionItem = {
        label: id,
        kind: CompletionItemKind.Function,
        detail: required.length ? `requires ${required.join(', ')}` : tool.title ?? 'MCP tool',
        documentation: info ? md(toolMarkdown(info)) : undefined,
        sortText: `1_${String(i).padStart(4, '0')}`,
        filterText: id,
      };
      out.push({ ...item, ...withSkeleton(env, id, info?.args ?? [], opts.skeleton) });
    }
    return out;
  }
  for (const [i, s] of env.model.catalog.servers.entries()) {
    const label = `mcp:${s.name}/`;
    out.push({
      label,
      kind: CompletionItemKind.Module,
      detail: s.status === 'connected' ? `${s.tools?.length ?? 0} tools` : s.status === 'error' ? `error: ${s.error ?? 'not connected'}` : s.status,
      documentation: md(`MCP server **${s.name}** (${s.status})${s.tools?.length ? `\n\n${s.tools.map((t) => `- \`${t.name}\`${t.description ? ` — ${t.description.split('\n')[0]}` : ''}`).join('\n')}` : ''}`),
      sortText: `0_${String(i).padStart(3, '0')}`,
      filterText: label,
      command: RETRIGGER,
      ...edit(env, label),
    });
  }
  for (const name of Object.keys(env.wf.mcp)) {
    if (env.model.catalog.servers.some((s) => s.name === name)) continue;
    out.push({ label: `mcp:${name}/`, kind: CompletionItemKind.Module, detail: 'declared in this workflow', sortText: '0_999', command: RETRIGGER, ...edit(env, `mcp:${name}/`) });
  }
  for (const [i, spec] of allBuiltins().entries()) {
    if (spec.agentOnly && !opts.agent) continue;
    const info = toolInfo(spec.id, model.catalog)!;
    out.push({
      label: spec.id,
      kind: CompletionItemKind.Function,
      detail: `${spec.category} · ${spec.effect}${spec.agentOnly ? ' · agent-only' : ''}`,
      documentation: md(toolMarkdown(info)),
      sortText: `2_${String(i).padStart(3, '0')}`,
      filterText: spec.id,
      ...withSkeleton(env, spec.id, builtinArgs(spec), opts.skeleton),
    });
  }
  if (opts.agent) out.push({ label: 'nika:*', kind: CompletionItemKind.Folder, detail: 'every builtin', sortText: '3', ...edit(env, 'nika:*') });
  return out;
}

/** The tool id, plus an `args:` block with the required arguments when none is written yet. */
function withSkeleton(env: Env, id: string, args: ArgInfo[], skeleton: boolean): Partial<CompletionItem> {
  const lines = skeleton ? requiredArgsSnippet(args) : [];
  if (!lines.length) return edit(env, id);
  return edit(env, `${id}\nargs:\n${lines.map((l) => `  ${l}`).join('\n')}`, true);
}

function modelItems(env: Env): CompletionItem[] {
  const word = env.ctx.word;
  const slash = word.indexOf('/');
  const out: CompletionItem[] = [];
  const providers = slash > 0 ? PROVIDERS.filter((p) => p.id === word.slice(0, slash)) : PROVIDERS;
  if (slash < 0) {
    for (const [i, p] of PROVIDERS.entries()) {
      out.push({
        label: `${p.id}/`, kind: CompletionItemKind.Module, detail: `${p.kind} provider`,
        documentation: md(providerDoc(p.id)), sortText: `0_${String(i).padStart(2, '0')}`, filterText: `${p.id}/`, command: RETRIGGER,
        ...edit(env, `${p.id}/`),
      });
    }
  }
  for (const [i, p] of providers.entries()) {
    for (const [j, m] of (p.id === 'mock' ? MOCK_MODELS : p.exampleModels).entries()) {
      const id = `${p.id}/${m}`;
      out.push({
        label: id, kind: CompletionItemKind.Value, detail: `${p.kind} · ${p.protocol}`,
        documentation: md(providerDoc(p.id)), sortText: `1_${String(i).padStart(2, '0')}_${String(j).padStart(2, '0')}`, filterText: id,
        ...edit(env, id),
      });
    }
  }
  return out;
}

export function providerDoc(id: string): string {
  const p = PROVIDERS.find((x) => x.id === id);
  if (!p) return `Unknown provider \`${id}\`.`;
  if (p.id === 'mock') return '**mock** — offline test provider. `mock/echo` answers `mock(echo) · <prompt>`; needs no key.';
  const key = p.keyEnv ? `key \`${p.nikaKeyEnv}\` or \`${p.keyEnv}\`` : 'no key needed';
  return `**${p.id}** — ${p.kind} provider (${p.protocol} API) at \`${p.baseUrl}\`; ${key}; base URL override \`${p.nikaBaseUrlEnv}\`.`;
}

function withValueItems(env: Env): CompletionItem[] {
  const task = currentTask(env);
  const quoted = !!env.ctx.quote;
  return orderedTasks(env.wf, task).map((t, i) => {
    const expr = `\${{ tasks.${t.id}.output }}`;
    const text = quoted ? expr : `"${expr}"`;
    return {
      label: text, kind: CompletionItemKind.Snippet, detail: taskSummary(t),
      documentation: md(`Bind the output of \`${t.id}\`; the binding makes this task run after it.`),
      sortText: String(i).padStart(4, '0'), filterText: text,
      ...edit(env, text),
    };
  });
}

function taskIdItem(env: Env, t: Task, i: number): CompletionItem {
  return { label: t.id, kind: CompletionItemKind.Reference, detail: taskSummary(t), sortText: String(i).padStart(4, '0'), ...edit(env, t.id) };
}

// ---- expressions -------------------------------------------------------------------------------

function expressionItems(env: Env, offset: number): CompletionItem[] {
  const { ctx, wf } = env;
  const prefix = ctx.exprPrefix ?? '';
  const tail = /[A-Za-z0-9_.]*$/.exec(prefix)![0];
  const parts = tail.split('.');
  const partial = parts.pop()!;
  const chain = parts;
  const { lines, text } = env;
  let end = offset;
  while (end < text.length && /[A-Za-z0-9_]/.test(text[end])) end++;
  const range = lines.rangeOf({ start: offset - partial.length, end } as Span);
  const task = taskAtPath(wf, ctx.path);
  const dialect = ctx.dialect.dialect;
  // One literal per item (no spread of a second object): a `tasks.` list has an item per task.
  const item = (label: string, kind: CompletionItemKind, detail: string | undefined, doc: string | undefined, sort: string, insert = label, snippet = false): CompletionItem => {
    const it: CompletionItem = {
      label, kind, detail, documentation: doc ? md(doc) : undefined, sortText: sort, filterText: label,
      textEdit: { range, newText: insert }, insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    };
    if (snippet && insert.includes('\n')) it.insertTextMode = InsertTextMode.adjustIndentation;
    return it;
  };

  if (chain.length === 0) {
    if (/[\w)\]'"]\s*$/.test(prefix.slice(0, prefix.length - tail.length)) && prefix.trim() !== tail) {
      // After a complete operand: only operators make sense; nothing to offer.
      return [];
    }
    const out: CompletionItem[] = [];
    const surface = ctx.path.includes('with') ? 'with' : '';
    EXPRESSION_ROOTS.forEach((r, i) => {
      if (r.local && !task?.forEach) return;
      if (r.name === 'group' && surface !== 'with') return;
      out.push(item(r.name, r.local ? CompletionItemKind.Variable : CompletionItemKind.Module, r.local ? 'loop local' : 'namespace', r.description, `0_${i}`));
    });
    if (dialect !== 'v1') {
      out.push(item('vars', CompletionItemKind.Module, 'namespace (draft)', 'Workflow `vars:` (v1 draft).', '0_8'));
      out.push(item('env', CompletionItemKind.Module, 'namespace (draft)', 'Workflow `env:` (v1 draft).', '0_9'));
    }
    for (const c of CEL_CALLABLES.filter((x) => x.form === 'function')) {
      out.push(item(c.name, CompletionItemKind.Function, c.signature, c.description, `1_${c.name}`, `${c.name}($1)`, true));
    }
    for (const kw of ['true', 'false', 'null']) out.push(item(kw, CompletionItemKind.Keyword, undefined, undefined, `2_${kw}`));
    return out;
  }

  const [root, ...rest] = chain;
  if (rest.length === 0) {
    switch (root) {
      case 'inputs':
        return Object.entries(wf.inputs).map(([n, d], i) => item(n, CompletionItemKind.Variable, typeLabel(d.type), inputDoc(n, d), pad(i)));
      case 'const':
        return Object.entries(wf.const).map(([n, v], i) => item(n, CompletionItemKind.Constant, 'const', `\`${n}\` = \`${preview(v)}\``, pad(i)));
      case 'secrets':
        return Object.entries(wf.secrets).map(([n, s], i) => item(n, CompletionItemKind.Variable, `secret · ${s.source ?? '?'}`, `Secret \`${n}\` from \`${s.source ?? '?'}\`${s.key ? ` (\`${s.key}\`)` : ''}. The value is masked.`, pad(i)));
      case 'with':
        return Object.entries(task?.with ?? {}).map(([n, v], i) => item(n, CompletionItemKind.Variable, 'binding', `\`with.${n}\` = \`${preview(v)}\``, pad(i)));
      case 'tasks': {
        const others = orderedTasks(wf, task);
        // Many items: the detail of each is read when the client shows it (completionItem/resolve).
        const d = env.opts.itemDefaults;
        env.lazyTasks = !!env.opts.resolvesDetail && !!env.opts.uri && !!d?.includes('data') && !!d.includes('editRange') && others.length > 1;
        return others.map((t, i) => item(t.id, CompletionItemKind.Reference, env.lazyTasks ? undefined : taskSummary(t), undefined, pad(i)));
      }
      case 'vars':
      case 'env':
        if (dialect === 'v1') return [];
        return Object.keys(root === 'vars' ? wf.vars : wf.env).map((n, i) => item(n, CompletionItemKind.Variable, root, undefined, pad(i)));
      case 'group': {
        const groups = [...new Set(wf.tasks.map((t) => t.group).filter((g): g is string => !!g))];
        return groups.map((g, i) => item(g, CompletionItemKind.Module, 'group', `Members: ${wf.tasks.filter((t) => t.group === g).map((t) => t.id).join(', ')}`, pad(i)));
      }
    }
  }
  if (root === 'tasks' && rest.length === 1) {
    const target = wf.tasks.find((t) => t.id === rest[0]);
    const out = TASK_PROJECTIONS.map((p, i) => item(p.name, CompletionItemKind.Property, p.type, p.description, `0_${i}`));
    for (const [i, name] of Object.keys(target?.extract ?? {}).entries()) {
      out.push(item(name, CompletionItemKind.Property, 'extract', `jq binding \`${target!.extract![name]}\``, `1_${i}`));
    }
    return out;
  }
  return CEL_CALLABLES.filter((c) => c.form === 'method').map((c, i) => item(c.name, CompletionItemKind.Method, c.signature, c.description, pad(i), c.name === 'size' ? 'size()' : `${c.name}($1)`, c.name !== 'size'));
}

// ---- helpers -------------------------------------------------------------------------------------

function currentTask(env: Env): Task | undefined {
  return taskAtPath(env.wf, env.ctx.path);
}

/** Other tasks, upstream (declared earlier) first, nearest first; never the task itself. */
function orderedTasks(wf: Workflow, task: Task | undefined): Task[] {
  const keep = (t: Task) => !t.id.includes(PLACEHOLDER) && t !== task && t.id !== task?.id;
  const idx = task ? wf.tasks.indexOf(task) : -1;
  if (idx < 0) return wf.tasks.filter(keep);
  const out: Task[] = [];
  for (let i = idx - 1; i >= 0; i--) if (keep(wf.tasks[i])) out.push(wf.tasks[i]);
  for (let i = idx + 1; i < wf.tasks.length; i++) if (keep(wf.tasks[i])) out.push(wf.tasks[i]);
  return out;
}

export function taskSummary(t: Task): string {
  const b = t.body;
  if (!b) return t.verb ?? 'task';
  switch (b.verb) {
    case 'infer': return `infer: ${oneLine(b.prompt)}`;
    case 'agent': return `agent: ${oneLine(b.prompt)}`;
    case 'exec': return `exec: ${b.command ? b.command.map(String).join(' ') : b.shell ?? ''}`;
    case 'invoke': return `invoke: ${b.tool ?? b.workflow ?? ''}`;
  }
}

function oneLine(s: string): string {
  const nl = s.indexOf('\n');
  const l = nl < 0 ? s : s.slice(0, nl);
  return l.length > 60 ? `${l.slice(0, 57)}…` : l;
}

function pad(i: number): string { return String(i).padStart(4, '0'); }

function preview(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return (s ?? 'null').length > 80 ? `${s.slice(0, 77)}…` : s ?? 'null';
}

function typeLabel(t: unknown): string {
  return typeof t === 'string' ? t : t === undefined ? 'input' : JSON.stringify(t);
}

function inputDoc(name: string, d: { type?: unknown; required: boolean; hasDefault: boolean; default?: unknown; description?: string }): string {
  return [`**inputs.${name}**: \`${typeLabel(d.type)}\`${d.required ? ' (required)' : ''}`, d.hasDefault ? `default: \`${preview(d.default)}\`` : '', d.description ?? ''].filter(Boolean).join('\n\n');
}

export { inputDoc, preview, typeLabel };
export type { YamlPath };
