// The MCP tool catalog as the client reports it over `nika/toolCatalog` (design.md). The server
// never talks to MCP servers itself; it only reads this snapshot.

export interface CatalogTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface CatalogServer {
  name: string;
  status: 'connected' | 'error' | 'disabled' | 'connecting';
  error?: string;
  tools?: CatalogTool[];
}

export interface ToolCatalog { servers: CatalogServer[] }

export const EMPTY_CATALOG: ToolCatalog = { servers: [] };

export function findServer(catalog: ToolCatalog, name: string): CatalogServer | undefined {
  return catalog.servers.find((s) => s.name === name);
}

export function findTool(catalog: ToolCatalog, server: string, tool: string): CatalogTool | undefined {
  return findServer(catalog, server)?.tools?.find((t) => t.name === tool);
}
