// The SSRF floor of nika:fetch through the CLI: loopback, private, link-local/metadata, CGNAT and
// IPv6 local addresses are refused in every spelling (decimal, hex, octal, short, IPv4-mapped
// IPv6 in its mapped, compatible, NAT64 and 6to4 forms, trailing dot), for DNS names resolving to them, and on redirects, unless the exact host
// is granted. Loopback HTTP servers count requests: a refusal must happen before any arrives.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildOnce, runCli, writeWorkflow } from '../support/processes.js';

interface Target { server: Server; port: number; hits: string[] }
let a: Target;
let b: Target;

async function target(handler?: (path: string) => { status: number; location?: string }): Promise<Target> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const h = handler?.(req.url ?? '/') ?? { status: 200 };
    res.writeHead(h.status, { 'content-type': 'text/plain', ...(h.location ? { location: h.location } : {}) });
    res.end('reached');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

before(async () => {
  buildOnce();
  b = await target();
  a = await target((path) => {
    const to = new URLSearchParams(path.split('?')[1] ?? '').get('to');
    return to ? { status: 302, location: to } : { status: 200 };
  });
});
after(() => { a.server.close(); b.server.close(); });

function fetchWorkflow(hosts: string[], urls: string[]): string {
  return writeWorkflow(`nika: ssrf
model: mock/echo
inputs:
${urls.map((_, i) => `  u${i}: { type: string }`).join('\n')}
permits:
  net: { http: ${JSON.stringify(hosts)} }
  tools: ["nika:fetch"]
tasks:
${urls.map((_, i) => `  f${i}: { invoke: { tool: "nika:fetch", args: { url: "\${{ inputs.u${i} }}", mode: raw } } }`).join('\n')}
`);
}

async function fetchAll(hosts: string[], urls: string[]) {
  const r = await runCli(['run', fetchWorkflow(hosts, urls), '--json', ...urls.flatMap((u, i) => ['--var', `u${i}=${u}`])]);
  const last = r.events.at(-1);
  assert.ok(last?.tasks, `exit ${r.code}\n${r.out}${r.err}`);
  return urls.map((url, i) => ({ url, ...(last.tasks[`f${i}`] as { status: string; output?: unknown; error?: { code: string; message: string } }) }));
}

test('every spelling of a loopback, private or metadata address is refused with NIKA-SEC-005 before a request is made', { timeout: 60_000 }, async () => {
  const p = a.port;
  const urls = [
    `http://127.0.0.1:${p}/`, `http://localhost:${p}/`, `http://LOCALHOST:${p}/`, `http://0x7f000001.:${p}/`,
    `http://2130706433:${p}/`, `http://0x7f000001:${p}/`, `http://0x7f.0.0.1:${p}/`, `http://0177.0.0.1:${p}/`, `http://127.1:${p}/`, `http://127.0.0.2:${p}/`,
    `http://0.0.0.0:${p}/`, `http://0:${p}/`,
    `http://[::1]:${p}/`, `http://[::]:${p}/`, `http://[0:0:0:0:0:0:0:1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`, `http://[::ffff:7f00:1]:${p}/`, `http://[0:0:0:0:0:ffff:7f00:1]:${p}/`, `http://[::ffff:169.254.169.254]/`,
    `http://[::127.0.0.1]:${p}/`, 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a9fe:a9fe::1]/',
    'http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/', 'http://[fd00::1]/', 'http://[fc00::1]/',
    'http://10.0.0.1/', 'http://172.16.0.1/', 'http://172.31.255.255/', 'http://192.168.1.1/', 'http://100.64.0.1/',
    'http://224.0.0.1/', 'http://[ff02::1]/',
  ];
  const results = await fetchAll(['*'], urls);
  const wrong = results.filter((x) => x.error?.code !== 'NIKA-SEC-005').map((x) => `${x.url} → ${x.status} ${x.error?.code ?? ''} ${x.error?.message ?? JSON.stringify(x.output)}`);
  assert.deepEqual(wrong, [], 'refused with NIKA-SEC-005');
  assert.deepEqual(a.hits, [], 'no request reached the loopback server');
});

test('an exactly granted loopback host is reachable; a redirect from it to any other local spelling is refused before the hop', { timeout: 60_000 }, async () => {
  a.hits.length = 0;
  b.hits.length = 0;
  const q = b.port;
  const hops = [`http://localhost:${q}/`, `http://[::ffff:127.0.0.1]:${q}/`, `http://[::1]:${q}/`, `http://127.0.0.2:${q}/`, 'http://169.254.169.254/latest/'];
  const urls = [`http://127.0.0.1:${a.port}/plain`, ...hops.map((h) => `http://127.0.0.1:${a.port}/r?to=${encodeURIComponent(h)}`)];
  const results = await fetchAll(['127.0.0.1', '*'], urls);
  assert.equal(results[0]!.status, 'success', JSON.stringify(results[0]));
  assert.equal(results[0]!.output, 'reached');
  const wrong = results.slice(1).filter((x) => x.error?.code !== 'NIKA-SEC-005' && x.error?.code !== 'NIKA-SEC-004').map((x) => `${x.url} → ${x.status} ${JSON.stringify(x.error ?? x.output)}`);
  assert.deepEqual(wrong, [], 'every redirect hop to a local address is refused');
  assert.equal(a.hits.length, urls.length, 'the granted host was asked once per task');
  assert.deepEqual(b.hits, [], 'no redirect reached the second server');
});

test('a host outside permits.net.http is refused with NIKA-SEC-004, and a literal local URL is refused by the check', { timeout: 60_000 }, async () => {
  a.hits.length = 0;
  const results = await fetchAll(['example.com'], [`http://127.0.0.1:${a.port}/`]);
  assert.equal(results[0]!.error?.code, 'NIKA-SEC-004');
  const literal = writeWorkflow(`nika: ssrf-literal
model: mock/echo
permits: { net: { http: ["*"] }, tools: ["nika:fetch"] }
tasks:
  meta: { invoke: { tool: "nika:fetch", args: { url: "http://169.254.169.254/latest/meta-data/" } } }
`);
  const r = await runCli(['run', literal]);
  assert.equal(r.code, 2, r.out + r.err);
  assert.match(r.err, /NIKA-SEC-005/);
  assert.deepEqual(a.hits, []);
});
