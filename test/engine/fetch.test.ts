// nika:fetch against a loopback server: modes, HTTP errors, the SSRF floor and its exact-host lift.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runYaml } from '../cli/helpers.js';

let server: Server;
let base = '';
const PAGE = `<!doctype html><html lang="en"><head><title>Tide &amp; Co</title>
<meta name="description" content="All about tides"><meta property="og:title" content="Tides"></head>
<body><nav>menu</nav><h1>Tides</h1><p>The <strong>moon</strong> pulls the <a href="/sea">sea</a>.</p>
<ul><li>high</li><li>low</li></ul><script>alert(1)</script></body></html>`;

before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/page') { res.setHeader('content-type', 'text/html'); res.end(PAGE); return; }
    if (req.url === '/data') { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ items: [{ n: 1 }, { n: 2 }] })); return; }
    if (req.url === '/echo' && req.method === 'POST') { let b = ''; req.on('data', (c) => (b += c)); req.on('end', () => res.end(`got ${b}`)); return; }
    if (req.url === '/hop') { res.statusCode = 302; res.setHeader('location', '/data'); res.end(); return; }
    res.statusCode = 404;
    res.end('not here');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const fetchWf = (args: string, hosts = '["127.0.0.1"]') => `nika: t
permits:
  net: { http: ${hosts} }
  tools: ["nika:fetch"]
tasks:
  f:
    invoke: { tool: "nika:fetch", args: ${args} }
`;

async function fetchOut(args: string, hosts?: string) {
  return (await runYaml(fetchWf(args, hosts))).result.tasks.f;
}

test('modes: markdown (default), text, raw, links, metadata, jq; redirects are followed', async () => {
  const md = (await fetchOut(`{ url: "${base}/page" }`)).output as string;
  assert.match(md, /^# Tides/m);
  assert.match(md, /The \*\*moon\*\* pulls the \[sea\]\(http:\/\/127\.0\.0\.1:\d+\/sea\)\./);
  assert.match(md, /- high/);
  assert.doesNotMatch(md, /alert/);
  assert.doesNotMatch((await fetchOut(`{ url: "${base}/page", mode: text }`)).output as string, /<|alert/);
  assert.match((await fetchOut(`{ url: "${base}/page", mode: raw }`)).output as string, /<h1>Tides<\/h1>/);
  assert.deepEqual((await fetchOut(`{ url: "${base}/page", mode: links }`)).output, [{ text: 'sea', url: `${base}/sea` }]);
  const meta = (await fetchOut(`{ url: "${base}/page", mode: metadata }`)).output as Record<string, unknown>;
  assert.equal(meta.title, 'Tide & Co');
  assert.equal(meta.description, 'All about tides');
  assert.equal(meta.lang, 'en');
  assert.deepEqual((await fetchOut(`{ url: "${base}/hop", mode: jq, jq: "[.items[].n]" }`)).output, [1, 2]);
  assert.equal((await fetchOut(`{ url: "${base}/echo", method: POST, body: "ping", mode: raw }`)).output, 'got ping');
});

test('a non-2xx answer is NIKA-BUILTIN-FETCH-001', async () => {
  const r = await fetchOut(`{ url: "${base}/missing" }`);
  assert.equal(r.error?.code, 'NIKA-BUILTIN-FETCH-001');
  assert.match(r.error!.message, /404/);
});

test('the SSRF floor refuses loopback, private and metadata addresses unless the exact host is granted', async () => {
  assert.equal((await fetchOut(`{ url: "${base}/page" }`, '["*"]')).error?.code, 'NIKA-SEC-005');
  assert.equal((await fetchOut('{ url: "http://169.254.169.254/latest/meta-data" }', '["*"]')).error?.code, 'NIKA-SEC-005');
  assert.equal((await fetchOut('{ url: "http://10.1.2.3/" }', '["*"]')).error?.code, 'NIKA-SEC-005');
  assert.equal((await fetchOut('{ url: "http://[::1]/" }', '["*"]')).error?.code, 'NIKA-SEC-005');
  assert.equal((await fetchOut('{ url: "http://[fd00::1]/" }', '["*"]')).error?.code, 'NIKA-SEC-005');
  assert.equal((await fetchOut('{ url: "http://localhost:9/" }', '["*"]')).error?.code, 'NIKA-SEC-005', 'localhost resolves to loopback');
});

test('hosts outside permits.net.http are refused with NIKA-SEC-004; code-bearing URLs with NIKA-SEC-008', async () => {
  assert.equal((await fetchOut('{ url: "https://example.com/" }')).error?.code, 'NIKA-SEC-004');
  assert.equal((await fetchOut(`{ url: "${base}/install.sh" }`)).error?.code, 'NIKA-SEC-008');
});
