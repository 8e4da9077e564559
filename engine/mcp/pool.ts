// MCP client pool: one SDK Client per configured server, started on first use, reused for the
// session, stopped with its process tree on close(). Error codes:
//   NIKA-MCP-001  server not configured, disabled, cannot start, or gone (exited mid-call: transient,
//                 a retry restarts it); messages carry the tail of the server's stderr.
//   NIKA-MCP-002  the call failed: `isError` result, protocol error (unknown tool, bad arguments),
//                 or its time cap (transient).
// Timeouts: a call may stay silent for `callTimeoutMs` (progress notifications reset that clock),
// and never runs longer than the caller's `timeoutMs` or `maxTotalTimeoutMs` overall.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../core/ir.js';
import { NikaError, type McpClientPool, type McpToolInfo } from '../contracts.js';
import { abortError } from '../ai/errors.js';
import { contentText, resourceValue, toolValue } from './result.js';
import { GroupStdioTransport } from './stdio-transport.js';

export type McpServerStatus = 'idle' | 'connecting' | 'connected' | 'error' | 'disabled';

export interface McpServerState {
  name: string;
  /** `idle`: configured, not started yet (servers start on first use). */
  status: McpServerStatus;
  error?: string;
  /** Known once listed (listTools, or refresh()). */
  tools?: McpToolInfo[];
  origin?: string;
}

export interface McpPoolOptions {
  /** Where the env floor is read from (default process.env). Children never get more than the floor + their `env`. */
  baseEnv?: Record<string, string | undefined>;
  /** Untrusted workspace: nothing is spawned; every server reports `disabled` with this reason. */
  disabled?: string;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  maxTotalTimeoutMs?: number;
  clientInfo?: { name: string; version: string };
  /** A server's stderr, as it arrives (the editor's output channel). */
  onStderr?(server: string, text: string): void;
}

export const ENV_FLOOR = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME'] as const;

interface Entry {
  name: string;
  config: McpServerConfig;
  state: McpServerState;
  client?: Client;
  transport?: Transport;
  connecting?: Promise<Client>;
}

interface Disposable { dispose(): void }

const ignoreProgress = (): void => undefined;

function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export class McpPool implements McpClientPool {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(states: McpServerState[]) => void>();
  private closed = false;

  constructor(servers: Record<string, McpServerConfig>, private readonly opts: McpPoolOptions = {}) {
    for (const [name, config] of Object.entries(servers)) {
      const state: McpServerState = opts.disabled
        ? { name, status: 'disabled', error: opts.disabled, origin: config.origin }
        : { name, status: 'idle', origin: config.origin };
      this.entries.set(name, { name, config, state });
    }
  }

  servers(): Record<string, McpServerConfig> {
    return Object.fromEntries([...this.entries].map(([n, e]) => [n, e.config]));
  }

  status(): McpServerState[] {
    return [...this.entries.values()].map((e) => ({ ...e.state, tools: e.state.tools ? [...e.state.tools] : undefined }));
  }

  onDidChange(listener: (states: McpServerState[]) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The pid of a started stdio server (for diagnostics and tests). */
  pid(server: string): number | undefined {
    const t = this.entries.get(server)?.transport;
    return t instanceof GroupStdioTransport ? t.pid : undefined;
  }

  /** Starts every server and lists its tools, for the explorer; failures end up in status(). */
  async refresh(signal?: AbortSignal): Promise<McpServerState[]> {
    await Promise.all([...this.entries.keys()].map((n) => this.listTools(n, signal, true).catch(() => undefined)));
    return this.status();
  }

  async listTools(server: string, signal?: AbortSignal, fresh = false): Promise<McpToolInfo[]> {
    const e = this.entry(server);
    if (e.state.tools && !fresh && e.client) return e.state.tools;
    const client = await this.ensure(e, signal);
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.request(e, 'tools/list', signal, () => client.listTools(cursor ? { cursor } : undefined, { signal }));
      for (const t of page.tools) tools.push({ name: t.name, description: t.description, inputSchema: t.inputSchema as Record<string, unknown> });
      cursor = page.nextCursor;
    } while (cursor);
    e.state.tools = tools;
    this.changed();
    return tools;
  }

  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs?: number; onProgress?(p: { progress: number; total?: number; message?: string }): void } = {},
  ): Promise<unknown> {
    let e: Entry;
    try {
      e = this.entry(server);
    } catch (err) {
      return Promise.reject(err);
    }
    // The hot path (a connected server) stays synchronous up to the SDK call: no extra awaits
    // per call, so a pool call costs what a bare SDK call costs plus the result mapping.
    const client = !this.closed && !this.opts.disabled ? e.client : undefined;
    if (!client) return this.ensure(e, opts.signal).then((c) => this.callWith(e, c, tool, args, opts));
    return this.callWith(e, client, tool, args, opts);
  }

  private callWith(
    e: Entry,
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs?: number; onProgress?(p: { progress: number; total?: number; message?: string }): void },
  ): Promise<unknown> {
    const maxTotal = Math.min(opts.timeoutMs ?? Infinity, this.opts.maxTotalTimeoutMs ?? 600_000);
    let call: Promise<Awaited<ReturnType<Client['callTool']>>>;
    try {
      call = client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: Math.min(this.opts.callTimeoutMs ?? 60_000, maxTotal),
        resetTimeoutOnProgress: true,
        maxTotalTimeout: maxTotal,
        // Passing a callback is what makes the SDK ask for progress (and thus keep long calls alive).
        onprogress: opts.onProgress ? (p) => opts.onProgress!(p) : ignoreProgress,
      });
    } catch (err) {
      // The SDK throws synchronously for an already-aborted signal.
      call = Promise.reject(err);
    }
    return call.then(
      (res) => {
        if (res.isError) {
          const text = contentText(res.content) || JSON.stringify(res.structuredContent ?? res.content ?? null);
          throw new NikaError('NIKA-MCP-002', `mcp:${e.name}/${tool} failed: ${text}`, { details: { server: e.name, tool } });
        }
        return toolValue(res);
      },
      (err) => { throw this.requestError(e, tool, opts.signal, err); },
    );
  }

  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<unknown> {
    const e = this.entry(server);
    const client = await this.ensure(e, signal);
    return resourceValue(await this.request(e, `resource ${uri}`, signal, () => client.readResource({ uri }, { signal })));
  }

  async listResources(server: string, signal?: AbortSignal): Promise<Array<{ uri: string; name: string; description?: string; mimeType?: string }>> {
    const e = this.entry(server);
    const client = await this.ensure(e, signal);
    const out: Array<{ uri: string; name: string; description?: string; mimeType?: string }> = [];
    let cursor: string | undefined;
    do {
      const page = await this.request(e, 'resources/list', signal, () => client.listResources(cursor ? { cursor } : undefined, { signal }));
      for (const r of page.resources) out.push({ uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType });
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  async listPrompts(server: string, signal?: AbortSignal): Promise<Array<{ name: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }>> {
    const e = this.entry(server);
    const client = await this.ensure(e, signal);
    const out: Array<{ name: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }> = [];
    let cursor: string | undefined;
    do {
      const page = await this.request(e, 'prompts/list', signal, () => client.listPrompts(cursor ? { cursor } : undefined, { signal }));
      for (const p of page.prompts) out.push({ name: p.name, description: p.description, arguments: p.arguments });
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      [...this.entries.values()].map(async (e) => {
        const pending = e.connecting?.catch(() => undefined);
        await pending;
        const client = e.client;
        e.client = undefined;
        if (client) await client.close().catch(() => undefined);
        else await e.transport?.close().catch(() => undefined);
        e.transport = undefined;
        if (e.state.status === 'connected' || e.state.status === 'connecting') e.state = { ...e.state, status: 'idle' };
      }),
    );
    this.changed();
  }

  // ---- internals ----

  private entry(server: string): Entry {
    const e = this.entries.get(server);
    if (!e) {
      const known = [...this.entries.keys()];
      throw new NikaError('NIKA-MCP-001', `MCP server "${server}" is not configured${known.length ? ` (configured: ${known.join(', ')})` : ''}. Add it to .vscode/mcp.json, .mcp.json, the nika.mcp.servers setting or --mcp-config.`, {
        details: { server },
      });
    }
    return e;
  }

  private changed(): void {
    const states = this.status();
    for (const l of this.listeners) {
      try {
        l(states);
      } catch { /* a listener's failure is not the pool's */ }
    }
  }

  private setState(e: Entry, patch: Partial<McpServerState>): void {
    e.state = { ...e.state, ...patch };
    if (patch.status && patch.status !== 'error') delete e.state.error;
    this.changed();
  }

  private stderrTail(e: Entry): string {
    return e.transport instanceof GroupStdioTransport ? e.transport.stderrTail() : '';
  }

  private withTail(e: Entry, message: string): string {
    const tail = this.stderrTail(e);
    return tail ? `${message}\n--- stderr (last lines) ---\n${tail.split('\n').slice(-15).join('\n')}` : message;
  }

  private ensure(e: Entry, signal?: AbortSignal): Promise<Client> {
    if (this.closed) return Promise.reject(new NikaError('NIKA-MCP-001', `MCP pool is closed; cannot use server "${e.name}"`));
    if (this.opts.disabled) return Promise.reject(new NikaError('NIKA-MCP-001', `MCP server "${e.name}" is disabled: ${this.opts.disabled}`));
    if (e.client) return Promise.resolve(e.client);
    e.connecting ??= this.start(e).finally(() => {
      e.connecting = undefined;
    });
    return abortable(e.connecting, signal);
  }

  private childEnv(config: McpServerConfig): Record<string, string> {
    const base = this.opts.baseEnv ?? process.env;
    const env: Record<string, string> = {};
    for (const k of ENV_FLOOR) if (base[k] !== undefined) env[k] = base[k]!;
    return { ...env, ...(config.env ?? {}) };
  }

  private newClient(): Client {
    return new Client(this.opts.clientInfo ?? { name: 'nika-engine', version: '0.1.0' }, { capabilities: {} });
  }

  private async start(e: Entry): Promise<Client> {
    const { config } = e;
    this.setState(e, { status: 'connecting' });
    const timeout = this.opts.connectTimeoutMs ?? 30_000;
    let client = this.newClient();
    try {
      if (config.url) {
        const url = new URL(config.url);
        const requestInit = { headers: config.headers ?? {} };
        try {
          e.transport = new StreamableHTTPClientTransport(url, { requestInit });
          await withTimeout(client.connect(e.transport), timeout, `MCP server "${e.name}"`);
        } catch {
          // Older servers only speak the 2024-11-05 HTTP+SSE transport.
          await e.transport?.close().catch(() => undefined);
          client = this.newClient();
          e.transport = new SSEClientTransport(url, { requestInit });
          await withTimeout(client.connect(e.transport), timeout, `MCP server "${e.name}"`);
        }
      } else if (config.command) {
        e.transport = new GroupStdioTransport({
          command: config.command,
          args: config.args,
          env: this.childEnv(config),
          cwd: config.cwd,
          onStderr: this.opts.onStderr ? (t) => this.opts.onStderr!(e.name, t) : undefined,
        });
        await withTimeout(client.connect(e.transport), timeout, `MCP server "${e.name}"`);
      } else {
        throw new Error('its definition has neither `command` nor `url`');
      }
    } catch (err) {
      await client.close().catch(() => undefined);
      await e.transport?.close().catch(() => undefined);
      const msg = this.withTail(e, `MCP server "${e.name}" could not start (${config.command ?? config.url ?? '?'}${config.origin ? `, from ${config.origin}` : ''}): ${(err as Error).message}`);
      this.setState(e, { status: 'error', error: msg });
      throw new NikaError('NIKA-MCP-001', msg, { details: { server: e.name } });
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new NikaError('NIKA-MCP-001', `MCP pool closed while server "${e.name}" was starting`);
    }
    client.onclose = () => this.lost(e, client);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (e.client === client) this.listTools(e.name, undefined, true).catch(() => undefined);
    });
    e.client = client;
    this.setState(e, { status: 'connected' });
    return client;
  }

  /** The connection ended without close(): the server exited or the HTTP session died. */
  private lost(e: Entry, client: Client): void {
    if (e.client !== client) return;
    e.client = undefined;
    if (this.closed) return;
    const t = e.transport;
    const exit = t instanceof GroupStdioTransport && t.exit ? ` (exit code ${t.exit.code ?? 'none'}${t.exit.signal ? `, signal ${t.exit.signal}` : ''})` : '';
    this.setState(e, { status: 'error', error: this.withTail(e, `MCP server "${e.name}" stopped${exit}`) });
  }

  private async request<T>(e: Entry, what: string, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw this.requestError(e, what, signal, err);
    }
  }

  private requestError(e: Entry, what: string, signal: AbortSignal | undefined, err: unknown): Error {
    if (signal?.aborted) return abortError(signal);
    if (err instanceof NikaError) return err;
    const code = err instanceof McpError ? err.code : undefined;
    const message = (err as Error)?.message ?? String(err);
    if (code === ErrorCode.ConnectionClosed || (!e.client && code === undefined)) {
      const t = e.transport;
      const exit = t instanceof GroupStdioTransport && t.exit ? ` (exit code ${t.exit.code ?? 'none'}${t.exit.signal ? `, signal ${t.exit.signal}` : ''})` : '';
      return new NikaError('NIKA-MCP-001', this.withTail(e, `MCP server "${e.name}" went away during ${what}${exit}: ${message}`), {
        transient: true,
        details: { server: e.name },
      });
    }
    if (code === ErrorCode.RequestTimeout) {
      return new NikaError('NIKA-MCP-002', `mcp:${e.name} ${what} timed out: ${message}`, { transient: true, details: { server: e.name } });
    }
    return new NikaError('NIKA-MCP-002', `mcp:${e.name} ${what} failed: ${message}`, { details: { server: e.name } });
  }
}
