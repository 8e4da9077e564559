// v1-draft and legacy files: they run, so their old spellings are warnings (not errors) that
// name the current spelling, with a quick fix where the rewrite is a single mechanical edit,
// plus one information-level "migrate to current v1" on the dialect marker (the server offers
// the whole-file migration from core/migrate.ts for it).
import { isMap, isScalar, isSeq } from 'yaml';
import type { Pair, YAMLMap } from 'yaml';
import type { DiagnosticData, NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, isStringScalar, keyName, keySpan, pairSpan, scalarValueOffset, spanOf, type NikaDocument } from '../../document.js';
import type { Dialect } from '../../ir.js';
import type { Span } from '../../text.js';
import { OLD_PREDICATES } from '../../schema/diagnose.js';
import { oldSpelling, type Scope } from '../../schema/old-spellings.js';
import type { Check } from '../index.js';

const VERBS = ['infer', 'exec', 'invoke', 'agent', 'fetch'] as const;

export const deprecationsCheck: Check = (ctx) => {
  const dialect = ctx.dialect.dialect;
  if (dialect === 'v1' || !ctx.doc.root) return [];
  const r = new Reporter(ctx.doc, dialect);
  r.migrateHint(ctx.dialect.reason);
  const root = ctx.doc.root;
  r.keys(root, 'root', new Set(dialect === 'legacy' ? ['schema'] : ['nika']));
  r.workflowName(root);

  const tasks = getPair(root, 'tasks');
  if (tasks && isSeq(tasks.value)) {
    const span = keySpan(tasks);
    if (span) {
      r.warn('NIKA-PARSE-022', span, 'tasks: is a list here; in current v1 it is a map keyed by task id (tasks: { build: { … } }), and each id: / name: becomes the key.', { convert: 'tasks-list-to-map' });
    }
    for (const item of tasks.value.items) if (isMap(item)) r.task(item, true);
  } else if (tasks && isMap(tasks.value)) {
    for (const p of tasks.value.items) if (isMap(p.value)) r.task(p.value, false);
  }
  return r.out;
};

class Reporter {
  out: NikaDiagnostic[] = [];
  constructor(private doc: NikaDocument, private dialect: Dialect) {}

  private get era(): string {
    return this.dialect === 'legacy' ? 'Legacy 0.x spelling' : 'v1-draft spelling';
  }

  warn(code: string, span: Span, message: string, data?: DiagnosticData): void {
    const d: NikaDiagnostic = { code, severity: 'warning', message: `${this.era}: ${message}`, span, tags: ['deprecated'] };
    if (data) d.data = data;
    this.out.push(d);
  }

  migrateHint(reason: string): void {
    const root = this.doc.root!;
    const marker = this.dialect === 'legacy' ? getPair(root, 'schema')
      : getPair(root, 'nika') ?? getPair(root, 'schema') ?? getPair(root, 'apiVersion');
    const span = marker ? pairSpan(marker) : undefined;
    if (!span) return;
    const what = this.dialect === 'legacy' ? `a legacy nika/workflow@0.x file` : 'a v1-draft file';
    this.out.push({
      code: 'migrate/current-v1', severity: 'information', span,
      message: `This is ${what} (${reason}). It runs as is; migrate to current v1 (nika: <name>, tasks keyed by id, with:/after:) to get the full checks.`,
      data: { migrate: true, dialect: this.dialect },
    });
  }

  /** Every key of `map` that has a current replacement. */
  keys(map: YAMLMap<unknown, unknown>, scope: Scope, skip = new Set<string>()): void {
    for (const pair of map.items) {
      const name = keyName(pair);
      if (name === undefined || skip.has(name)) continue;
      const old = oldSpelling(scope, name);
      const span = keySpan(pair);
      if (!old || !span) continue;
      if (scope === 'task' && name === 'output') { this.taskOutput(map, pair, span); continue; }
      let data: DiagnosticData | undefined;
      if (old.rename && !getPair(map, old.rename)) data = fix(`Rename to ${old.rename}:`, span, old.rename);
      this.warn(old.code ?? 'NIKA-PARSE-005', span, `${old.advice}.`, data);
    }
  }

  /** Draft `nika: v1` + `workflow: name` → `nika: name`. */
  workflowName(root: YAMLMap<unknown, unknown>): void {
    if (this.dialect !== 'v1-draft') return;
    const nika = getNode(root, 'nika');
    const wf = getPair(root, 'workflow');
    if (!wf || !isStringScalar(wf.value) || !isScalar(nika) || String(nika.value) !== 'v1') return;
    const name = wf.value.value;
    const del = lineDeletion(this.doc, wf);
    const nikaSpan = spanOf(nika);
    if (!/^[a-z][a-z0-9-]*$/.test(name) || !del || !nikaSpan) return;
    // Naming the file turns it into a current one; offer that alone only when nothing else in
    // it is draft-shaped, otherwise the whole-file migration is the way (no error cascade).
    if (['vars', 'env', 'mcp', 'config', 'apiVersion', 'schema'].some((k) => getPair(root, k)) || !isMap(getNode(root, 'tasks'))) return;
    // Attach the fix to the warning keys() already produced for workflow:.
    const w = this.out.find((d) => d.span.start === keySpan(wf)?.start);
    if (w) w.data = { fixes: [{ title: `Move the name into nika: ${name}`, edits: [{ span: nikaSpan, newText: name }, { span: del, newText: '' }], preferred: true }] };
  }

  task(task: YAMLMap<unknown, unknown>, inList: boolean): void {
    this.keys(task, 'task', new Set(inList ? ['id', 'name'] : []));
    for (const verb of VERBS) {
      const pair = getPair(task, verb);
      if (!pair) continue;
      if (isStringScalar(pair.value)) this.shortVerb(verb, pair);
      else if (isMap(pair.value)) {
        if (verb !== 'fetch') this.keys(pair.value, verb);
        if (verb === 'exec') this.execCommand(pair.value);
        if (verb === 'invoke') this.invoke(pair.value);
        if (verb === 'agent') this.agentMcp(pair.value);
      }
    }
    const onError = getNode(task, 'on_error');
    if (isMap(onError)) this.keys(onError, 'on_error');
    this.after(task);
    this.timeout(task);
    this.forEach(task);
    this.useTemplates(task);
  }

  private shortVerb(verb: string, pair: Pair<unknown, unknown>): void {
    const span = spanOf(pair.value);
    if (!span) return;
    const field = verb === 'exec' ? 'shell' : verb === 'fetch' ? 'url' : 'prompt';
    const src = this.doc.text.slice(span.start, span.end);
    const oneLine = !src.includes('\n');
    if (verb === 'fetch') return; // the fetch: key itself already carries the advice
    this.warn('NIKA-PARSE-019', span, `the short form ${verb}: "…" is gone; write ${verb}: { ${field}: "…" }.`,
      oneLine ? fix(`Write ${verb}: { ${field}: … }`, span, `{ ${field}: ${src} }`) : undefined);
  }

  private execCommand(exec: YAMLMap<unknown, unknown>): void {
    const cmd = getPair(exec, 'command');
    if (!cmd || !isStringScalar(cmd.value)) return;
    const span = keySpan(cmd);
    if (!span) return;
    const shellPair = getPair(exec, 'shell');
    // Legacy `shell: true` is a flag that goes away with the rename.
    const flag = shellPair && isScalar(shellPair.value) && typeof shellPair.value.value === 'boolean';
    const canFix = !shellPair;
    this.warn('NIKA-PARSE-019', span, 'a string command: is a shell line; in current v1 write shell: "…" (or command: [program, arg, …] to run without a shell).',
      canFix ? fix('Use shell: for this command line', span, 'shell') : undefined);
    if (flag) {
      const s = keySpan(shellPair!);
      if (s) this.warn('NIKA-PARSE-005', s, 'shell: true is gone: a shell: "…" string replaces command: + shell: true.');
    }
  }

  private invoke(inv: YAMLMap<unknown, unknown>): void {
    const tool = getPair(inv, 'tool');
    const mcp = getPair(inv, 'mcp');
    if (tool && isStringScalar(tool.value) && !mcp) {
      const m = /^([a-z0-9][a-z0-9_-]*)::(.+)$/.exec(tool.value.value);
      const span = spanOf(tool.value);
      if (m && span) this.warn('NIKA-PARSE-019', span, `server::tool names are gone; write tool: "mcp:${m[1]}/${m[2]}".`, fix(`Change to mcp:${m[1]}/${m[2]}`, span, `"mcp:${m[1]}/${m[2]}"`));
    }
    if (tool && mcp && isStringScalar(tool.value) && isStringScalar(mcp.value)) {
      const id = `mcp:${mcp.value.value}/${tool.value.value}`;
      const w = this.out.find((d) => d.span.start === keySpan(mcp)?.start);
      const del = lineDeletion(this.doc, mcp);
      const toolSpan = spanOf(tool.value);
      if (w && del && toolSpan) {
        w.message = `${this.era}: invoke: { mcp: ${mcp.value.value}, tool: ${tool.value.value} } is written tool: "${id}" in current v1 (the server is configured outside the workflow).`;
        w.data = { fixes: [{ title: `Write tool: "${id}"`, edits: [{ span: toolSpan, newText: `"${id}"` }, { span: del, newText: '' }], preferred: true }] };
      }
    }
  }

  private agentMcp(agent: YAMLMap<unknown, unknown>): void {
    const mcp = getPair(agent, 'mcp');
    if (!mcp || getPair(agent, 'tools')) return;
    const names = isSeq(mcp.value) ? mcp.value.items.map((i) => (isScalar(i) ? String(i.value) : undefined)) : isStringScalar(mcp.value) ? [mcp.value.value] : [];
    if (names.length === 0 || names.some((n) => n === undefined || !/^[a-z0-9][a-z0-9-]*$/.test(n))) return;
    const w = this.out.find((d) => d.span.start === keySpan(mcp)?.start);
    const span = pairSpan(mcp);
    if (!w || !span || this.doc.text.slice(span.start, span.end).includes('\n')) return;
    w.data = fix('Grant the servers\' tools with tools:', span, `tools: [${names.map((n) => `"mcp:${n}/*"`).join(', ')}]`);
  }

  private after(task: YAMLMap<unknown, unknown>): void {
    const after = getNode(task, 'after');
    if (!isMap(after)) return;
    for (const p of after.items) {
      if (!isStringScalar(p.value)) continue;
      const to = OLD_PREDICATES[p.value.value];
      const span = spanOf(p.value);
      if (to && span) this.warn('NIKA-DAG-005', span, `the predicate "${p.value.value}" is now "${to}".`, fix(`Change to ${to}`, span, to));
    }
  }

  private timeout(task: YAMLMap<unknown, unknown>): void {
    const t = getNode(task, 'timeout');
    const span = spanOf(t);
    if (isScalar(t) && typeof t.value === 'number' && span) {
      this.warn('NIKA-PARSE-010', span, `a number timeout is read as seconds; current v1 wants a quoted duration, "${t.value}s".`, fix(`Change to "${t.value}s"`, span, `"${t.value}s"`));
    }
  }

  private forEach(task: YAMLMap<unknown, unknown>): void {
    const pair = getPair(task, 'for_each');
    if (!pair || isMap(pair.value)) return;
    const span = spanOf(pair.value);
    if (!span) return;
    const src = this.doc.text.slice(span.start, span.end);
    const simple = !src.includes('\n') && (isScalar(pair.value) ? !src.startsWith('$') || src.startsWith('${{') : true);
    const legacyLoop = this.dialect === 'legacy';
    this.warn('NIKA-PARSE-019', span, 'the bare for_each: form is gone; write for_each: { items: …, max_parallel: N }' + (legacyLoop ? ' (the element is ${{ item }})' : '') + '.',
      simple && !legacyLoop ? fix('Write for_each: { items: … }', span, `{ items: ${src} }`) : undefined);
  }

  private useTemplates(task: YAMLMap<unknown, unknown>): void {
    if (this.dialect !== 'legacy') return;
    const seen = new Set<number>();
    let loopName = 'item';
    const visit = (node: unknown, depth: number): void => {
      if (depth > 50) return;
      if (isStringScalar(node)) {
        const re = /\{\{\s*use\.[A-Za-z_][\w.-]*\s*\}\}/g;
        for (let m = re.exec(node.value); m; m = re.exec(node.value)) {
          if (m.index > 0 && node.value[m.index - 1] === '$') continue;
          const start = scalarValueOffset(this.doc, node, m.index);
          if (seen.has(start)) continue;
          seen.add(start);
          const ref = m[0].replace(/^\{\{\s*use\.|\s*\}\}$/g, '');
          const [alias, ...rest] = ref.split('.');
          const now = alias === loopName ? ['item', ...rest].join('.') : `with.${ref}`;
          this.warn('NIKA-PARSE-005', { start, end: start + m[0].length }, `{{use.…}} templates are gone; in current v1 write \${{ ${now} }}${alias === loopName ? '' : ' (with the value bound in with:)'}.`);
        }
      } else if (isMap(node)) {
        for (const p of node.items) visit(p.value, depth + 1);
      } else if (isSeq(node)) {
        for (const i of node.items) visit(i, depth + 1);
      }
    };
    const asNode = getNode(task, 'as');
    loopName = isStringScalar(asNode) ? asNode.value : 'item';
    for (const verb of VERBS) visit(getNode(task, verb), 0);
  }

  private taskOutput(task: YAMLMap<unknown, unknown>, pair: Pair<unknown, unknown>, span: Span): void {
    const v = pair.value;
    const jqMap = isMap(v) && v.items.length > 0 && v.items.every((p) => isStringScalar(p.value) && !['format', 'schema', 'save'].includes(keyName(p) ?? ''));
    if (jqMap) {
      this.warn('NIKA-PARSE-005', span, 'output: was renamed extract: (named jq bindings over the raw output).', getPair(task, 'extract') ? undefined : fix('Rename to extract:', span, 'extract'));
    } else {
      this.warn('NIKA-PARSE-005', span, 'output: { format, schema } is gone; use returns: on the task (or schema: on infer/agent), and exec decode: json to parse JSON.');
    }
  }
}

function fix(title: string, span: Span, newText: string): DiagnosticData {
  return { fixes: [{ title, edits: [{ span, newText }], preferred: true }] };
}

/** The whole line(s) of a block-style pair, when the pair stands alone on them. */
function lineDeletion(doc: NikaDocument, pair: Pair<unknown, unknown>): Span | undefined {
  const s = pairSpan(pair);
  if (!s) return undefined;
  const startLine = doc.lines.positionAt(s.start).line;
  const lineStart = doc.lines.lineStarts[startLine];
  if (doc.text.slice(lineStart, s.start).trim() !== '') return undefined;
  const endLine = doc.lines.positionAt(s.end).line;
  const lineEnd = doc.lines.lineEnd(endLine);
  if (doc.text.slice(s.end, lineEnd).replace(/#.*$/, '').trim() !== '') return undefined;
  const next = endLine + 1 < doc.lines.lineStarts.length ? doc.lines.lineStarts[endLine + 1] : lineEnd;
  return { start: lineStart, end: next };
}
