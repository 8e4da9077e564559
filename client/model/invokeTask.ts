// "Insert as invoke task": an `invoke:` task calling an MCP tool, with the required arguments as
// a skeleton, placed where the cursor is (or after the task it is in), plus the `permits.tools`
// grant the current dialect needs for it (reference §1.6, §3.3; legacy shape per §9.2).
import { isMap, isScalar, isSeq, stringify } from 'yaml';
import type { Analysis } from '../../core/analyze.js';
import { getNode, getPair, nodeAtPath, spanOf } from '../../core/document.js';
import type { Span } from '../../core/text.js';
import { toolAllowed } from '../../core/toolid.js';
import { collectEffects } from '../../core/audit/effects.js';
import { inferPermits, renderPermits } from '../../core/audit/infer-permits.js';
import { EMPTY_CATALOG } from '../../core/catalog/mcp.js';
import { argsSkeleton } from './toolForm.js';

export interface TextEdit { start: number; end: number; text: string }

export interface InvokeInsertion {
  taskId: string;
  toolId: string;
  edits: TextEdit[];
  /** Offset (in the document before the edits) of the inserted task text, for revealing it. */
  at: number;
  /** Whether a permits grant was added. */
  grantAdded: boolean;
}

export function snakeId(name: string): string {
  let id = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/_+/g, '_').replace(/^_|_$/g, '');
  if (!/^[a-z]/.test(id)) id = `call_${id}`.replace(/_$/, '');
  return id || 'call_tool';
}

export function uniqueId(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** The YAML lines of the task (without base indentation). */
export function invokeTaskLines(opts: {
  dialect: Analysis['dialect']; taskId: string; server: string; tool: string; inputSchema?: unknown; indentUnit?: number; idKey?: 'id' | 'name';
}): string[] {
  const u = ' '.repeat(opts.indentUnit ?? 2);
  const skeleton = argsSkeleton(opts.inputSchema ?? {}) as Record<string, unknown> | null;
  const hasArgs = skeleton && typeof skeleton === 'object' && Object.keys(skeleton).length > 0;
  const argLines = (key: string, depth: string): string[] => {
    if (!hasArgs) return [`${depth}${key}: {}`];
    const body = stringify(skeleton, { indent: u.length, lineWidth: 0 }).replace(/\n$/, '').split('\n');
    return [`${depth}${key}:`, ...body.map((l) => depth + u + l)];
  };
  if (opts.dialect === 'v1') {
    return [`${opts.taskId}:`, `${u}invoke:`, `${u}${u}tool: mcp:${opts.server}/${opts.tool}`, ...argLines('args', u + u)];
  }
  const first = `- ${opts.idKey ?? 'id'}: ${opts.taskId}`;
  if (opts.dialect === 'legacy') {
    return [first, `  invoke:`, `  ${u}mcp: ${opts.server}`, `  ${u}tool: ${opts.tool}`, ...argLines('params', `  ${u}`)];
  }
  return [first, `  invoke:`, `  ${u}tool: mcp:${opts.server}/${opts.tool}`, ...argLines('args', `  ${u}`)];
}

export function planInvokeInsertion(a: Analysis, cursor: number, tool: { server: string; name: string; inputSchema?: unknown }):
  InvokeInsertion | { error: string } {
  const { doc, workflow } = a;
  const text = doc.text;
  const lines = doc.lines;
  const toolId = `mcp:${tool.server}/${tool.name}`;
  const taskId = uniqueId(snakeId(tool.name), new Set(workflow.tasks.map((t) => t.id)));
  const root = doc.root;
  if (!root) return { error: 'The file is not a YAML mapping; fix its syntax first.' };
  const tasksNode = getNode(root, 'tasks');
  const listDialect = a.dialect !== 'v1';
  const unit = indentUnit(a);

  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let at: number;
  let baseIndent: string;
  let prefix = '';
  let replaceEnd: number | undefined;
  let idKey: 'id' | 'name' = 'id';
  if (!tasksNode) {
    at = text.length;
    baseIndent = ' '.repeat(unit);
    prefix = `${text.length && !/\n$/.test(text) ? eol : ''}tasks:${eol}`;
  } else if (isScalar(tasksNode) && tasksNode.value === null) {
    // `tasks:` with nothing after it: the entry goes on the next line.
    at = lineEndAfter(text, lines, spanOf(getPair(root, 'tasks')!.key)!.end);
    baseIndent = ' '.repeat(unit);
    if (at === text.length && !/\n$/.test(text)) prefix = eol;
  } else {
    if ((isMap(tasksNode) || isSeq(tasksNode)) && (tasksNode as { flow?: boolean }).flow) {
      return { error: 'tasks: is written in flow style ({ … } / [ … ]); switch it to block style to insert a task.' };
    }
    if (!isMap(tasksNode) && !isSeq(tasksNode)) return { error: 'tasks: is neither a map nor a list; fix the file first.' };
    if (isMap(tasksNode) === listDialect) {
      return { error: `tasks: is a ${isMap(tasksNode) ? 'map' : 'list'}, which the ${a.dialect} dialect does not expect; fix the file first.` };
    }
    const entryStart = (t: typeof workflow.tasks[number]): number => listDialect ? dashOffset(text, t.span.start) : t.idSpan.start;
    const first = workflow.tasks[0];
    const firstStart = first ? entryStart(first) : spanOf(tasksNode)!.start;
    baseIndent = ' '.repeat(lines.positionAt(firstStart).character);
    if (listDialect && first) {
      const item = nodeAtPath(doc, first.path);
      idKey = getPair(item, 'name') && !getPair(item, 'id') ? 'name' : 'id';
    }
    const cursorLine = lines.positionAt(cursor).line;
    const inside = workflow.tasks.find((t) => entryStart(t) <= cursor && cursor <= t.span.end);
    const firstLine = lines.positionAt(firstStart).line;
    const last = workflow.tasks[workflow.tasks.length - 1];
    const lastLine = last ? lines.positionAt(Math.max(last.span.start, last.span.end - 1)).line : firstLine;
    if (inside) {
      at = lineEndAfter(text, lines, Math.max(inside.span.start, inside.span.end - 1));
    } else if (lines.lineText(cursorLine).trim() === '' && cursorLine > firstLine && cursorLine <= lastLine + 1) {
      // A blank line between or right after the tasks: use it (its stray spaces go).
      at = lines.lineStarts[cursorLine];
      replaceEnd = lines.lineEnd(cursorLine) + lineBreakLength(text, lines.lineEnd(cursorLine));
    } else {
      at = lineEndAfter(text, lines, last ? Math.max(last.span.start, last.span.end - 1) : spanOf(getPair(root, 'tasks')!.key)!.end);
    }
    if (at === text.length && !/\n$/.test(text)) prefix = eol;
  }
  const edits: TextEdit[] = [];
  const body = invokeTaskLines({ dialect: a.dialect, taskId, server: tool.server, tool: tool.name, inputSchema: tool.inputSchema, indentUnit: unit, idKey });
  const taskText = prefix + body.map((l) => baseIndent + l).join(eol) + eol;
  edits.push({ start: at, end: replaceEnd ?? at, text: taskText });

  const grant = permitsEdit(a, toolId, unit, eol);
  if (grant) edits.push(grant);
  return { taskId, toolId, edits: edits.sort((x, y) => y.start - x.start), at, grantAdded: !!grant };
}

/**
 * The edit that adds `toolId` to `permits.tools`, or undefined when none is needed: the dialect
 * has no permits law and the file has no block, or a present pattern already admits the tool.
 */
export function permitsEdit(a: Analysis, toolId: string, unit: number, eol = '\n'): TextEdit | undefined {
  const { doc, workflow } = a;
  const root = doc.root;
  if (!root) return undefined;
  const pair = getPair(root, 'permits');
  if (!pair && a.dialect !== 'v1') return undefined;
  if (workflow.permits?.tools && toolAllowed(workflow.permits.tools, toolId)) return undefined;
  const text = doc.text;
  const u = ' '.repeat(unit);
  const quoted = JSON.stringify(toolId);
  if (!pair) {
    const tasksPair = getPair(root, 'tasks');
    const at = tasksPair ? doc.lines.lineStarts[doc.lines.positionAt(spanOf(tasksPair.key)!.start).line] : text.length;
    // A new block makes every category default-deny, so it must also grant what the workflow
    // already does: the inferred minimal block (as NIKA-AUTH-006's fix writes it) plus the tool.
    const inferred = inferPermits(collectEffects({ doc, dialect: a.dialectInfo, workflow, catalog: EMPTY_CATALOG }));
    if (!inferred.tools.includes(toolId)) inferred.tools.push(toolId);
    return { start: at, end: at, text: renderPermits(inferred, u, eol) + eol };
  }
  const permits = pair.value;
  if (isMap(permits)) {
    const tools = getPair(permits, 'tools');
    if (!tools) {
      const span = spanOf(permits)!;
      if (permits.flow) return insertInFlow(text, span, '}', `tools: [${quoted}]`);
      const firstKey = spanOf(permits.items[0]?.key);
      const col = firstKey ? doc.lines.positionAt(firstKey.start).character : unit;
      const at = firstKey ? doc.lines.lineStarts[doc.lines.positionAt(firstKey.start).line] : span.start;
      const pad = ' '.repeat(col);
      return { start: at, end: at, text: `${pad}tools:${eol}${pad}${u}- ${toolId}${eol}` };
    }
    const v = tools.value;
    if (isSeq(v)) {
      const span = spanOf(v)!;
      if (v.flow) return insertInFlow(text, span, ']', quoted);
      const last = v.items[v.items.length - 1];
      const lastSpan = spanOf(last) ?? span;
      const col = doc.lines.positionAt(span.start).character;
      const at = lineEndAfter(text, doc.lines, Math.max(lastSpan.start, lastSpan.end - 1));
      const needsBreak = at === text.length && !/\n$/.test(text) ? eol : '';
      return { start: at, end: at, text: `${needsBreak}${' '.repeat(col)}- ${toolId}${eol}` };
    }
    if (v === null || v === undefined || (isScalar(v) && v.value === null)) {
      const k = spanOf(tools.key)!;
      const colon = text.indexOf(':', k.end);
      const vs = spanOf(v);
      return { start: colon + 1, end: vs && vs.end > colon ? vs.end : colon + 1, text: ` [${quoted}]` };
    }
    return undefined;
  }
  // `permits:` with no value (null): give it a tools list.
  const k = spanOf(pair.key)!;
  const colon = text.indexOf(':', k.end);
  const vs = spanOf(permits);
  return { start: colon + 1, end: vs && vs.end > colon ? vs.end : colon + 1, text: ` { tools: [${quoted}] }` };
}

function insertInFlow(text: string, span: Span, close: '}' | ']', item: string): TextEdit {
  const open = text.indexOf(close === '}' ? '{' : '[', span.start);
  const end = text.lastIndexOf(close, span.end);
  const inner = text.slice(open + 1, end);
  if (inner.trim() === '') return { start: open + 1, end, text: close === '}' ? ` ${item} ` : item };
  const at = open + 1 + inner.trimEnd().length;
  return { start: at, end: at, text: `, ${item}` };
}

function indentUnit(a: Analysis): number {
  const tasksPair = a.doc.root ? getPair(a.doc.root, 'tasks') : undefined;
  const first = a.workflow.tasks[0];
  if (tasksPair && first) {
    const keyCol = a.doc.lines.positionAt(spanOf(tasksPair.key)!.start).character;
    const start = a.dialect === 'v1' ? first.idSpan.start : dashOffset(a.doc.text, first.span.start);
    const col = a.doc.lines.positionAt(start).character - keyCol;
    if (col >= 2 && col <= 8) return col;
  }
  return 2;
}

/** Offset of the `- ` that introduces a sequence item whose content starts at `offset`. */
function dashOffset(text: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && text[i] === ' ') i--;
  return text[i] === '-' ? i : offset;
}

/** Start of the line after the one holding `offset` (or the end of the text). */
function lineEndAfter(text: string, lines: Analysis['doc']['lines'], offset: number): number {
  const line = lines.positionAt(offset).line;
  const end = lines.lineEnd(line);
  return end + lineBreakLength(text, end);
}

function lineBreakLength(text: string, at: number): number {
  if (text.startsWith('\r\n', at)) return 2;
  return text[at] === '\n' || text[at] === '\r' ? 1 : 0;
}
