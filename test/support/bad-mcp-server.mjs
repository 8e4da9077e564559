// An MCP server (the real SDK's Server class over stdio) that misbehaves on command, for fault
// tests. Plain ESM so any test can start it with `node test/support/bad-mcp-server.mjs [mode]`.
//   modes:   (none)        serve normally
//            die-at-start  print a reason on stderr and exit 3 before the handshake
//            hang-at-start never answer the handshake (stdin is read and ignored)
//            ragged-stdout serve normally, but print a log line on stdout first and write every
//                          message with CRLF endings in 5-byte pieces a few ms apart (pieces cut
//                          multi-byte characters; a piece can hold the end of one message and
//                          the start of the next)
//   tools:   ok {text}     answers "ok: <text>"
//            exit          the process exits (code 7) in the middle of the call
//            hang          never answers
//            env {name}    answers the value of an environment variable (secret redaction tests)
//            fail {text}   an isError result carrying the text
//   env:     BAD_MCP_PIDFILE  append "<pid>\n" to this file at start (tests assert the pid is gone)
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const mode = process.argv[2] ?? 'serve';
if (process.env.BAD_MCP_PIDFILE) appendFileSync(process.env.BAD_MCP_PIDFILE, `${process.pid}\n`);

if (mode === 'die-at-start') {
  process.stderr.write('bad-mcp-server: refusing to start (die-at-start)\n');
  process.exit(3);
}
if (mode === 'hang-at-start') {
  process.stdin.on('data', () => undefined);
  setInterval(() => undefined, 1 << 30);
} else {
  const obj = (properties = {}) => ({ type: 'object', properties });
  const tools = [
    { name: 'ok', description: 'Answers ok', inputSchema: obj({ text: { type: 'string' } }) },
    { name: 'exit', description: 'Exits mid-call', inputSchema: obj() },
    { name: 'hang', description: 'Never answers', inputSchema: obj() },
    { name: 'env', description: 'Answers an environment variable', inputSchema: obj({ name: { type: 'string' } }) },
    { name: 'fail', description: 'An isError result', inputSchema: obj({ text: { type: 'string' } }) },
  ];
  if (mode === 'ragged-stdout') raggedStdout();
  const server = new Server({ name: 'bad-mcp-server', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const args = req.params.arguments ?? {};
    switch (req.params.name) {
      case 'ok': return { content: [{ type: 'text', text: `ok: ${args.text ?? ''}` }] };
      case 'exit': setTimeout(() => process.exit(7), 20); return new Promise(() => undefined);
      case 'hang': return new Promise(() => undefined);
      case 'env': return { content: [{ type: 'text', text: `value=${process.env[String(args.name)] ?? ''}` }] };
      case 'fail': return { isError: true, content: [{ type: 'text', text: `failed: ${args.text ?? ''}` }] };
      default: throw new Error(`unknown tool ${req.params.name}`);
    }
  });
  await server.connect(new StdioServerTransport());
}

function raggedStdout() {
  const raw = process.stdout.write.bind(process.stdout);
  raw('bad-mcp-server: a log line on stdout\n');
  let queue = Buffer.alloc(0);
  let flushing = false;
  const flush = () => {
    if (queue.length === 0) { flushing = false; return; }
    raw(queue.subarray(0, 5));
    queue = queue.subarray(5);
    setTimeout(flush, 1);
  };
  process.stdout.write = (chunk, encoding, cb) => {
    const text = Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    queue = Buffer.concat([queue, Buffer.from(text.replace(/\n/g, '\r\n'), 'utf8')]);
    if (!flushing) { flushing = true; setTimeout(flush, 1); }
    (typeof encoding === 'function' ? encoding : cb)?.();
    return true;
  };
}
