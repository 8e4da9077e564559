// The MCP side of the editor: which servers are configured (design.md precedence), their live
// state, the tree of the "MCP Tools" view, and the catalog sent to the language server. Nothing
// is spawned in an untrusted workspace: the pools are created disabled there.
import * as vscode from 'vscode';
import type { McpServerConfig, Workflow } from '../../core/ir.js';
import type { McpClientPool } from '../../engine/contracts.js';
import type { McpPool, McpServerState } from '../../engine/mcp/pool.js';
import {
  groupRow, promptRow, resourceRow, serverRow, toCatalog, toolRow,
  type PromptView, type ResourceView, type Row, type ServerView, type ToolView,
} from '../model/mcpTree.js';
import type { ToolCatalog } from '../../core/catalog/mcp.js';
import { readSettings } from '../settings.js';
import { debounce, errorMessage } from '../util.js';
import { MultiPool } from './multiPool.js';
import { loadEngine, type EngineBundle } from '../lazy.js';

export type McpNode =
  | { kind: 'server'; server: string }
  | { kind: 'tool'; server: string; tool: ToolView }
  | { kind: 'group'; server: string; group: 'resources' | 'prompts' }
  | { kind: 'resource'; server: string; resource: ResourceView }
  | { kind: 'prompt'; server: string; prompt: PromptView }
  | { kind: 'message'; text: string; tooltip?: string; icon: string };

interface Entry {
  name: string;
  config: McpServerConfig & { origin?: string };
  pool?: McpPool;
  /** Stopped by the user: not started by refresh or auto-start until started again. */
  stopped?: boolean;
  resources?: ResourceView[];
  prompts?: PromptView[];
  sub?: { dispose(): void };
}

type EngineMcp = EngineBundle['mcp'];

export class McpExplorer implements vscode.TreeDataProvider<McpNode>, vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly problems: string[] = [];
  private loaded = false;
  private engine?: EngineMcp;
  private readonly changeEmitter = new vscode.EventEmitter<McpNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly catalogEmitter = new vscode.EventEmitter<ToolCatalog>();
  /** Fires (debounced) whenever the picture the language server should know changes. */
  readonly onDidChangeCatalog = this.catalogEmitter.event;
  private readonly changed = debounce(() => {
    this.changeEmitter.fire(undefined);
    this.catalogEmitter.fire(this.catalog());
  }, 150);

  constructor(private readonly log: vscode.OutputChannel) {}

  // ---- configuration -------------------------------------------------------------------------

  private async mcp(): Promise<EngineMcp> {
    // The MCP SDK is loaded on first use only.
    this.engine ??= loadEngine().mcp;
    return this.engine;
  }

  /** Reads the sources again; servers whose definition did not change keep running. */
  async load(): Promise<void> {
    const { loadMcpConfig } = await this.mcp();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const settings = readSettings();
    const { servers, problems } = loadMcpConfig({ settingServers: settings.mcpServers, workspaceRoot: root });
    this.problems.length = 0;
    for (const p of problems) {
      this.problems.push(p.message);
      this.log.appendLine(`[config] ${p.message}`);
    }
    for (const [name, e] of this.entries) {
      if (!(name in servers) || JSON.stringify(servers[name]) !== JSON.stringify(e.config)) {
        await this.stopEntry(e);
        this.entries.delete(name);
      }
    }
    for (const [name, config] of Object.entries(servers)) {
      if (!this.entries.has(name)) this.entries.set(name, { name, config });
    }
    this.loaded = true;
    void vscode.commands.executeCommand('setContext', 'nika.mcp.noServers', this.entries.size === 0);
    this.changed();
  }

  private async poolOf(e: Entry): Promise<McpPool> {
    if (!e.pool) {
      const { McpPool } = await this.mcp();
      const disabled = vscode.workspace.isTrusted ? undefined : 'Restricted Mode: MCP servers are not started in an untrusted workspace.';
      e.pool = new McpPool({ [e.name]: e.config }, {
        disabled,
        clientInfo: { name: 'nika-vscode', version: '0.1.0' },
        onStderr: (server, text) => this.log.append(`[${server}] ${text}`),
      });
      e.sub = e.pool.onDidChange(() => this.changed());
    }
    return e.pool;
  }

  private async stopEntry(e: Entry): Promise<void> {
    e.sub?.dispose();
    const p = e.pool;
    e.pool = undefined;
    e.sub = undefined;
    e.resources = undefined;
    e.prompts = undefined;
    await p?.close().catch(() => undefined);
  }

  // ---- actions -------------------------------------------------------------------------------

  /** Starts (or re-lists) every server that was not stopped by hand; failures show in the tree. */
  async refresh(reload = true): Promise<void> {
    if (reload || !this.loaded) await this.load();
    await Promise.all([...this.entries.values()].filter((e) => !e.stopped).map((e) => this.startEntry(e)));
  }

  async start(name: string): Promise<void> {
    if (!this.loaded) await this.load();
    const e = this.entries.get(name);
    if (!e) return;
    e.stopped = false;
    await this.startEntry(e);
  }

  async stop(name: string): Promise<void> {
    const e = this.entries.get(name);
    if (!e) return;
    e.stopped = true;
    await this.stopEntry(e);
    this.changed();
  }

  private async startEntry(e: Entry): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      await this.poolOf(e);
      this.changed();
      return;
    }
    const pool = await this.poolOf(e);
    try {
      await pool.listTools(e.name, undefined, true);
      this.log.appendLine(`[${e.name}] connected, ${pool.status()[0]?.tools?.length ?? 0} tools`);
    } catch (err) {
      this.log.appendLine(`[${e.name}] ${errorMessage(err)}`);
      this.changed();
      return;
    }
    // Resources and prompts are optional capabilities: a server without them is not an error.
    e.resources = await pool.listResources(e.name).catch(() => []);
    e.prompts = await pool.listPrompts(e.name).catch(() => []);
    this.changed();
  }

  /** Whether any server is configured (loads the configuration on first call). */
  async hasServers(): Promise<boolean> {
    if (!this.loaded) await this.load();
    return this.entries.size > 0;
  }

  async callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const e = this.entries.get(server);
    if (!e) throw new Error(`MCP server "${server}" is not configured.`);
    e.stopped = false;
    const pool = await this.poolOf(e);
    return pool.callTool(server, tool, args, { signal });
  }

  async readResource(server: string, uri: string): Promise<unknown> {
    const e = this.entries.get(server);
    if (!e) throw new Error(`MCP server "${server}" is not configured.`);
    return (await this.poolOf(e)).readResource(server, uri);
  }

  /** Servers as the views see them. */
  views(): ServerView[] {
    return [...this.entries.values()].map((e) => {
      const st: McpServerState | undefined = e.pool?.status()[0];
      const state = e.stopped ? 'idle' : st?.status ?? 'idle';
      const c = e.config;
      return {
        name: e.name, state, error: st?.error, origin: c.origin,
        transport: c.url ? 'http' : 'stdio',
        target: c.url ?? [c.command, ...(c.args ?? [])].filter(Boolean).join(' '),
        tools: state === 'connected' ? st?.tools?.map((t) => ({ ...t })) : undefined,
        resources: e.resources, prompts: e.prompts,
      } satisfies ServerView;
    });
  }

  catalog(): ToolCatalog {
    return toCatalog(this.views());
  }

  /** Every connected tool, for pickers. */
  tools(): Array<{ server: string; tool: ToolView }> {
    return this.views().flatMap((s) => (s.tools ?? []).map((tool) => ({ server: s.name, tool })));
  }

  /** The pool a run uses: its workflow's own servers first, then the editor's (kept running after). */
  async poolForRun(workflow: Workflow, env: Record<string, string | undefined>): Promise<{ pool: McpClientPool; dispose(): Promise<void> }> {
    if (!this.loaded) await this.load();
    const own = Object.keys(workflow.mcp ?? {}).length ? workflow.mcp : undefined;
    let runPool: McpPool | undefined;
    if (own) {
      const { McpPool } = await this.mcp();
      runPool = new McpPool(own, { baseEnv: env, onStderr: (s, t) => this.log.append(`[${s}] ${t}`) });
    }
    const editorPools: McpClientPool[] = [];
    for (const e of this.entries.values()) editorPools.push(await this.poolOf(e));
    const pool = new MultiPool(() => [...(runPool ? [runPool] : []), ...editorPools]);
    return { pool, dispose: async () => { await runPool?.close(); this.changed(); } };
  }

  // ---- tree ----------------------------------------------------------------------------------

  getChildren(node?: McpNode): McpNode[] {
    if (!node) {
      if (!this.loaded) {
        void this.load().then(() => {
          if (readSettings().mcpAutoStart) void this.refresh(false);
        });
        return [];
      }
      const rows: McpNode[] = [...this.entries.keys()].map((server) => ({ kind: 'server', server }));
      for (const p of this.problems) rows.push({ kind: 'message', text: p, icon: 'warning' });
      if (!vscode.workspace.isTrusted && rows.length) rows.unshift({ kind: 'message', text: 'Restricted Mode: servers are not started', tooltip: 'Trust this workspace to start MCP servers.', icon: 'shield' });
      return rows;
    }
    const view = this.views().find((s) => s.name === (node as { server?: string }).server);
    if (!view) return [];
    if (node.kind === 'server') {
      if (view.state === 'idle') return [{ kind: 'message', text: 'Not started — use Start or Refresh', icon: 'info' }];
      const out: McpNode[] = (view.tools ?? []).map((tool) => ({ kind: 'tool', server: view.name, tool }));
      if (view.resources?.length) out.push({ kind: 'group', server: view.name, group: 'resources' });
      if (view.prompts?.length) out.push({ kind: 'group', server: view.name, group: 'prompts' });
      if (view.state === 'connected' && out.length === 0) out.push({ kind: 'message', text: 'No tools, resources or prompts', icon: 'info' });
      return out;
    }
    if (node.kind === 'group') {
      return node.group === 'resources'
        ? (view.resources ?? []).map((resource) => ({ kind: 'resource', server: view.name, resource }))
        : (view.prompts ?? []).map((prompt) => ({ kind: 'prompt', server: view.name, prompt }));
    }
    return [];
  }

  getTreeItem(node: McpNode): vscode.TreeItem {
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon(node.icon);
      item.tooltip = node.tooltip ?? node.text;
      item.contextValue = 'mcpMessage';
      return item;
    }
    const view = this.views().find((s) => s.name === node.server);
    let row: Row;
    switch (node.kind) {
      case 'server': row = serverRow(view ?? { name: node.server, state: 'idle' }); break;
      case 'tool': row = toolRow(node.server, node.tool); break;
      case 'group': row = groupRow(node.group, node.group === 'resources' ? view?.resources?.length ?? 0 : view?.prompts?.length ?? 0); break;
      case 'resource': row = resourceRow(node.resource); break;
      case 'prompt': row = promptRow(node.prompt); break;
    }
    const item = new vscode.TreeItem(row.label, row.collapsible === 'none' ? vscode.TreeItemCollapsibleState.None
      : row.collapsible === 'expanded' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    // A connected server gets a new id: VS Code keeps the collapse state of an id it has seen, so
    // a row first shown while the server was starting would otherwise stay collapsed once connected.
    item.id = node.kind === 'server' && view?.state === 'connected' ? `${nodeId(node)}#connected` : nodeId(node);
    item.description = row.description;
    if (row.tooltip) item.tooltip = new vscode.MarkdownString(row.tooltip);
    item.iconPath = row.icon.color ? new vscode.ThemeIcon(row.icon.id, new vscode.ThemeColor(row.icon.color)) : new vscode.ThemeIcon(row.icon.id);
    item.contextValue = row.contextValue;
    if (node.kind === 'resource') item.command = { command: 'nika.mcp.readResource', title: 'Read resource', arguments: [node] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
    for (const e of this.entries.values()) void this.stopEntry(e);
    this.changeEmitter.dispose();
    this.catalogEmitter.dispose();
  }

  /** Stops every server (deactivation, trust changes). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.stopEntry(e)));
  }
}

function nodeId(n: Exclude<McpNode, { kind: 'message' }>): string {
  switch (n.kind) {
    case 'server': return `s/${n.server}`;
    case 'tool': return `t/${n.server}/${n.tool.name}`;
    case 'group': return `g/${n.server}/${n.group}`;
    case 'resource': return `r/${n.server}/${n.resource.uri}`;
    case 'prompt': return `p/${n.server}/${n.prompt.name}`;
  }
}
