// An MCP stdio client transport that owns its server's whole process tree. The SDK's own stdio
// transport inherits the parent's stdio for stderr and can only signal the direct child, so a server
// started through `npx`/`uvx`/a shell script would leave its real process behind. Here the server
// runs in its own process group, stderr is kept (a tail for error messages, and a listener for
// the editor's output channel), and close() stops the group.
import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const STDERR_TAIL = 4096;
const GRACE_MS = 1000;
const posix = process.platform !== 'win32';

/** Process groups still alive, killed if the engine process exits without closing them. */
const live = new Set<number>();
let exitHook = false;
function track(pid: number): void {
  live.add(pid);
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const p of live) signalGroup(p, 'SIGKILL');
  });
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(posix ? -pid : pid, sig);
  } catch { /* already gone */ }
}

export interface StdioParams {
  command: string;
  args?: string[];
  env: Record<string, string>;
  cwd?: string;
  onStderr?(text: string): void;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private readonly decoder = new StringDecoder('utf8');
  /** The start of a line whose newline has not arrived yet. */
  private partial: string[] = [];
  private partialLength = 0;
  private tail = '';
  private closed = false;
  private exited?: Promise<void>;
  exit?: { code: number | null; signal: NodeJS.Signals | null };

  constructor(private readonly params: StdioParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  stderrTail(): string {
    return this.tail.trim();
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args ?? [], {
        env: this.params.env,
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: posix,
        windowsHide: true,
      });
      this.child = child;
      let started = false;
      child.once('spawn', () => {
        started = true;
        if (child.pid) track(child.pid);
        resolve();
      });
      child.once('error', (err) => {
        if (!started) return reject(err);
        this.onerror?.(err);
      });
      this.exited = new Promise((r) => child.once('exit', () => r()));
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        // 'close' waits for stdout to drain, which a lingering grandchild can hold open forever;
        // pending calls must fail promptly, so give the pipe a moment and then report the close.
        setTimeout(() => this.finish(), 200).unref();
      });
      child.once('close', () => this.finish());
      child.stdin?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        this.tail = (this.tail + text).slice(-STDERR_TAIL);
        this.params.onStderr?.(text);
      });
    });
  }

  /**
   * One JSON-RPC message per line. Lines are only JSON-parsed here: the SDK's reader also
   * validated each message against the whole JSON-RPC schema, which the client's protocol layer
   * does again when it routes the message (and reports what matches no message type), so a
   * response was validated twice (~2 µs of a ~40 µs call).
   */
  private read(chunk: Buffer): void {
    const text = this.decoder.write(chunk);
    let nl = text.indexOf('\n');
    if (nl === -1) {
      // A long message arrives in many chunks: keep the pieces and join them once, at its end.
      this.partial.push(text);
      this.partialLength += text.length;
      if (this.partialLength > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
        this.partial = [];
        this.partialLength = 0;
        this.stray('', `more than ${STDIO_DEFAULT_MAX_BUFFER_SIZE} characters without a newline (dropped)`);
      }
      return;
    }
    let start = 0;
    if (this.partial.length > 0) {
      this.partial.push(text.slice(0, nl));
      this.line(this.partial.join(''));
      this.partial = [];
      this.partialLength = 0;
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    for (; nl !== -1; nl = text.indexOf('\n', start)) {
      this.line(text.slice(start, nl));
      start = nl + 1;
    }
    if (start < text.length) {
      this.partial.push(text.slice(start));
      this.partialLength = text.length - start;
    }
  }

  private line(raw: string): void {
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      return this.stray(line, `not JSON: ${(e as Error).message}`);
    }
    if (typeof msg !== 'object' || msg === null || (msg as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      return this.stray(line, 'not a JSON-RPC 2.0 message');
    }
    this.onmessage?.(msg as JSONRPCMessage);
  }

  /**
   * A stdout line that is no message (servers that log to stdout): shown with the server's
   * stderr, where a user looks for what the server said, and skipped.
   */
  private stray(line: string, why: string): void {
    const text = `[stdout, ${why}] ${line.length > 500 ? `${line.slice(0, 500)}…` : line}\n`;
    this.tail = (this.tail + text).slice(-STDERR_TAIL);
    this.params.onStderr?.(text);
    this.onerror?.(new Error(`MCP server wrote a stdout line that is ${why}`));
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    const pid = this.child?.pid;
    // The leader is gone; anything it left in its group is an orphan of a stopped server.
    if (pid) {
      signalGroup(pid, 'SIGKILL');
      live.delete(pid);
    }
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) return Promise.reject(new Error('MCP server process is not running'));
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  /** EOF on stdin first (servers exit cleanly on it), then SIGTERM, then SIGKILL, to the whole group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || !child.pid) return;
    const pid = child.pid;
    const wait = (ms: number) => Promise.race([this.exited, new Promise((r) => setTimeout(r, ms).unref())]);
    if (this.exit === undefined) {
      try {
        child.stdin?.end();
      } catch { /* ignore */ }
      await wait(GRACE_MS);
    }
    if (this.exit === undefined) {
      signalGroup(pid, 'SIGTERM');
      await wait(GRACE_MS);
    }
    signalGroup(pid, 'SIGKILL');
    if (this.exit === undefined) await wait(GRACE_MS);
    live.delete(pid);
    this.finish();
  }
}
