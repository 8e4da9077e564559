// Language servers side by side over stdio, as an editor drives them: ours (dist/server.js),
// yaml-language-server given our JSON Schema, and the floor (the `yaml` library parsing the same
// text in this process). One fresh server process per (server, size).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { parseDocument } from 'yaml';
import { generateWorkflow, editPoint } from './generate.js';
import { cpuMs, median, percentile, rssMiB } from './stats.js';
import { SERVER_EXEC_ARGV } from '../server/launch.js';

export interface LspFigures {
  server: string;
  tasks: number;
  openMs: number;
  /** didChange → publishDiagnostics for that change (median, p95). */
  editMs: number;
  editP95: number;
  /** Server CPU per edit (user+system, averaged over all edits). */
  editCpuMs: number;
  toolP50: number;
  toolP95: number;
  tasksP50: number;
  tasksP95: number;
  rss: number;
  peakRss: number;
  diagnostics: number;
  /** didChange → publishDiagnostics while the task typed in has a YAML error (median). */
  brokenEditMs: number;
}

export interface FloorFigures { tasks: number; parseMs: number; bytes: number }

const root = join(__dirname, '..');
const SCHEMA = pathToFileURL(join(root, 'schemas', 'workflow.schema.json')).href;
const CATALOG = {
  servers: [{ name: 'everything', status: 'connected', tools: [{ name: 'echo', description: 'Echoes back the input', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } }] }],
};

interface Sut { name: string; argv: string[]; initializationOptions?: unknown; settings?: unknown }

export const SERVERS: Sut[] = [
  // Started as the extension starts it (server/launch.ts).
  { name: 'nika', argv: [...SERVER_EXEC_ARGV, join(root, 'dist', 'server.js'), '--stdio'], initializationOptions: { catalog: CATALOG } },
  {
    name: 'yaml-language-server',
    argv: [join(root, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server'), '--stdio'],
    settings: { yaml: { validate: true, completion: true, hover: true, format: { enable: false }, schemas: { [SCHEMA]: ['*.nika.yaml'] }, schemaStore: { enable: false }, maxItemsComputed: 5000 } },
  },
];

/** The benchmark text: the generated workflow without its modeline (each server is configured instead). */
export function benchText(tasks: number): string {
  return generateWorkflow(tasks).replace(/^# yaml-language-server:.*\n/, '');
}

export function floor(tasks: number, runs = 7): FloorFigures {
  const text = benchText(tasks);
  parseDocument(text);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    parseDocument(text);
    xs.push(performance.now() - t);
  }
  return { tasks, parseMs: median(xs), bytes: Buffer.byteLength(text) };
}

function positionOf(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) { line++; start = i + 1; }
  return { line, character: offset - start };
}

/** Offsets for the two completion points, both on lines before the edit point. */
function completionPoints(text: string, edit: number): { tool: number; tasks: number } {
  const tool = text.lastIndexOf('tool: "', edit) + 'tool: "'.length;
  const tasks = text.lastIndexOf('${{ tasks.', edit) + '${{ tasks.'.length;
  return { tool, tasks };
}

class Client {
  proc: ChildProcess;
  conn: MessageConnection;
  private waiters: Array<(p: { uri: string; version?: number; diagnostics: unknown[] }) => boolean> = [];
  constructor(readonly sut: Sut, dir: string) {
    this.proc = spawn(process.execPath, sut.argv, { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] });
    this.conn = createMessageConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.conn.onNotification('textDocument/publishDiagnostics', (p) => {
      this.waiters = this.waiters.filter((w) => !w(p));
    });
    this.conn.onNotification(() => undefined);
    this.conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
      p.items.map((it) => (it.section ? (this.sut.settings as Record<string, unknown> | undefined)?.[it.section.split('.')[0]] ?? null : this.sut.settings ?? null)));
    this.conn.onRequest(() => null);
    this.conn.listen();
  }
  get pid(): number { return this.proc.pid!; }
  /** Resolves with the next diagnostics for `uri` (for `version` when the server reports versions). */
  diagnostics(uri: string, version?: number): Promise<{ diagnostics: unknown[] }> {
    return new Promise((resolve) => {
      this.waiters.push((p) => {
        if (p.uri !== uri) return false;
        if (version !== undefined && p.version !== undefined && p.version !== version) return false;
        resolve(p);
        return true;
      });
    });
  }
  async start(rootUri: string): Promise<void> {
    await this.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'bench' }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
        textDocument: {
          synchronization: { didSave: false, dynamicRegistration: false },
          publishDiagnostics: { versionSupport: true },
          // As VS Code's client (vscode-languageclient 11) advertises them: LSP 3.17 item defaults,
          // details and documentation resolved when an item is shown.
          completion: {
            completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'], insertReplaceSupport: true, labelDetailsSupport: true, resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] } },
            contextSupport: true, completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] },
          },
        },
      },
      initializationOptions: this.sut.initializationOptions,
      clientInfo: { name: 'nika-bench' },
    });
    await this.conn.sendNotification('initialized', {});
    if (this.sut.settings) await this.conn.sendNotification('workspace/didChangeConfiguration', { settings: this.sut.settings });
  }
  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.conn.sendNotification('exit');
    } catch { /* already gone */ }
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    this.conn.dispose();
  }
}

export async function measureServer(sut: Sut, tasks: number, opts: { edits?: number; completions?: number; brokenEdits?: number } = {}): Promise<LspFigures> {
  const edits = opts.edits ?? 30;
  const brokenEdits = opts.brokenEdits ?? 20;
  const completions = opts.completions ?? 30;
  const dir = join('/tmp', 'nika-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${tasks}.nika.yaml`);
  const text = benchText(tasks);
  writeFileSync(file, text);
  const uri = pathToFileURL(file).href;
  const client = new Client(sut, dir);
  await client.start(pathToFileURL(dir).href);

  let version = 1;
  let t = performance.now();
  const opened = client.diagnostics(uri);
  await client.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: sut.name === 'nika' ? 'nika' : 'yaml', version, text } });
  const first = await opened;
  const openMs = performance.now() - t;

  // Keystrokes insert 'x' at one point, one after the other on its line, and both completion
  // points are above it: every position is known from the start, and the bench never rebuilds
  // the text (a new 150 KB string per keystroke made its own garbage collector part of the timings).
  const at = editPoint(text);
  const points = completionPoints(text, at);
  const typing = positionOf(text, at);
  const toolAt = positionOf(text, points.tool);
  const tasksAt = positionOf(text, points.tasks);
  // Whatever the client itself computes happens before a timer starts: the figures are the
  // server's and the transport's.
  const keystroke = (cursor = typing) => {
    const pos = { line: cursor.line, character: cursor.character++ };
    version++;
    const v = version;
    return async (): Promise<number> => {
      await client.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [{ range: { start: pos, end: pos }, text: 'x' }],
      });
      return v;
    };
  };
  const type = (): Promise<number> => keystroke()();

  // Warm-up: the JIT and any lazy caches get the same chance in every server.
  for (let i = 0; i < 10; i++) {
    const v = await type();
    await client.diagnostics(uri, v);
  }

  const editTimes: number[] = [];
  const cpu0 = cpuMs(client.pid);
  for (let i = 0; i < edits; i++) {
    const send = keystroke();
    const done = client.diagnostics(uri, version);
    t = performance.now();
    await send();
    await done;
    editTimes.push(performance.now() - t);
  }
  const editCpuMs = (cpuMs(client.pid) - cpu0) / edits;

  // Keystroke then completion: the completion pays for whatever the edit left to do.
  const complete = async (position: { line: number; character: number }): Promise<number> => {
    const v = await type();
    const drained = client.diagnostics(uri, v);
    const s = performance.now();
    await client.conn.sendRequest('textDocument/completion', { textDocument: { uri }, position, context: { triggerKind: 1 } });
    const ms = performance.now() - s;
    await drained;
    return ms;
  };
  // Warm-up, as for edits: the first requests of a kind pay for compiling its code paths.
  for (let i = 0; i < 5; i++) {
    await complete(toolAt);
    await complete(tasksAt);
  }
  const toolTimes: number[] = [];
  const tasksTimes: number[] = [];
  for (let i = 0; i < completions; i++) {
    toolTimes.push(await complete(toolAt));
    tasksTimes.push(await complete(tasksAt));
  }
  // Typing while a task has a YAML error: a line with an unclosed flow map goes in below the
  // typing line (same task), and keystrokes land at its end. Taken last: memory is read first.
  const mem = rssMiB(client.pid);
  const lineRest = text.indexOf('\n', at) - at;
  const brokenLine = '    with: { a: 1';
  {
    version++;
    const v = version;
    const done = client.diagnostics(uri, v);
    await client.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line: typing.line, character: typing.character + lineRest }, end: { line: typing.line, character: typing.character + lineRest } }, text: `\n${brokenLine}` }],
    });
    await done;
  }
  const brokenAt = { line: typing.line + 1, character: brokenLine.length };
  const brokenTimes: number[] = [];
  for (let i = 0; i < 5 + brokenEdits; i++) {
    const send = keystroke(brokenAt);
    const done = client.diagnostics(uri, version);
    t = performance.now();
    await send();
    const p = await done;
    if (i >= 5) brokenTimes.push(performance.now() - t);
    if (i === 0 && !/flow map/i.test(JSON.stringify(p.diagnostics))) console.error(`[bench] ${sut.name} reports no error for the unclosed flow map: ${JSON.stringify(p.diagnostics).slice(0, 300)}`);
  }
  await client.stop();
  return {
    server: sut.name, tasks, openMs,
    editMs: median(editTimes), editP95: percentile(editTimes, 95), editCpuMs,
    toolP50: median(toolTimes), toolP95: percentile(toolTimes, 95),
    tasksP50: median(tasksTimes), tasksP95: percentile(tasksTimes, 95),
    rss: mem.rss, peakRss: mem.peak, diagnostics: first.diagnostics.length,
    brokenEditMs: median(brokenTimes),
  };
}
