// Outline: the workflow, then its tasks (verb as detail) and the inputs/const/secrets/outputs
// sections with their entries.
import { isMap, type Pair } from 'yaml';
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import { getNode, getPair, keyName, keySpan, nodeAtPath, pairSpan, spanOf } from '../../core/document.js';
import type { Task } from '../../core/ir.js';
import type { Span } from '../../core/text.js';
import type { DocModel } from '../model.js';

export const MAX_SYMBOLS = 2000;

export function documentSymbols(model: DocModel): DocumentSymbol[] {
  const { doc, workflow, dialect } = model.analysis;
  const root = doc.root;
  if (!root) return [];
  // Block nodes end after their trailing line break; an outline range should end on its last character.
  const range = (s: Span) => {
    let end = s.end;
    while (end > s.start && /\s/.test(doc.text[end - 1])) end--;
    return doc.lines.rangeOf({ start: s.start, end });
  };
  let budget = MAX_SYMBOLS;

  const section = (key: string, kind: SymbolKind, childKind: SymbolKind, detail: (pair: Pair<unknown, unknown>) => string | undefined): DocumentSymbol | undefined => {
    const pair = getPair(root, key);
    const ks = pair && keySpan(pair);
    if (!pair || !ks) return undefined;
    const children: DocumentSymbol[] = [];
    if (isMap(pair.value)) {
      for (const p of pair.value.items) {
        const name = keyName(p);
        const s = keySpan(p);
        if (name === undefined || !s || --budget < 0) continue;
        children.push({ name, kind: childKind, detail: detail(p), range: range(pairSpan(p) ?? s), selectionRange: range(s) });
      }
    }
    return { name: key, kind, range: range(pairSpan(pair) ?? ks), selectionRange: range(ks), children };
  };

  const tasks: DocumentSymbol[] = [];
  for (const task of workflow.tasks) {
    if (--budget < 0) break;
    const node = nodeAtPath(doc, task.path);
    const whole = spanOf(node) ?? task.span;
    const full = { start: Math.min(task.idSpan.start, whole.start), end: Math.max(task.idSpan.end, whole.end) };
    tasks.push({ name: task.id, kind: SymbolKind.Function, detail: taskDetail(task), range: range(full), selectionRange: range(task.idSpan) });
  }

  const children: DocumentSymbol[] = [];
  const inputs = section('inputs', SymbolKind.Namespace, SymbolKind.Variable, (p) => typeText(getNode(p.value, 'type')));
  const consts = section('const', SymbolKind.Namespace, SymbolKind.Constant, () => undefined);
  const secrets = section('secrets', SymbolKind.Namespace, SymbolKind.Key, (p) => {
    const src = getNode(p.value, 'source');
    return src ? `source: ${String((src as { value?: unknown }).value)}` : undefined;
  });
  for (const s of [inputs, consts, secrets]) if (s) children.push(s);
  const tasksPair = getPair(root, 'tasks');
  const tk = tasksPair && keySpan(tasksPair);
  if (tasksPair && tk) {
    children.push({ name: 'tasks', kind: SymbolKind.Namespace, detail: `${workflow.tasks.length}`, range: range(pairSpan(tasksPair) ?? tk), selectionRange: range(tk), children: tasks });
  }
  const outputs = section('outputs', SymbolKind.Namespace, SymbolKind.Property, () => undefined);
  if (outputs) children.push(outputs);

  const markerKey = getPair(root, 'nika') ?? getPair(root, 'workflow') ?? getPair(root, 'schema');
  const ms = markerKey ? keySpan(markerKey) : undefined;
  const all = spanOf(root)!;
  const name = workflow.name ?? 'workflow';
  const detail = dialect === 'v1' ? undefined : dialect === 'legacy' ? `legacy ${workflow.legacySchema ?? ''}`.trim() : 'v1 draft';
  return [{ name, kind: SymbolKind.Module, detail, range: range(all), selectionRange: range(ms ?? { start: all.start, end: all.start }), children }];
}

function taskDetail(task: Task): string {
  const b = task.body;
  if (!b) return task.verb ?? 'no verb';
  switch (b.verb) {
    case 'invoke': return `invoke ${b.tool ?? b.workflow ?? ''}`.trim();
    case 'infer': return b.model ? `infer ${b.model}` : 'infer';
    case 'agent': return b.model ? `agent ${b.model}` : 'agent';
    case 'exec': return 'exec';
  }
}

function typeText(node: unknown): string | undefined {
  const v = (node as { value?: unknown } | undefined)?.value;
  return typeof v === 'string' ? v : node ? 'type' : undefined;
}
