// `nika-run mcp list [--json]`: every configured server, started once to list its tools.
import { loadMcpConfig } from '../engine/mcp/config.js';
import { McpPool } from '../engine/mcp/pool.js';
import { preview, styler } from './style.js';

export async function mcpList(opts: { json: boolean; mcpConfig?: string; file?: string }): Promise<number> {
  const root = process.cwd();
  const { servers, problems } = loadMcpConfig({ configFile: opts.mcpConfig, workspaceRoot: root, env: process.env });
  const pool = new McpPool(servers, { baseEnv: process.env, connectTimeoutMs: 30_000 });
  let states;
  try {
    states = await pool.refresh();
  } finally {
    await pool.close();
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify({
      servers: states.map((st) => ({ name: st.name, status: st.status === 'idle' ? 'error' : st.status, origin: st.origin, ...(st.error ? { error: st.error } : {}), tools: (st.tools ?? []).map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema })) })),
      problems,
    }) + '\n');
    return 0;
  }
  const s = styler(process.stdout);
  for (const p of problems) process.stderr.write(`${s.yellow('warning')} ${p.message}\n`);
  if (states.length === 0) {
    process.stdout.write(`no MCP servers configured (looked for --mcp-config, .vscode/mcp.json and .mcp.json in ${root})\n`);
    return 0;
  }
  for (const st of states) {
    const mark = st.status === 'connected' ? s.green('●') : st.status === 'disabled' ? s.dim('○') : s.red('✗');
    process.stdout.write(`${mark} ${s.bold(st.name)} ${s.dim(`${st.status}${st.origin ? ` · ${st.origin}` : ''}`)}${st.error ? ` ${s.red(st.error)}` : ''}\n`);
    for (const t of st.tools ?? []) process.stdout.write(`    mcp:${st.name}/${t.name} ${s.dim(preview(t.description ?? '', 90))}\n`);
  }
  return 0;
}
