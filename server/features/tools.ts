// What the server knows about a tool id: the 28 builtins from core, MCP tools from the client's
// catalog. Shared by completion (args skeletons), hover (docs) and code actions (missing args).
import { BUILTINS, builtinSpec, type BuiltinSpec } from '../../core/catalog/builtins.js';
import { findServer, findTool, type CatalogTool, type ToolCatalog } from '../../core/catalog/mcp.js';
import { parseToolId } from '../../core/toolid.js';

export interface ArgInfo {
  name: string;
  type?: string;
  required: boolean;
  enum?: readonly unknown[];
  default?: unknown;
  description?: string;
}

export type ToolInfo =
  | { kind: 'builtin'; id: string; spec: BuiltinSpec; args: ArgInfo[] }
  | { kind: 'mcp'; id: string; server: string; tool: CatalogTool; args: ArgInfo[] };

export function toolInfo(id: string, catalog: ToolCatalog): ToolInfo | undefined {
  const parsed = parseToolId(id);
  if (parsed.kind === 'nika') {
    const spec = builtinSpec(parsed.name);
    return spec ? { kind: 'builtin', id: spec.id, spec, args: builtinArgs(spec) } : undefined;
  }
  if (parsed.kind === 'mcp') {
    const tool = findTool(catalog, parsed.server, parsed.tool);
    return tool ? { kind: 'mcp', id, server: parsed.server, tool, args: schemaArgs(tool.inputSchema) } : undefined;
  }
  return undefined;
}

export function builtinArgs(spec: BuiltinSpec): ArgInfo[] {
  return sortArgs(Object.entries(spec.args).map(([name, a]) => ({
    name, type: a.type, required: !!a.required, enum: a.enum, default: a.default, description: a.description,
  })));
}

/** Properties of a JSON Schema object, required first (then in schema order). */
export function schemaArgs(schema: Record<string, unknown> | undefined): ArgInfo[] {
  const props = schema && typeof schema.properties === 'object' && schema.properties ? (schema.properties as Record<string, Record<string, unknown>>) : {};
  const required = new Set(Array.isArray(schema?.required) ? (schema!.required as unknown[]).map(String) : []);
  return sortArgs(Object.entries(props).map(([name, p]) => {
    const prop = p && typeof p === 'object' ? p : {};
    return {
      name,
      type: schemaType(prop),
      required: required.has(name),
      enum: Array.isArray(prop.enum) ? prop.enum : undefined,
      default: prop.default,
      description: typeof prop.description === 'string' ? prop.description : typeof prop.title === 'string' ? prop.title : undefined,
    };
  }));
}

function schemaType(p: Record<string, unknown>): string | undefined {
  if (typeof p.type === 'string') return p.type === 'array' && p.items && typeof (p.items as { type?: unknown }).type === 'string' ? `${(p.items as { type: string }).type}[]` : p.type;
  if (Array.isArray(p.type)) return p.type.join(' | ');
  if (Array.isArray(p.enum)) return 'enum';
  if (Array.isArray(p.anyOf) || Array.isArray(p.oneOf)) return ((p.anyOf ?? p.oneOf) as Array<Record<string, unknown>>).map((x) => schemaType(x) ?? 'any').join(' | ');
  return undefined;
}

function sortArgs(args: ArgInfo[]): ArgInfo[] {
  return [...args.filter((a) => a.required), ...args.filter((a) => !a.required)];
}

export function allBuiltins(): BuiltinSpec[] {
  return [...BUILTINS.values()];
}

export { findServer };

// ---- markdown ---------------------------------------------------------------------------------

const cell = (s: unknown) => String(s ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function argsTable(args: ArgInfo[]): string {
  if (!args.length) return '_No arguments._';
  const rows = args.map((a) => {
    const extra = [a.enum ? `one of ${a.enum.map((e) => `\`${String(e)}\``).join(', ')}` : '', a.default !== undefined ? `default \`${JSON.stringify(a.default)}\`` : ''].filter(Boolean).join('; ');
    return `| \`${a.name}\`${a.required ? ' **\\***' : ''} | ${cell(a.type ?? '')} | ${cell([a.description, extra].filter(Boolean).join(' — '))} |`;
  });
  return ['| argument | type | description |', '|---|---|---|', ...rows, '', '**\\*** required'].join('\n');
}

export function toolMarkdown(info: ToolInfo): string {
  if (info.kind === 'builtin') {
    const s = info.spec;
    const head = `**${s.id}** · ${s.category} · ${s.effect === 'pure' ? 'pure' : `effect: ${s.effect}`}${s.agentOnly ? ' · agent-only' : ''}`;
    const oneOf = s.oneOf?.map((g) => `Exactly one of ${g.map((n) => `\`${n}\``).join(', ')}.`).join(' ') ?? '';
    return [head, '', s.description, '', argsTable(info.args), oneOf ? `\n${oneOf}` : '', '', `Returns: ${s.returns}`].join('\n');
  }
  const t = info.tool;
  const ann = t.annotations ?? {};
  const flags = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].filter((f) => ann[f] === true).map((f) => f.replace(/Hint$/, ''));
  return [
    `**${t.title ?? t.name}** · \`${info.id}\` (MCP server \`${info.server}\`)${flags.length ? ` · ${flags.join(', ')}` : ''}`,
    '',
    t.description ?? '_No description._',
    '',
    argsTable(info.args),
  ].join('\n');
}

/** `name: <placeholder>` lines for the required args, as snippet text (tab stops numbered from `first`). */
export function requiredArgsSnippet(args: ArgInfo[], first = 1): string[] {
  let n = first;
  return args.filter((a) => a.required).map((a) => `${a.name}: ${valueSnippet(a, n++)}`);
}

export function valueSnippet(a: ArgInfo, n: number): string {
  if (a.enum?.length) return `\${${n}|${a.enum.map((e) => String(e).replace(/[|,$}\\]/g, '\\$&')).join(',')}|}`;
  if (a.default !== undefined && (typeof a.default !== 'object' || a.default === null)) return `\${${n}:${String(a.default).replace(/[$}\\]/g, '\\$&')}}`;
  if (a.type === 'array' || a.type?.endsWith('[]')) return `[\${${n}}]`;
  if (a.type === 'object') return `{ \${${n}} }`;
  return `\${${n}}`;
}

/** Plain YAML text for a missing argument (code actions): a typed empty value. */
export function argPlaceholder(a: ArgInfo): string {
  if (a.enum?.length) return JSON.stringify(a.enum[0]);
  if (a.default !== undefined) return JSON.stringify(a.default);
  if (a.type === 'array' || a.type?.endsWith('[]')) return '[]';
  if (a.type === 'object') return '{}';
  if (a.type === 'integer' || a.type === 'number') return '0';
  if (a.type === 'boolean') return 'false';
  return '""';
}
