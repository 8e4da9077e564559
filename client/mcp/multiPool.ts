// The explorer keeps one engine McpPool per server so a single server can be stopped and
// restarted on its own (the pool's close() stops all of its servers). Runs see them as one
// McpClientPool through this adapter; the first pool that knows a name wins, which keeps the
// precedence of the sources (a workflow's own `mcp:` block before the editor's servers).
import type { McpServerConfig } from '../../core/ir.js';
import type { McpClientPool, McpToolInfo } from '../../engine/contracts.js';
import { loadEngine } from '../lazy.js';

export class MultiPool implements McpClientPool {
  constructor(private readonly pools: () => McpClientPool[], private readonly onClose?: () => Promise<void>) {}

  private owner(server: string): McpClientPool {
    for (const p of this.pools()) if (server in p.servers()) return p;
    const known = this.pools().flatMap((p) => Object.keys(p.servers()));
    // The engine's own class: its instanceof checks must recognise this error.
    throw new (loadEngine().NikaError)('NIKA-MCP-001', `MCP server "${server}" is not configured${known.length ? ` (configured: ${known.join(', ')})` : ''}. Add it to .vscode/mcp.json, .mcp.json or the nika.mcp.servers setting.`, { details: { server } });
  }

  listTools(server: string, signal?: AbortSignal): Promise<McpToolInfo[]> {
    return this.owner(server).listTools(server, signal);
  }

  callTool(server: string, tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs?: number }): Promise<unknown> {
    return this.owner(server).callTool(server, tool, args, opts);
  }

  readResource(server: string, uri: string, signal?: AbortSignal): Promise<unknown> {
    return this.owner(server).readResource(server, uri, signal);
  }

  servers(): Record<string, McpServerConfig> {
    const out: Record<string, McpServerConfig> = {};
    for (const p of this.pools()) for (const [k, v] of Object.entries(p.servers())) if (!(k in out)) out[k] = v;
    return out;
  }

  /** Only what this run owns is stopped; the editor's servers stay up for the next run. */
  async close(): Promise<void> {
    await this.onClose?.();
  }
}
