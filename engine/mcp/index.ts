// Public surface of the MCP half of the engine (scheduler, CLI `mcp list`, and the extension's explorer).
import type { McpToolInfo, ToolSchema } from '../contracts.js';

export { McpPool, ENV_FLOOR, type McpPoolOptions, type McpServerState, type McpServerStatus } from './pool.js';
export { loadMcpServers, loadMcpConfig, type LoadMcpServersOptions, type McpServerEntry, type McpConfigProblem } from './config.js';
export { toolValue, resourceValue } from './result.js';

/** An MCP tool as the agent's tool list wants it (`mcp:<server>/<tool>`). */
export function mcpToolSchema(server: string, tool: McpToolInfo): ToolSchema {
  return { id: `mcp:${server}/${tool.name}`, description: tool.description ?? '', inputSchema: tool.inputSchema };
}
