// One dispatcher for every tool call, whether it comes from an `invoke:` task or from an agent's
// loop: parse the id, check the permits boundary, then run the builtin or call the MCP server.
import { BUILTINS, builtinInputSchema } from '../core/catalog/builtins.js';
import { parseToolId, toolAllowed } from '../core/toolid.js';
import { callBuiltin, isImplemented, type BuiltinContext } from './builtins/index.js';
import { NikaError, type McpClientPool, type ToolSchema } from './contracts.js';

export interface ToolHost {
  /** The pool for `mcp:` tools, started on first use; undefined when no server is configured. */
  pool(): McpClientPool | undefined;
}

export interface ToolCallContext extends BuiltinContext {
  host: ToolHost;
  /** Per-call deadline for MCP tools (the task's timeout). */
  timeoutMs?: number;
}

export async function callTool(toolId: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<unknown> {
  const id = parseToolId(toolId);
  if (id.kind === 'invalid') throw new NikaError('NIKA-INVOKE-001', `invalid tool id '${toolId}': ${id.reason}`);
  ctx.boundary.tool(toolId);
  if (id.kind === 'nika') return callBuiltin(id.name, args ?? {}, ctx);
  const pool = ctx.host.pool();
  if (!pool || !(id.server in pool.servers())) {
    throw new NikaError('NIKA-MCP-001', `MCP server '${id.server}' is not configured (add it to .mcp.json, .vscode/mcp.json, nika.mcp.servers or --mcp-config)`);
  }
  try {
    return await pool.callTool(id.server, id.tool, args ?? {}, { signal: ctx.signal, timeoutMs: ctx.timeoutMs });
  } catch (e) {
    if (e instanceof NikaError) throw e;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    throw new NikaError('NIKA-MCP-002', `${toolId} failed: ${(e as Error).message}`);
  }
}

export async function readResource(server: string, uri: string, ctx: ToolCallContext): Promise<unknown> {
  const pool = ctx.host.pool();
  if (!pool || !(server in pool.servers())) throw new NikaError('NIKA-MCP-001', `MCP server '${server}' is not configured`);
  ctx.boundary.tool(`mcp:${server}/resource`);
  try {
    return await pool.readResource(server, uri, ctx.signal);
  } catch (e) {
    if (e instanceof NikaError) throw e;
    throw new NikaError('NIKA-MCP-002', `reading ${uri} from ${server} failed: ${(e as Error).message}`);
  }
}

/**
 * Schemas of the tools an agent may see: the whitelist patterns, cut down to what the permits
 * allow. MCP servers are only started when some pattern could name one of their tools.
 */
export async function listToolSchemas(patterns: string[], ctx: ToolCallContext): Promise<ToolSchema[]> {
  const allowed = (id: string) => toolAllowed(patterns, id) && permitted(id, ctx);
  const out: ToolSchema[] = [];
  for (const spec of BUILTINS.values()) {
    if (!isImplemented(spec.name) || !allowed(spec.id)) continue;
    out.push({ id: spec.id, description: spec.description, inputSchema: builtinInputSchema(spec.name) ?? { type: 'object' } });
  }
  const pool = ctx.host.pool();
  if (!pool) return out;
  const serverGlobs = patterns.filter((p) => p.startsWith('mcp:')).map((p) => serverPart(p.slice(4)));
  for (const server of Object.keys(pool.servers())) {
    if (!serverGlobs.some((g) => g.test(server))) continue;
    let tools;
    try {
      tools = await pool.listTools(server, ctx.signal);
    } catch (e) {
      ctx.emit({ type: 'task_log', task_id: ctx.taskId, index: ctx.index, level: 'warn', message: `MCP server '${server}' is unavailable: ${(e as Error).message}` });
      continue;
    }
    for (const t of tools) {
      const id = `mcp:${server}/${t.name}`;
      if (allowed(id)) out.push({ id, description: t.description ?? '', inputSchema: t.inputSchema ?? { type: 'object' } });
    }
  }
  return out;
}

function permitted(id: string, ctx: ToolCallContext): boolean {
  try { ctx.boundary.tool(id); return true; } catch { return false; }
}

function serverPart(rest: string): RegExp {
  const server = rest.split('/')[0];
  return new RegExp('^' + server.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '[^/]*') + '$');
}
