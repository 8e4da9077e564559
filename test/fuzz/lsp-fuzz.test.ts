// Fuzzing the language server: mutated examples/fixtures and hostile documents, followed by every
// request an editor sends at random positions. Two drivers:
//   - in-process volume: feature functions called directly, in a forked child with a watchdog;
//   - the real server over stdio (dist/server.js) with an ordinary JSON-RPC client, for a subset,
//     including incremental edits.
// Passing means: no crash (process alive), no hang (every answer within ANSWER_MS, enforced by a
// timer that fails the test), no internal error (no exception, no NIKA-IMPL-*, no JSON-RPC error,
// no "failed" line in the server log).
// CI: fixed seed, a few hundred documents. Locally: FUZZ_DOCS=5000 FUZZ_SEED=123 node test/run.mjs fuzz
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOnce } from '../support/processes.js';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';
import { LineIndex } from '../../core/text.js';
import { FUZZ_CATALOG, fuzzCorpus, hostileDocs, prng, randomOffset, ROOT, type FuzzDoc } from './corpus.js';

const SEED = Number(process.env.FUZZ_SEED ?? 8);
const DOCS = Number(process.env.FUZZ_DOCS ?? 300);
const LSP_DOCS = Number(process.env.FUZZ_LSP_DOCS ?? Math.max(60, Math.round(DOCS / 5)));
/** A generous bound for one answer (analysis included): missing it is a hang. */
const ANSWER_MS = Number(process.env.FUZZ_ANSWER_MS ?? 5000);

/** Keeps a failing document on disk so it can be replayed by hand. */
function keep(doc: FuzzDoc, why: string): string {
  const dir = join(tmpdir(), 'nika-fuzz-failures');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${doc.label.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 80)}.nika.yaml`);
  writeFileSync(file, doc.text);
  return `${why}\n  document: ${doc.label} (seed ${SEED}) saved to ${file}`;
}

test(`in-process: ${DOCS} documents × every feature at random positions (seed ${SEED})`, { timeout: 30 * 60_000 }, async () => {
  const docs = fuzzCorpus(DOCS, SEED);
  const child = fork(join(__dirname, 'inproc-driver.ts'), [], {
    execArgv: ['--import', 'tsx', '--stack-size=984'],
    env: { ...process.env, FUZZ_DOCS: String(DOCS), FUZZ_SEED: String(SEED) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const result = await new Promise<{ docs: number; requests: number; failures: Array<{ doc: number; label: string; step: string; error: string }> }>((resolve, reject) => {
    let current = -1;
    let step = 'analyze';
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      // Bounded per document: every feature at every position must fit. Missing it fails the test.
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(keep(docs[current] ?? { label: '?', text: '' }, `hang: ${step} on document ${current} unanswered after ${ANSWER_MS} ms`)));
      }, ANSWER_MS);
    };
    arm();
    child.on('message', (m: { type: string; i?: number; docs?: number; requests?: number; failures?: never[] }) => {
      if (m.type === 'start') { current = m.i!; step = 'analyze'; arm(); }
      if (m.type === 'step') { step = (m as { step?: string }).step!; arm(); }
      if (m.type === 'done') { clearTimeout(timer); resolve(m as never); }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(keep(docs[current] ?? { label: '?', text: '' }, `crash: driver exited (${code ?? signal}) on document ${current}`)));
    });
  });
  const report = result.failures.slice(0, 10).map((f) => keep(docs[f.doc] ?? { label: f.label, text: '' }, `${f.step}: ${f.error.split('\n').slice(0, 6).join('\n    ')}`));
  assert.equal(result.failures.length, 0, `${result.failures.length} internal errors:\n${report.join('\n')}`);
  assert.equal(result.docs, docs.length);
  assert.ok(result.requests > docs.length * 10, `only ${result.requests} requests`);
});

// ---- the real server over stdio ----

let proc: ChildProcess;
let conn: MessageConnection;
let exited: string | undefined;
const serverErrors: string[] = [];
const waiters = new Map<string, { version: number; resolve: (p: PublishDiagnosticsParams) => void }>();

before(() => {
  buildOnce();
});

after(async () => {
  if (!conn || exited) return;
  const gone = new Promise((r) => proc.once('exit', r));
  try {
    await bounded('shutdown', conn.sendRequest('shutdown'));
    await conn.sendNotification('exit');
    await bounded('exit', gone);
  } catch {
    // A server still chewing on a failing document: the test already failed, don't wait for it.
    proc.kill('SIGKILL');
  }
  conn.dispose();
});

/** Rejects when the answer takes longer than ANSWER_MS: a hang fails the test instead of stalling it. */
function bounded<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const t = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`hang: ${what} unanswered after ${ANSWER_MS} ms`)), ANSWER_MS); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function diagnosticsFor(uri: string, version: number): Promise<PublishDiagnosticsParams> {
  return new Promise((resolve) => waiters.set(uri, { version, resolve }));
}

test(`over stdio: ${LSP_DOCS} documents opened, edited and queried through the real server (seed ${SEED})`, { timeout: 10 * 60_000 }, async () => {
  proc = spawn(process.execPath, ['dist/server.js', '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => { stderr += d; });
  proc.on('exit', (code, signal) => { exited = `server exited (${code ?? signal}): ${stderr.slice(-2000)}`; });
  conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    const w = waiters.get(p.uri);
    if (w && p.version === w.version) { waiters.delete(p.uri); w.resolve(p); }
  });
  // The server catches a throwing feature and logs it as an error: that is an internal error here.
  conn.onNotification('window/logMessage', (m: { type: number; message: string }) => { if (m.type === 1) serverErrors.push(m.message); });
  conn.listen();
  await bounded('initialize', conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, clientInfo: { name: 'fuzz' } }));
  await conn.sendNotification('initialized', {});
  await conn.sendNotification('nika/toolCatalog', FUZZ_CATALOG);

  const r = prng(SEED ^ 0x5eed);
  const hostile = hostileDocs();
  const docs = [...hostile, ...fuzzCorpus(LSP_DOCS + hostile.length, SEED + 1).slice(hostile.length)].slice(0, Math.max(LSP_DOCS, hostile.length));
  let requests = 0;
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i]!;
    const uri = `file:///fuzz/${i}.nika.yaml`;
    const fail = (e: unknown) => { throw new Error(keep(doc, `${(e as Error).message}${exited ? `\n  ${exited}` : ''}`)); };
    try {
      let text = doc.text;
      let version = 1;
      const published = diagnosticsFor(uri, version);
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'nika', version, text } });
      await bounded('diagnostics after didOpen', published);
      // Incremental edits the way an editor sends them (ranges in UTF-16 positions), then the next round of requests.
      for (let round = 0; round < 2; round++) {
        const lines = new LineIndex(text);
        const off = randomOffset(text, r);
        const end = Math.min(text.length, off + (r.next() < 0.5 ? 0 : r.int(12)));
        const insert = r.pick(['${{ ', '}}', ': ', '\n  - ', '\t', '\r\n', 'é😀', '', 'tasks.', 'x']);
        const range = { start: lines.positionAt(off), end: lines.positionAt(end) };
        text = text.slice(0, off) + insert + text.slice(end);
        version++;
        const republished = diagnosticsFor(uri, version);
        await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: insert }] });
        const p = await bounded(`diagnostics after edit ${round}`, republished);
        assert.ok(p.diagnostics.every((d: Diagnostic) => typeof d.code === 'string' && !String(d.code).startsWith('NIKA-IMPL-')), JSON.stringify(p.diagnostics.filter((d) => String(d.code).startsWith('NIKA-IMPL'))));
        const now = new LineIndex(text);
        const calls: Array<[string, unknown]> = [['textDocument/documentSymbol', { textDocument: { uri } }], ['textDocument/semanticTokens/full', { textDocument: { uri } }], ['textDocument/foldingRange', { textDocument: { uri } }]];
        for (let k = 0; k < 3; k++) {
          const position = now.positionAt(randomOffset(text, r));
          calls.push(
            ['textDocument/completion', { textDocument: { uri }, position }],
            ['textDocument/hover', { textDocument: { uri }, position }],
            ['textDocument/definition', { textDocument: { uri }, position }],
            ['textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }],
            ['textDocument/documentHighlight', { textDocument: { uri }, position }],
            ['textDocument/codeAction', { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: p.diagnostics.slice(0, 5) } }],
          );
        }
        // One at a time, so each answer gets the whole bound (the server answers in order).
        for (const [m, params] of calls) {
          await bounded(`${m} on ${doc.label}`, conn.sendRequest(m, params).catch((e: Error) => { throw new Error(`JSON-RPC error from ${m}: ${e.message}`); }));
        }
        requests += calls.length;
      }
      waiters.delete(uri);
      await conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
      assert.equal(exited, undefined);
      assert.deepEqual(serverErrors, []);
    } catch (e) {
      fail(e);
    }
  }
  assert.equal(exited, undefined, 'the server is alive at the end');
  assert.deepEqual(serverErrors, [], 'no feature failed inside the server');
  assert.ok(requests >= docs.length * 20);
});
