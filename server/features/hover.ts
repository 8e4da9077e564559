// Hover: what a name inside `${{ }}` resolves to, what a key means, what a tool / model / task /
// predicate is. Secret values are never shown (the server never has them anyway).
import { isScalar } from 'yaml';
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import { CEL_CALLABLES, DEAD_ROOTS, EXPRESSION_ROOTS, TASK_PROJECTIONS } from '../../core/catalog/cel.js';
import { findServer } from '../../core/catalog/mcp.js';
import { parseModel, providerSpec } from '../../core/catalog/providers.js';
import { locate, spanOf } from '../../core/document.js';
import type { ExprNode } from '../../core/expr/index.js';
import type { Task, Workflow } from '../../core/ir.js';
import { parseToolId } from '../../core/toolid.js';
import { referenceAt, siteAt, taskAtPath, type ExprSite } from '../../core/scan.js';
import type { Span } from '../../core/text.js';
import type { DocModel } from '../model.js';
import { inputDoc, preview, providerDoc, taskSummary, typeLabel } from './completion.js';
import { contextOfMap, keyDocAt, PREDICATE_DOCS, VERB_DOCS } from './keys.js';
import { toolInfo, toolMarkdown } from './tools.js';

export function hover(model: DocModel, position: Position): Hover | null {
  const { doc } = model.analysis;
  if (doc.tooLarge || !doc.yaml) return null;
  const offset = doc.lines.offsetAt(position);
  const site = siteAt(model.sites, offset);
  const found = site ? expressionHover(model, site, offset) : yamlHover(model, offset);
  if (!found) return null;
  return { contents: { kind: MarkupKind.Markdown, value: found.md }, range: doc.lines.rangeOf(found.span) };
}

interface Found { md: string; span: Span }

// ---- expressions -------------------------------------------------------------------------------

function expressionHover(model: DocModel, site: ExprSite, offset: number): Found | null {
  const wf = model.analysis.workflow;
  if (site.ast) {
    const call = callAt(site.ast, offset);
    if (call) {
      const c = CEL_CALLABLES.find((x) => x.name === call.callee && (x.form === 'method') === !!call.target);
      if (c) return { md: `\`${c.signature}\`\n\n${c.description}`, span: call.calleeSpan };
    }
  }
  const hit = referenceAt(site, offset);
  if (!hit) return null;
  const { ref, segment } = hit;
  if (segment < 0) {
    const root = EXPRESSION_ROOTS.find((r) => r.name === ref.root);
    if (root) return { md: `**${root.name}** — ${root.description}${root.local && site.task?.forEach ? `\n\nIterating over \`${preview(site.task.forEach.items)}\`.` : ''}`, span: ref.rootSpan };
    const dead = DEAD_ROOTS.get(ref.root);
    if (dead) return { md: `**${ref.root}** — an older namespace (${dead.code}): ${dead.hint}.`, span: ref.rootSpan };
    if (ref.root === 'use') return { md: '**use** — legacy data wiring: `{{use.alias}}` reads the `use:` binding of this task.', span: ref.rootSpan };
    return null;
  }
  const seg = ref.segments[segment];
  if (!seg) return null;
  const name = ref.segments[0].name;
  if (segment === 0) {
    switch (ref.root) {
      case 'inputs': {
        const d = wf.inputs[name];
        return { md: d ? inputDoc(name, d) : `Undeclared input \`${name}\`.`, span: seg.span };
      }
      case 'const':
        return { md: name in wf.const ? `**const.${name}** = \`${preview(wf.const[name])}\`` : `Undeclared constant \`${name}\`.`, span: seg.span };
      case 'secrets': {
        const s = wf.secrets[name];
        return { md: s ? `**secrets.${name}** — masked secret from \`${s.source ?? '?'}\`${s.key ? ` (key \`${s.key}\`)` : ''}${s.path ? ` (file \`${s.path}\`)` : ''}. Its value is never shown.` : `Undeclared secret \`${name}\`.`, span: seg.span };
      }
      case 'with': {
        const v = site.task?.with[name];
        return { md: v !== undefined ? `**with.${name}** — binding of \`${site.task!.id}\`:\n\n\`\`\`yaml\n${name}: ${preview(v)}\n\`\`\`` : `\`${name}\` is not bound in this task's \`with:\`.`, span: seg.span };
      }
      case 'tasks': {
        const t = wf.tasks.find((x) => x.id === name);
        return { md: t ? taskMarkdown(t) : `No task \`${name}\` in this workflow.`, span: seg.span };
      }
      case 'vars':
      case 'env': {
        const bag = ref.root === 'vars' ? wf.vars : wf.env;
        return { md: name in bag ? `**${ref.root}.${name}** = \`${preview(bag[name])}\`` : `Undeclared \`${ref.root}.${name}\`.`, span: seg.span };
      }
      case 'group':
        return { md: `**group.${name}** — members: ${wf.tasks.filter((t) => t.group === name).map((t) => `\`${t.id}\``).join(', ') || '_none_'}`, span: seg.span };
    }
    return null;
  }
  if (ref.root === 'tasks' && segment === 1) {
    const p = TASK_PROJECTIONS.find((x) => x.name === seg.name);
    if (p) return { md: `**${seg.name}**: \`${p.type}\` — ${p.description}`, span: seg.span };
    const t = wf.tasks.find((x) => x.id === name);
    const jq = t?.extract?.[seg.name];
    if (jq !== undefined) return { md: `**${seg.name}** — \`extract:\` binding of \`${name}\`: jq \`${jq}\``, span: seg.span };
  }
  return null;
}

function callAt(node: ExprNode, offset: number): Extract<ExprNode, { kind: 'call' }> | undefined {
  const inside = (s: Span) => s.start <= offset && offset <= s.end;
  if (!inside(node.span)) return undefined;
  switch (node.kind) {
    case 'call':
      if (inside(node.calleeSpan)) return node;
      return (node.target && callAt(node.target, offset)) ?? node.args.map((a) => callAt(a, offset)).find(Boolean);
    case 'member': return callAt(node.object, offset);
    case 'index': return callAt(node.object, offset) ?? callAt(node.index, offset);
    case 'list': return node.items.map((i) => callAt(i, offset)).find(Boolean);
    case 'unary': return callAt(node.operand, offset);
    case 'binary': return callAt(node.left, offset) ?? callAt(node.right, offset);
    case 'ternary': return callAt(node.test, offset) ?? callAt(node.consequent, offset) ?? callAt(node.alternate, offset);
    default: return undefined;
  }
}

// ---- YAML --------------------------------------------------------------------------------------

function yamlHover(model: DocModel, offset: number): Found | null {
  const { doc, workflow: wf, dialect } = model.analysis;
  const loc = locate(doc, offset);
  if (!loc.pair && !loc.node) return null;
  const path = loc.path;
  const task = taskAtPath(wf, path);
  if (loc.onKey) {
    const span = spanOf(loc.pair!.key)!;
    // A task key (v1 map).
    if (path.length === 2 && path[0] === 'tasks' && task) return { md: taskMarkdown(task), span };
    if (path.length === 4 && path[2] === 'after') {
      const t = wf.tasks.find((x) => x.id === path[3]);
      return { md: t ? taskMarkdown(t) : `No task \`${String(path[3])}\` in this workflow.`, span };
    }
    const d = keyDocAt(path, dialect);
    if (d) return { md: `**${d.name}**${d.required ? ' (required)' : ''} — ${d.doc}${d.deprecated ? `\n\n_Older spelling; current v1: ${d.deprecated}._` : ''}`, span };
    return null;
  }
  const node = loc.node;
  if (!isScalar(node) || typeof node.value !== 'string') return null;
  const span = spanOf(node)!;
  const value = node.value;
  const last = path[path.length - 1];
  const isItem = typeof last === 'number';
  const field = isItem ? path[path.length - 2] : last;
  const ownerPath = isItem ? path.slice(0, -2) : path.slice(0, -1);
  const owner = contextOfMap(ownerPath, dialect);

  if ((field === 'tool' && owner.kind === 'body') || (field === 'tools' && isItem)) return toolHover(model, value, span);
  if (field === 'model' && !isItem) return modelHover(value, span);
  if (owner.kind === 'after' && !isItem) {
    const doc = PREDICATE_DOCS[value];
    return { md: doc ? `**${value}** — ${doc.replace(/the task/, `\`${String(field)}\``)}` : `\`${value}\` is not a predicate: use success, failure, skipped, terminal or unwind.`, span };
  }
  if ((field === 'id' || field === 'name') && path.length === 3 && path[0] === 'tasks' && task) return { md: taskMarkdown(task), span };
  if ((field === 'depends_on' || ((field === 'source' || field === 'target') && ownerPath[0] === 'flows'))) {
    const t = wf.tasks.find((x) => x.id === value);
    if (t) return { md: taskMarkdown(t), span };
  }
  return null;
}

function toolHover(model: DocModel, value: string, span: Span): Found | null {
  const info = toolInfo(value, model.catalog);
  if (info) return { md: toolMarkdown(info), span };
  const id = parseToolId(value.startsWith('!') ? value.slice(1) : value);
  if (id.kind === 'mcp') {
    const server = findServer(model.catalog, id.server);
    if (!server) return { md: `MCP tool \`${id.tool}\` on server \`${id.server}\`, which the editor has not connected (no catalog entry).`, span };
    if (server.status !== 'connected') return { md: `MCP server \`${id.server}\` is ${server.status}${server.error ? `: ${server.error}` : ''}; its tools are unknown until it connects.`, span };
    if (id.tool.includes('*')) return { md: `Every tool of \`${id.server}\` matching \`${id.tool}\`: ${(server.tools ?? []).map((t) => `\`${t.name}\``).join(', ')}`, span };
    return { md: `\`${id.server}\` has no tool \`${id.tool}\`.`, span };
  }
  if (id.kind === 'nika') return { md: `\`nika:${id.name}\` is not one of the 28 builtins.`, span };
  return null;
}

function modelHover(value: string, span: Span): Found | null {
  if (value.includes('${{')) return null;
  const m = parseModel(value);
  if (!m) return { md: `A model is written \`<provider>/<name>\`, e.g. \`mock/echo\`.`, span };
  const p = providerSpec(m.provider);
  return { md: `**${m.name}** via ${p ? providerDoc(p.id) : `unknown provider \`${m.provider}\``}`, span };
}

function taskMarkdown(t: Task): string {
  const parts = [`**task ${t.id}** — ${t.verb ? VERB_DOCS[t.verb].split(' — ')[0] : 'no verb'}`, '', `\`${taskSummary(t)}\``];
  const deps = [...new Set([...Object.keys(t.after), ...withDeps(t)])];
  if (deps.length) parts.push('', `after: ${deps.map((d) => `\`${d}\``).join(', ')}`);
  if (t.forEach) parts.push('', `for_each over \`${preview(t.forEach.items)}\``);
  if (t.returns !== undefined) parts.push('', `returns \`${typeLabel(t.returns)}\``);
  return parts.join('\n');
}

function withDeps(t: Task): string[] {
  const out: string[] = [];
  for (const v of Object.values(t.with)) {
    if (typeof v !== 'string') continue;
    for (const m of v.matchAll(/tasks\.([a-z][a-z0-9_]*)/g)) out.push(m[1]);
  }
  return out;
}

export type { Workflow };
