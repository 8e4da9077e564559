// A VerbContext for tests of the AI/MCP half, standing in for the scheduler: records events,
// dispatches `mcp:` tool ids to a pool and `nika:` ids to given functions, and filters tool
// schemas with the whitelist glob rules of reference §3.4 (`*` one segment, `**` across `/`,
// `!` negates, later rules win).
import { NikaError, type McpClientPool, type ToolSchema, type VerbContext } from '../../engine/contracts.js';

export interface FakeContextOptions {
  env?: Record<string, string | undefined>;
  pool?: McpClientPool;
  /** `nika:<name>` implementations, with their schema. */
  builtins?: Record<string, { schema?: ToolSchema; run(args: Record<string, unknown>): unknown }>;
  defaultModel?: string;
  modelOverride?: string;
  signal?: AbortSignal;
  taskId?: string;
  index?: number;
}

export type FakeContext = VerbContext & { events: Array<Record<string, any>>; toolCalls: Array<{ id: string; args: Record<string, unknown> }> };

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/:]*';
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export function admitted(id: string, patterns: string[]): boolean {
  let ok = false;
  for (const p of patterns) {
    const neg = p.startsWith('!');
    if (globToRegExp(neg ? p.slice(1) : p).test(id)) ok = !neg;
  }
  return ok;
}

export function fakeContext(opts: FakeContextOptions = {}): FakeContext {
  const events: FakeContext['events'] = [];
  const toolCalls: FakeContext['toolCalls'] = [];
  const signal = opts.signal ?? new AbortController().signal;
  const ctx: FakeContext = {
    runId: 'run-test',
    taskId: opts.taskId ?? 'task',
    index: opts.index,
    signal,
    env: opts.env ?? {},
    defaultModel: opts.defaultModel,
    modelOverride: opts.modelOverride,
    cwd: process.cwd(),
    events,
    toolCalls,
    emit(e) {
      events.push({ ...e, ts: Date.now(), run_id: 'run-test' });
    },
    async callTool(id, args) {
      toolCalls.push({ id, args });
      const m = /^mcp:([^/]+)\/(.+)$/.exec(id);
      if (m) {
        if (!opts.pool) throw new NikaError('NIKA-MCP-001', `no MCP pool in this test context for ${id}`);
        return opts.pool.callTool(m[1]!, m[2]!, args, { signal });
      }
      const b = opts.builtins?.[id];
      if (!b) throw new NikaError('NIKA-INVOKE-001', `unknown tool ${id}`);
      return b.run(args);
    },
    async listToolSchemas(patterns) {
      const out: ToolSchema[] = [];
      for (const [id, b] of Object.entries(opts.builtins ?? {})) {
        if (admitted(id, patterns)) out.push(b.schema ?? { id, description: id, inputSchema: { type: 'object', properties: {} } });
      }
      if (admitted('nika:done', patterns)) out.push({ id: 'nika:done', description: 'done', inputSchema: { type: 'object' } });
      const servers = new Set(patterns.map((p) => /^!?mcp:([^/*]+)\//.exec(p)?.[1]).filter((s): s is string => !!s));
      for (const server of servers) {
        if (!opts.pool) continue;
        for (const t of await opts.pool.listTools(server, signal)) {
          const id = `mcp:${server}/${t.name}`;
          if (admitted(id, patterns)) out.push({ id, description: t.description ?? '', inputSchema: t.inputSchema });
        }
      }
      return out;
    },
  };
  return ctx;
}

export const eventsOf = (ctx: FakeContext, type: string) => ctx.events.filter((e) => e.type === type);
