// Rows of the MCP Tools view and the catalog the language server is fed with. The explorer's
// own picture of a server (ServerView) is adapted from the engine's pool snapshot by the vscode
// layer, so these stay independent of how the pool reports.
import type { CatalogServer, ToolCatalog } from '../../core/catalog/mcp.js';
import { fence, oneLine, safeJson } from './format.js';
import type { IconRef } from './runsTree.js';

export type ServerState = 'idle' | 'connecting' | 'connected' | 'error' | 'disabled';

export interface ToolView { name: string; title?: string; description?: string; inputSchema?: Record<string, unknown>; annotations?: Record<string, unknown> }
export interface ResourceView { uri: string; name?: string; description?: string; mimeType?: string }
export interface PromptView { name: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }

export interface ServerView {
  name: string;
  state: ServerState;
  error?: string;
  /** Where the definition came from (".vscode/mcp.json", "nika.mcp.servers", …). */
  origin?: string;
  transport?: 'stdio' | 'http';
  /** `command args…` or the URL, for the tooltip. */
  target?: string;
  tools?: ToolView[];
  resources?: ResourceView[];
  prompts?: PromptView[];
}

export interface Row {
  label: string;
  description?: string;
  /** Markdown. */
  tooltip?: string;
  icon: IconRef;
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
}

const STATE_ICON: Record<ServerState, IconRef> = {
  idle: { id: 'debug-disconnect' },
  connecting: { id: 'loading~spin' },
  connected: { id: 'server-environment', color: 'testing.iconPassed' },
  error: { id: 'error', color: 'testing.iconFailed' },
  disabled: { id: 'circle-slash', color: 'disabledForeground' },
};

const STATE_TEXT: Record<ServerState, string> = {
  idle: 'not started', connecting: 'connecting…', connected: 'connected', error: 'error', disabled: 'disabled',
};

export function serverRow(s: ServerView): Row {
  const desc = [STATE_TEXT[s.state]];
  if (s.state === 'connected' && s.tools) desc.push(`${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`);
  if (s.state === 'error' && s.error) desc.push(oneLine(s.error, 80));
  const tip = [
    `**${s.name}** — ${STATE_TEXT[s.state]}`,
    s.error ? `${fence(s.error)}` : '',
    s.target ? `${s.transport ?? 'stdio'}: \`${s.target}\`` : '',
    s.origin ? `from ${s.origin}` : '',
  ].filter(Boolean).join('\n\n');
  return {
    label: s.name,
    description: desc.join(' · '),
    tooltip: tip,
    icon: STATE_ICON[s.state],
    // `mcpServer.running` shows Stop; `mcpServer.stopped` shows Start.
    contextValue: s.state === 'connected' || s.state === 'connecting' ? 'mcpServer.running' : 'mcpServer.stopped',
    collapsible: s.state === 'connected' ? 'expanded' : s.state === 'idle' ? 'collapsed' : 'none',
  };
}

/** First sentence/line of a description, for the row; the tooltip has the whole text. */
export function shortDescription(d: string | undefined, max = 70): string {
  if (!d) return '';
  const firstLine = d.trim().split(/\r?\n/)[0];
  const sentence = /^(.*?[.!?])(\s|$)/.exec(firstLine)?.[1] ?? firstLine;
  return oneLine(sentence, max);
}

export function toolRow(server: string, t: ToolView): Row {
  return {
    label: t.title && t.title !== t.name ? `${t.title}` : t.name,
    description: t.title && t.title !== t.name ? `${t.name} · ${shortDescription(t.description, 60)}` : shortDescription(t.description),
    tooltip: toolTooltip(server, t),
    icon: { id: 'tools' },
    contextValue: 'mcpTool',
    collapsible: 'none',
  };
}

/** Description, then each argument (required ones marked), annotations, and the raw schema. */
export function toolTooltip(server: string, t: ToolView): string {
  const out = [`**${t.title ?? t.name}** · \`mcp:${server}/${t.name}\``];
  if (t.description) out.push(t.description.trim());
  const schema = t.inputSchema ?? {};
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const req = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]).map(String) : []);
  const names = Object.keys(props);
  if (names.length) {
    out.push('**Arguments**\n\n' + names.map((n) => {
      const p = props[n] ?? {};
      const type = Array.isArray(p.enum) ? p.enum.map((e) => JSON.stringify(e)).join(' | ') : String(p.type ?? (p.anyOf || p.oneOf ? 'union' : 'any'));
      return `- \`${n}\`${req.has(n) ? ' *(required)*' : ''}: ${type}${p.description ? ` — ${oneLine(String(p.description), 160)}` : ''}`;
    }).join('\n'));
  } else {
    out.push('*No arguments.*');
  }
  const ann = t.annotations ?? {};
  const badges = (['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
    .filter((k) => ann[k] === true).map((k) => k.replace(/Hint$/, ''));
  if (badges.length) out.push(badges.map((b) => `\`${b}\``).join(' '));
  out.push('**Input schema**\n' + fence(safeJson(schema), 'json'));
  return out.join('\n\n');
}

export function resourceRow(r: ResourceView): Row {
  return {
    label: r.name ?? r.uri,
    description: r.name ? r.uri : r.mimeType ?? '',
    tooltip: [`**${r.name ?? r.uri}**`, `\`${r.uri}\``, r.mimeType ?? '', r.description ?? ''].filter(Boolean).join('\n\n'),
    icon: { id: 'file' },
    contextValue: 'mcpResource',
    collapsible: 'none',
  };
}

export function promptRow(p: PromptView): Row {
  const args = (p.arguments ?? []).map((a) => `- \`${a.name}\`${a.required ? ' *(required)*' : ''}${a.description ? ` — ${a.description}` : ''}`);
  return {
    label: p.name,
    description: shortDescription(p.description),
    tooltip: [`**${p.name}**`, p.description ?? '', args.length ? `**Arguments**\n\n${args.join('\n')}` : ''].filter(Boolean).join('\n\n'),
    icon: { id: 'comment-discussion' },
    contextValue: 'mcpPrompt',
    collapsible: 'none',
  };
}

export function groupRow(kind: 'resources' | 'prompts', count: number): Row {
  return {
    label: kind === 'resources' ? 'Resources' : 'Prompts',
    description: String(count),
    icon: { id: kind === 'resources' ? 'files' : 'comment-discussion' },
    contextValue: `mcpGroup.${kind}`,
    collapsible: 'collapsed',
  };
}

/**
 * What the language server gets over `nika/toolCatalog`. Servers not started yet are reported
 * as `connecting` so the server treats them as offline (hints, never "unknown tool" errors).
 */
export function toCatalog(servers: ServerView[]): ToolCatalog {
  return {
    servers: servers.map((s): CatalogServer => {
      const status: CatalogServer['status'] = s.state === 'idle' ? 'connecting' : s.state;
      const out: CatalogServer = { name: s.name, status };
      if (s.error) out.error = s.error;
      if (s.state === 'connected' && s.tools) {
        out.tools = s.tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations }));
      }
      return out;
    }),
  };
}

/** The file "Create .vscode/mcp.json" writes: VS Code's own format (key `servers`). */
export function exampleMcpJson(): string {
  return JSON.stringify({
    servers: {
      everything: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything'],
      },
      memory: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory'],
      },
    },
  }, null, 2) + '\n';
}
