// A scripted loopback LLM server speaking two wire formats, so the real `openai` and
// `@anthropic-ai/sdk` clients can be tested (and the extension demoed) without a network:
//   POST /v1/chat/completions   OpenAI chat completions (SSE with `data:` + `[DONE]`, or JSON)
//   POST /v1/messages           Anthropic messages (SSE events message_start … message_stop, or JSON)
//   GET  /v1/models             a one-model list
//   GET  /_requests             the recorded requests (for out-of-process users)
//   POST /_script               body: a step or an array of steps, appended to the queue
//
// Each model request consumes the next scripted step; with an empty queue the server answers
// `loopback(echo) · <last user text>`. Every request is recorded (headers included) so tests can
// assert what an SDK actually sent.
//
// Standalone: node --import tsx test/support/llm-server.ts [--port N] [--script steps.json]
//   steps.json holds an array of steps (or {"steps": [...]}); the URL is printed on stdout.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** An object, or a raw string sent verbatim as the arguments (use it to send broken JSON). */
  args?: Record<string, unknown> | string;
}

export interface ScriptStep {
  /** Assistant text; streamed in `chunks` pieces (default: one piece per word). */
  text?: string;
  /** Explicit stream pieces (their concatenation is the text). */
  chunks?: string[];
  toolCalls?: ScriptedToolCall[];
  usage?: { input_tokens: number; output_tokens: number };
  /** Overrides the stop/finish reason the server reports. */
  stopReason?: string;
  /** Answer with this HTTP error status (429, 500, 401 …) and a provider-shaped error body. */
  status?: number;
  errorMessage?: string;
  headers?: Record<string, string>;
  /** Start streaming, then destroy the connection before the stream ends. */
  reset?: boolean;
  /** Start streaming, then end the response cleanly but without the terminal events. */
  truncate?: boolean;
  /** Answer 200 with a body that is not what the protocol promises. */
  malformed?: boolean;
  /** Never answer (until the client gives up or the server closes). */
  hang?: boolean;
}

export interface RecordedRequest {
  protocol: 'openai' | 'anthropic' | 'other';
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

type Wire = { write(s: string): void; end(): void; reset(): void };

function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function lastUserText(body: any): string {
  const msgs: any[] = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      const t = m.content.filter((b: any) => b?.type === 'text').map((b: any) => b.text).join('');
      if (t) return t;
    }
  }
  return '';
}

const argsText = (a: ScriptedToolCall['args']) => (typeof a === 'string' ? a : JSON.stringify(a ?? {}));

function usageOf(step: ScriptStep, body: any, text: string) {
  return step.usage ?? { input_tokens: Math.max(1, Math.ceil(JSON.stringify(body?.messages ?? '').length / 4)), output_tokens: Math.max(1, Math.ceil(text.length / 4)) };
}

export class LlmServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptStep[] = [];
  private readonly sockets = new Set<Socket>();
  private seq = 0;

  private constructor(private readonly server: Server, readonly port: number) {}

  static async start(opts: { port?: number; script?: ScriptStep[] } = {}): Promise<LlmServer> {
    let self: LlmServer | undefined;
    const server = createServer((req, res) => void self!.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
    });
    const addr = server.address();
    self = new LlmServer(server, typeof addr === 'object' && addr ? addr.port : 0);
    server.on('connection', (s) => {
      self!.sockets.add(s);
      s.on('close', () => self!.sockets.delete(s));
    });
    if (opts.script) self.enqueue(...opts.script);
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  /** What to give the openai SDK as baseURL (and NIKA_<ID>_BASE_URL). */
  get openaiBaseUrl(): string {
    return `${this.url}/v1`;
  }
  /** What to give the anthropic SDK as baseURL (it appends /v1/messages). */
  get anthropicBaseUrl(): string {
    return this.url;
  }

  enqueue(...steps: ScriptStep[]): this {
    this.queue.push(...steps);
    return this;
  }

  /** Drops the steps not consumed yet (a test that failed early must not script the next one). */
  clearQueue(): this {
    this.queue.length = 0;
    return this;
  }

  /** Steps not consumed yet. */
  get pending(): number {
    return this.queue.length;
  }

  /** Model requests only (the ones that consumed a step). */
  modelRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.protocol !== 'other');
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const protocol = path.endsWith('/chat/completions') ? 'openai' : path.endsWith('/messages') ? 'anthropic' : 'other';
    if (path !== '/_requests') this.requests.push({ protocol, method: req.method ?? 'GET', path, headers: { ...req.headers }, body });

    if (path === '/_requests') return json(res, 200, this.requests);
    if (path === '/_script' && req.method === 'POST') {
      this.enqueue(...(Array.isArray(body) ? body : [body]));
      return json(res, 200, { queued: this.queue.length });
    }
    if (path.endsWith('/models') && req.method === 'GET') return json(res, 200, { object: 'list', data: [{ id: 'loopback', object: 'model', owned_by: 'loopback' }] });
    if (protocol === 'other' || req.method !== 'POST') return json(res, 404, { error: { message: `no route ${req.method} ${path}` } });

    const step = this.queue.shift() ?? { text: `loopback(echo) · ${lastUserText(body)}` };
    if (step.hang) return; // left open; close() destroys the socket
    if (step.status) {
      const message = step.errorMessage ?? `scripted HTTP ${step.status}`;
      const errBody = protocol === 'anthropic'
        ? { type: 'error', error: { type: step.status === 429 ? 'rate_limit_error' : step.status >= 500 ? 'api_error' : 'invalid_request_error', message } }
        : { error: { message, type: step.status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } };
      return json(res, step.status, errBody, step.headers);
    }
    if (step.malformed) {
      res.writeHead(200, { 'content-type': body?.stream ? 'text/event-stream' : 'application/json', ...step.headers });
      res.end(body?.stream ? 'data: {not json at all\n\n' : '{"this is": not json');
      return;
    }
    const n = ++this.seq;
    if (!body?.stream) return json(res, 200, protocol === 'openai' ? openaiMessage(step, body, n) : anthropicMessage(step, body, n), step.headers);

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...step.headers });
    const wire: Wire = {
      write: (s) => void res.write(s),
      end: () => res.end(),
      reset: () => res.socket?.destroy(),
    };
    const events = protocol === 'openai' ? openaiEvents(step, body, n) : anthropicEvents(step, body, n);
    // Half the events, then the scripted failure.
    const stopAt = step.reset || step.truncate ? Math.max(1, Math.floor(events.length / 2)) : events.length;
    for (let i = 0; i < stopAt; i++) {
      wire.write(events[i]!);
      await new Promise((r) => setImmediate(r));
    }
    if (step.reset) return wire.reset();
    wire.end();
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function textPieces(step: ScriptStep): string[] {
  return step.chunks ?? words(step.text ?? '');
}

// ---- OpenAI chat completions ----

function openaiMessage(step: ScriptStep, body: any, n: number) {
  const text = textPieces(step).join('');
  const u = usageOf(step, body, text);
  const calls = step.toolCalls ?? [];
  return {
    id: `chatcmpl-${n}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body?.model ?? 'loopback',
    choices: [{
      index: 0,
      message: {
        role: 'assistant', content: text === '' && calls.length ? null : text, refusal: null,
        ...(calls.length ? { tool_calls: calls.map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: argsText(c.args) } })) } : {}),
      },
      finish_reason: step.stopReason ?? (calls.length ? 'tool_calls' : 'stop'),
      logprobs: null,
    }],
    usage: { prompt_tokens: u.input_tokens, completion_tokens: u.output_tokens, total_tokens: u.input_tokens + u.output_tokens },
  };
}

function openaiEvents(step: ScriptStep, body: any, n: number): string[] {
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body?.model ?? 'loopback' };
  const ev = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, finish: string | null = null) => ev([{ index: 0, delta: d, finish_reason: finish, logprobs: null }]);
  const out = [delta({ role: 'assistant', content: '' })];
  const pieces = textPieces(step);
  for (const p of pieces) out.push(delta({ content: p }));
  const calls = step.toolCalls ?? [];
  calls.forEach((c, i) => {
    out.push(delta({ tool_calls: [{ index: i, id: c.id ?? `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: '' } }] }));
    const a = argsText(c.args);
    const mid = Math.ceil(a.length / 2);
    for (const part of [a.slice(0, mid), a.slice(mid)]) if (part) out.push(delta({ tool_calls: [{ index: i, function: { arguments: part } }] }));
  });
  out.push(delta({}, step.stopReason ?? (calls.length ? 'tool_calls' : 'stop')));
  if (body?.stream_options?.include_usage) {
    const u = usageOf(step, body, pieces.join(''));
    out.push(ev([], { usage: { prompt_tokens: u.input_tokens, completion_tokens: u.output_tokens, total_tokens: u.input_tokens + u.output_tokens } }));
  }
  out.push('data: [DONE]\n\n');
  return out;
}

// ---- Anthropic messages ----

function anthropicMessage(step: ScriptStep, body: any, n: number) {
  const text = textPieces(step).join('');
  const u = usageOf(step, body, text);
  const calls = step.toolCalls ?? [];
  const content: unknown[] = [];
  if (text) content.push({ type: 'text', text });
  calls.forEach((c, i) => content.push({ type: 'tool_use', id: c.id ?? `toolu_${n}_${i}`, name: c.name, input: typeof c.args === 'string' ? JSON.parse(c.args) : (c.args ?? {}) }));
  return {
    id: `msg_${n}`, type: 'message', role: 'assistant', model: body?.model ?? 'loopback', content,
    stop_reason: step.stopReason ?? (calls.length ? 'tool_use' : 'end_turn'), stop_sequence: null, usage: u,
  };
}

function anthropicEvents(step: ScriptStep, body: any, n: number): string[] {
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const pieces = textPieces(step);
  const u = usageOf(step, body, pieces.join(''));
  const out = [ev('message_start', {
    message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: body?.model ?? 'loopback', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: u.input_tokens, output_tokens: 1 } },
  })];
  let index = 0;
  if (pieces.length) {
    out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const p of pieces) out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } }));
    out.push(ev('content_block_stop', { index }));
    index++;
  }
  const calls = step.toolCalls ?? [];
  calls.forEach((c, i) => {
    out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: c.id ?? `toolu_${n}_${i}`, name: c.name, input: {} } }));
    const a = argsText(c.args);
    const mid = Math.ceil(a.length / 2);
    for (const part of [a.slice(0, mid), a.slice(mid)]) if (part) out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }));
    out.push(ev('content_block_stop', { index }));
    index++;
  });
  out.push(ev('message_delta', { delta: { stop_reason: step.stopReason ?? (calls.length ? 'tool_use' : 'end_turn'), stop_sequence: null }, usage: { output_tokens: u.output_tokens } }));
  out.push(ev('message_stop', {}));
  return out;
}

// ---- standalone ----

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && /llm-server\.[cm]?[jt]s$/.test(process.argv[1])) {
  const file = arg('--script');
  let script: ScriptStep[] = [];
  if (file) {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    script = Array.isArray(parsed) ? parsed : parsed.steps ?? [];
  }
  LlmServer.start({ port: arg('--port') ? Number(arg('--port')) : 0, script }).then((s) => {
    process.stdout.write(`${s.url}\n`);
    const stop = () => void s.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
