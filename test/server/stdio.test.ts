// The language server as an editor talks to it: a child process on stdio, JSON-RPC frames, push
// diagnostics, the nika/toolCatalog notification, and requests answered after hostile input.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOnce } from '../support/processes.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { CompletionList, Hover, PublishDiagnosticsParams, WorkspaceEdit, CodeAction, InitializeResult } from 'vscode-languageserver';
import { applyEdits } from './cursor.js';

const root = join(__dirname, '..', '..');
const URI = 'file:///tmp/stdio-demo.nika.yaml';
const TEXT = [
  'nika: stdio-demo',
  'model: mock/echo',
  'tasks:',
  '  fetch_data:',
  '    invoke:',
  '      tool: mcp:everything/',
  '  summarize:',
  '    after: { fetch_dta: success }',
  '    infer:',
  '      prompt: "${{ tasks.fetch_data.output }}"',
].join('\n');

let proc: ChildProcess;
let conn: MessageConnection;
const published: PublishDiagnosticsParams[] = [];
const waiters: Array<{ uri: string; pred: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }> = [];

function nextDiagnostics(uri: string, pred: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
  const seen = published.find((p) => p.uri === uri && pred(p));
  if (seen) { published.splice(published.indexOf(seen), 1); return Promise.resolve(seen); }
  return new Promise((resolve) => waiters.push({ uri, pred, resolve }));
}

before(async () => {
  buildOnce();
  proc = spawn(process.execPath, ['dist/server.js', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    const w = waiters.find((x) => x.uri === p.uri && x.pred(p));
    if (w) { waiters.splice(waiters.indexOf(w), 1); w.resolve(p); } else published.push(p);
  });
  conn.onNotification('window/logMessage', () => undefined);
  conn.listen();
  const init = await conn.sendRequest<InitializeResult>('initialize', { processId: process.pid, rootUri: null, capabilities: {}, clientInfo: { name: 'test' } });
  assert.ok(init.capabilities.completionProvider?.triggerCharacters?.includes('/'));
  assert.ok(init.capabilities.semanticTokensProvider);
  assert.equal(init.capabilities.diagnosticProvider, undefined, 'push diagnostics for a client without pull support');
  await conn.sendNotification('initialized', {});
});

after(async () => {
  if (!conn) return;
  await conn.sendRequest('shutdown');
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  await conn.sendNotification('exit');
  assert.equal(await exited, 0);
  conn.dispose();
});

test('didOpen publishes diagnostics with Nika codes and precise ranges', async () => {
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'nika', version: 1, text: TEXT } });
  const p = await nextDiagnostics(URI);
  const dag = p.diagnostics.find((d) => d.code === 'NIKA-DAG-002');
  assert.ok(dag, JSON.stringify(p.diagnostics.map((d) => d.code)));
  assert.equal(dag.source, 'nika');
  assert.deepEqual(dag.range, { start: { line: 7, character: 13 }, end: { line: 7, character: 22 } });
});

test('after nika/toolCatalog, completion at a tool: value offers the connected server tools', async () => {
  await conn.sendNotification('nika/toolCatalog', {
    servers: [
      { name: 'everything', status: 'connected', tools: [{ name: 'echo', description: 'Echoes back the input', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } }] },
      { name: 'broken', status: 'error', error: 'spawn ENOENT' },
    ],
  });
  // The catalog change re-validates open documents.
  await nextDiagnostics(URI);
  const list = await conn.sendRequest<CompletionList>('textDocument/completion', { textDocument: { uri: URI }, position: { line: 5, character: 27 } });
  const echo = list.items.find((i) => i.label === 'mcp:everything/echo');
  assert.ok(echo, JSON.stringify(list.items.map((i) => i.label)));
  assert.match((echo.textEdit as { newText: string }).newText, /^mcp:everything\/echo\nargs:\n {2}message: /);
});

test('hover, rename and code action over the wire', async () => {
  const h = await conn.sendRequest<Hover>('textDocument/hover', { textDocument: { uri: URI }, position: { line: 9, character: 27 } });
  assert.match((h.contents as { value: string }).value, /task fetch_data/);

  const prep = await conn.sendRequest<{ placeholder: string }>('textDocument/prepareRename', { textDocument: { uri: URI }, position: { line: 3, character: 4 } });
  assert.equal(prep.placeholder, 'fetch_data');
  const edit = await conn.sendRequest<WorkspaceEdit>('textDocument/rename', { textDocument: { uri: URI }, position: { line: 3, character: 4 }, newName: 'load' });
  const renamed = applyEdits(TEXT, edit.changes![URI]);
  assert.match(renamed, /^ {2}load:$/m);
  assert.match(renamed, /tasks\.load\.output/);
  await assert.rejects(
    conn.sendRequest('textDocument/rename', { textDocument: { uri: URI }, position: { line: 3, character: 4 }, newName: 'Bad-Name' }),
    /not a valid task id/,
  );

  const actions = await conn.sendRequest<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri: URI },
    range: { start: { line: 7, character: 15 }, end: { line: 7, character: 15 } },
    context: { diagnostics: [] },
  });
  const fix = actions.find((a) => /fetch_data/.test(a.title));
  assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
  assert.match(applyEdits(TEXT, fix.edit!.changes![URI]), /after: \{ fetch_data: success \}/);
});

test('hostile documents are answered and the server keeps serving', async () => {
  const bomb = ['nika: bomb', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  const docs: Record<string, string> = {
    'file:///tmp/bomb.nika.yaml': bomb.join('\n') + '\ntasks: { t: { infer: { prompt: hi } } }\n',
    'file:///tmp/deep.nika.yaml': 'nika: deep\ntasks: ' + '['.repeat(3000) + ']'.repeat(3000) + '\n',
    'file:///tmp/big.nika.yaml': 'nika: big\ntasks:\n  a:\n    infer: { prompt: "' + 'x'.repeat(2_000_000) + '" }\n',
    'file:///tmp/junk.nika.yaml': Buffer.from(Array.from({ length: 20000 }, (_, i) => (i * 7919) % 256)).toString('latin1'),
  };
  for (const [uri, text] of Object.entries(docs)) {
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'nika', version: 1, text } });
  }
  for (const uri of Object.keys(docs)) {
    const p = await nextDiagnostics(uri);
    assert.ok(Array.isArray(p.diagnostics));
    const pos = { line: 1, character: 5 };
    const [c, h, s] = await Promise.all([
      conn.sendRequest<CompletionList | null>('textDocument/completion', { textDocument: { uri }, position: pos }),
      conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: pos }),
      conn.sendRequest<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri } }),
    ]);
    assert.ok(c === null || Array.isArray(c.items));
    void h;
    assert.ok(Array.isArray(s.data));
  }
  const big = (await conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri: 'file:///tmp/big.nika.yaml' } })) as unknown[];
  assert.deepEqual(big, []);
  // The first document is still served.
  const h = await conn.sendRequest<Hover>('textDocument/hover', { textDocument: { uri: URI }, position: { line: 9, character: 27 } });
  assert.ok(h);
});

test('a client that declares pull diagnostics gets textDocument/diagnostic instead of pushes', async () => {
  const p = spawn(process.execPath, ['dist/server.js', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const c = createMessageConnection(new StreamMessageReader(p.stdout!), new StreamMessageWriter(p.stdin!));
  let pushed = 0;
  c.onNotification('textDocument/publishDiagnostics', () => { pushed++; });
  c.onNotification('window/logMessage', () => undefined);
  c.listen();
  const init = await c.sendRequest<InitializeResult>('initialize', { processId: process.pid, rootUri: null, capabilities: { textDocument: { diagnostic: { dynamicRegistration: false } } } });
  assert.ok(init.capabilities.diagnosticProvider);
  await c.sendNotification('initialized', {});
  await c.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'nika', version: 1, text: TEXT } });
  const report = await c.sendRequest<{ kind: string; items: Array<{ code: string }> }>('textDocument/diagnostic', { textDocument: { uri: URI } });
  assert.equal(report.kind, 'full');
  assert.ok(report.items.some((d) => d.code === 'NIKA-DAG-002'));
  await c.sendRequest('shutdown');
  const exited = new Promise((resolve) => p.once('exit', resolve));
  await c.sendNotification('exit');
  await exited;
  c.dispose();
  assert.equal(pushed, 0);
});
