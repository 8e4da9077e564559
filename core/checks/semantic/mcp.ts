// MCP tools against the live catalog the client reports (design.md, `nika/toolCatalog`). Offline
// must never mean red squiggles: an unknown or disconnected server yields one hint per use; only
// a connected server can prove a tool missing (NIKA-INVOKE-001) or its arguments wrong.
//
// NIKA-INVOKE-002 (arguments do not fit the tool's inputSchema) is this project's own code: the
// spec allocates no number for it (only NIKA-INVOKE-001, unknown tool), and it is kept in the
// same family so on_codes-style filters and docs find it next to its sibling.
// The "not verified" hints carry engine-hint style ids, not a NIKA code: NIKA-MCP-001 is a
// run-plane code a static checker must not emit (§8.2).
import { isMap, isScalar, isSeq } from 'yaml';
import type { Node, Pair, YAMLMap } from 'yaml';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { findServer, type CatalogServer, type CatalogTool } from '../../catalog/mcp.js';
import { getPair, keySpan, plain, spanOf } from '../../document.js';
import { matchToolPattern, parseToolId } from '../../toolid.js';
import type { Span } from '../../text.js';
import { addEntries } from './edits.js';
import { closest, didYouMean, replaceFix } from './suggest.js';
import { toolUses, type ToolUse } from './tools.js';

export const MCP_ARGS_CODE = 'NIKA-INVOKE-002';

function serverOf(id: string): string | undefined {
  const m = /^!?mcp:([^/]*)\//.exec(id);
  return m ? m[1] : undefined;
}

function notVerified(server: string, found: CatalogServer | undefined, declaredHere: boolean): string {
  if (!found && declaredHere) return `MCP server '${server}' is declared in this workflow's mcp: block but has not been started; tool not verified.`;
  if (!found) return `MCP server '${server}' is not in the tool catalog (not configured or not started); tool not verified.`;
  const why = found.status === 'error' ? `failed${found.error ? `: ${found.error}` : ''}` : found.status;
  return `MCP server '${server}' is not connected (${why}); tool not verified.`;
}

export function checkMcpTools(ctx: CheckContext): NikaDiagnostic[] {
  const out: NikaDiagnostic[] = [];
  for (const use of toolUses(ctx)) {
    const serverName = serverOf(use.id);
    if (serverName === undefined) continue;
    const server = findServer(ctx.catalog, serverName);
    if (!server || server.status !== 'connected') {
      out.push(diag('mcp-unverified', notVerified(serverName, server, serverName in ctx.workflow.mcp), use.span, 'hint'));
      continue;
    }
    if (use.pattern) {
      const pattern = use.id.replace(/^!/, '');
      if (!(server.tools ?? []).some((t) => matchToolPattern(pattern, `mcp:${serverName}/${t.name}`))) {
        out.push(diag('mcp-glob-unmatched', `no tool of MCP server '${serverName}' matches '${pattern}'.`, use.span, 'hint'));
      }
      continue;
    }
    const id = parseToolId(use.id);
    if (id.kind !== 'mcp') continue;
    const tool = server.tools?.find((t) => t.name === id.tool);
    if (!tool) {
      const names = (server.tools ?? []).map((t) => t.name);
      const s = closest(id.tool, names);
      const toolSpan = { start: use.span.end - id.tool.length, end: use.span.end };
      const fixSpan = use.synthesized ? use.span : toolSpan;
      out.push(diag('NIKA-INVOKE-001', `MCP server '${serverName}' has no tool '${id.tool}'.${didYouMean(s)}${names.length && !s ? ` Tools: ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''}.` : ''}`,
        use.synthesized ? use.span : toolSpan, 'error', s ? replaceFix(`Change to ${s}`, fixSpan, s) : undefined));
      continue;
    }
    if (use.kind === 'invoke' && use.invokeNode && tool.inputSchema) out.push(...checkArgs(ctx, use, tool));
  }
  return out;
}

// Compiled validators, keyed by the schema's JSON text (tools share schemas across documents).
const validators = new Map<string, ValidateFunction | null>();
let ajv07: Ajv | undefined;
let ajv2020: Ajv2020 | undefined;

function validatorFor(schema: Record<string, unknown>): ValidateFunction | undefined {
  const key = JSON.stringify(schema);
  if (validators.has(key)) return validators.get(key) ?? undefined;
  let v: ValidateFunction | null = null;
  try {
    const { $schema, ...rest } = schema;
    const modern = typeof $schema === 'string' && /2019-09|2020-12/.test($schema);
    const opts = { allErrors: true, strict: false, validateFormats: false, logger: false as const };
    const engine = modern ? (ajv2020 ??= new Ajv2020(opts)) : (ajv07 ??= new Ajv(opts));
    v = engine.compile(rest);
  } catch {
    v = null; // A schema we cannot compile proves nothing about the arguments.
  }
  if (validators.size > 500) validators.clear();
  validators.set(key, v);
  return v ?? undefined;
}

function decodePointer(p: string): string[] {
  return p === '' ? [] : p.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The YAML node at a JSON pointer below `root`, and the pair holding it. */
function nodeAt(root: unknown, pointer: string[]): { node: unknown; pair?: Pair<unknown, unknown> } {
  let node = root;
  let pair: Pair<unknown, unknown> | undefined;
  for (const seg of pointer) {
    if (isMap(node)) { pair = getPair(node, seg); node = pair?.value; }
    else if (isSeq(node)) { pair = undefined; node = node.items[Number(seg)]; }
    else return { node: undefined };
  }
  return { node, pair };
}

function holdsExpression(node: unknown): boolean {
  return isScalar(node) && typeof node.value === 'string' && node.value.includes('${{');
}

function skeleton(schema: unknown): string {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (s.default !== undefined) return JSON.stringify(s.default);
  if (Array.isArray(s.enum) && s.enum.length) return JSON.stringify(s.enum[0]);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'integer': case 'number': return '0';
    case 'boolean': return 'false';
    case 'object': return '{}';
    case 'array': return '[]';
    case 'null': return 'null';
    default: return '""';
  }
}

function checkArgs(ctx: CheckContext, use: ToolUse, tool: CatalogTool): NikaDiagnostic[] {
  const schema = tool.inputSchema!;
  const validate = validatorFor(schema);
  if (!validate) return [];
  const invoke = use.invokeNode!;
  const argsKey = getPair(invoke, 'args') ? 'args' : getPair(invoke, 'params') ? 'params' : 'args';
  const argsPair = getPair(invoke, argsKey);
  const argsNode = argsPair?.value;
  if (argsPair && !isMap(argsNode)) return [];
  const data = isMap(argsNode) ? plain(argsNode) : {};
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  const anchor: Span = argsPair ? keySpan(argsPair)! : use.span;
  const out: NikaDiagnostic[] = [];
  const seen = new Set<string>();
  const name = `mcp:${serverOf(use.id)}/${tool.name}`;

  // All missing properties of one object go into one diagnostic with one fix.
  const missingByPath = new Map<string, string[]>();
  for (const e of errors as ErrorObject[]) {
    if (e.keyword === 'required') {
      const list = missingByPath.get(e.instancePath) ?? [];
      list.push(String((e.params as { missingProperty: string }).missingProperty));
      missingByPath.set(e.instancePath, list);
    }
  }
  for (const [path, missing] of missingByPath) {
    const pointer = decodePointer(path);
    const uniq = [...new Set(missing)];
    if (pointer.length === 0) {
      const props = ((schema as { properties?: Record<string, unknown> }).properties) ?? {};
      const edit = addEntries(ctx.doc, invoke as YAMLMap<unknown, unknown>, argsKey, uniq.map((m) => [m, skeleton(props[m])]));
      out.push(diag(MCP_ARGS_CODE, `${name} requires ${uniq.map((m) => `'${m}'`).join(', ')}.`, anchor, 'error',
        edit ? { fixes: [{ title: `Add ${uniq.join(', ')}`, edits: [edit], preferred: true }] } : undefined));
    } else {
      const { node, pair } = nodeAt(argsNode, pointer);
      if (holdsExpression(node)) continue;
      out.push(diag(MCP_ARGS_CODE, `${name}: '${pointer.join('.')}' requires ${uniq.map((m) => `'${m}'`).join(', ')}.`, (pair ? keySpan(pair) : spanOf(node)) ?? anchor));
    }
  }

  for (const e of errors as ErrorObject[]) {
    if (e.keyword === 'required' || e.keyword === 'if') continue;
    const pointer = decodePointer(e.instancePath);
    const { node, pair } = nodeAt(argsNode, pointer);
    // Values written as ${{ }} are only known at run time; so is anything below them.
    if (pointer.some((_, i) => holdsExpression(nodeAt(argsNode, pointer.slice(0, i + 1)).node))) continue;
    let span: Span | undefined;
    let message: string;
    const where = pointer.length ? `'${pointer.join('.')}'` : 'args';
    if (e.keyword === 'additionalProperties') {
      const extra = String((e.params as { additionalProperty: string }).additionalProperty);
      const p = isMap(node) ? getPair(node, extra) : undefined;
      span = p ? keySpan(p) : undefined;
      const sub = pointer.length ? nodeSchema(schema, pointer) : schema;
      const known = Object.keys(((sub as { properties?: Record<string, unknown> } | undefined)?.properties) ?? {});
      const s = closest(extra, known);
      const key = `${e.keyword}:${span?.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(diag(MCP_ARGS_CODE, `${name} has no argument '${extra}'${pointer.length ? ` in ${where}` : ''}.${didYouMean(s)}`, span ?? anchor, 'error',
        s && span ? replaceFix(`Change to '${s}'`, span, s) : undefined));
      continue;
    }
    span = spanOf(node as Node) ?? (pair ? keySpan(pair) : undefined) ?? anchor;
    message = `${name}: ${where} ${e.message ?? 'is invalid'}`;
    if (e.keyword === 'enum') message += `: ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map((x) => JSON.stringify(x)).join(', ')}`;
    const key = `${e.keyword}:${span.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(diag(MCP_ARGS_CODE, `${message}.`, span));
  }
  return out;
}

/** The sub-schema for an instance path, following plain `properties`/`items` only. */
function nodeSchema(schema: unknown, pointer: string[]): unknown {
  let s = schema as Record<string, unknown> | undefined;
  for (const seg of pointer) {
    if (!s) return undefined;
    const props = s.properties as Record<string, unknown> | undefined;
    s = (props?.[seg] ?? (Array.isArray(s.items) ? undefined : s.items)) as Record<string, unknown> | undefined;
  }
  return s;
}

