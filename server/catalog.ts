// The `nika/toolCatalog` payload comes from another process: keep what has the documented shape
// (design.md) and drop the rest, so a malformed entry never reaches a feature.
import type { CatalogServer, CatalogTool, ToolCatalog } from '../core/catalog/mcp.js';

const STATUSES = new Set(['connected', 'error', 'disabled', 'connecting']);

export function normalizeCatalog(raw: unknown): ToolCatalog {
  const servers: CatalogServer[] = [];
  const list = (raw as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(list)) return { servers };
  for (const s of list.slice(0, 500)) {
    if (!s || typeof s !== 'object' || typeof (s as { name?: unknown }).name !== 'string') continue;
    const o = s as Record<string, unknown>;
    const status = typeof o.status === 'string' && STATUSES.has(o.status) ? (o.status as CatalogServer['status']) : 'error';
    const server: CatalogServer = { name: o.name as string, status };
    if (typeof o.error === 'string') server.error = o.error;
    if (Array.isArray(o.tools)) {
      server.tools = [];
      for (const t of o.tools.slice(0, 2000)) {
        if (!t || typeof t !== 'object' || typeof (t as { name?: unknown }).name !== 'string') continue;
        const x = t as Record<string, unknown>;
        const tool: CatalogTool = { name: x.name as string };
        if (typeof x.title === 'string') tool.title = x.title;
        if (typeof x.description === 'string') tool.description = x.description;
        if (x.inputSchema && typeof x.inputSchema === 'object' && !Array.isArray(x.inputSchema)) tool.inputSchema = x.inputSchema as Record<string, unknown>;
        if (x.annotations && typeof x.annotations === 'object') tool.annotations = x.annotations as Record<string, unknown>;
        server.tools.push(tool);
      }
    }
    servers.push(server);
  }
  return { servers };
}
