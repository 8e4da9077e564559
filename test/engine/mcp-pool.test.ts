// The pool against real MCP servers from npm, over real stdio and HTTP.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpPool, type McpServerState } from '../../engine/mcp/pool.js';
import { NikaError } from '../../engine/contracts.js';
import { alive, childPids, everythingConfig, filesystemConfig, memoryConfig, startEverythingHttp, wrappedEverythingConfig } from '../support/mcp-servers.js';

const pools: McpPool[] = [];
const pool = (...args: ConstructorParameters<typeof McpPool>) => {
  const p = new McpPool(...args);
  pools.push(p);
  return p;
};
after(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('server-everything over stdio', () => {
  test('lists tools (lazily started), calls echo, reports status changes', async () => {
    const p = pool({ everything: everythingConfig() });
    assert.equal(p.status()[0]!.status, 'idle');
    assert.equal(p.pid('everything'), undefined, 'nothing is spawned before first use');
    const seen: McpServerState['status'][] = [];
    p.onDidChange((s) => seen.push(s[0]!.status));
    const tools = await p.listTools('everything');
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('echo') && names.includes('trigger-long-running-operation'), names.join(','));
    assert.equal((tools.find((t) => t.name === 'echo')!.inputSchema as any).properties.message.type, 'string');
    assert.equal(await p.callTool('everything', 'echo', { message: 'hi' }, {}), 'Echo: hi');
    assert.ok(seen.includes('connecting') && seen.includes('connected'));
    const st = p.status()[0]!;
    assert.equal(st.status, 'connected');
    assert.ok(st.tools!.some((t) => t.name === 'echo'));
    const pid = p.pid('everything');
    await p.callTool('everything', 'echo', { message: 'again' }, {});
    assert.equal(p.pid('everything'), pid, 'the server is reused');
  });

  test('structured content is returned as an object; bad arguments are NIKA-MCP-002', async () => {
    const p = pool({ everything: everythingConfig() });
    const r = (await p.callTool('everything', 'get-structured-content', { location: 'New York' }, {})) as Record<string, unknown>;
    assert.equal(typeof r, 'object');
    assert.ok('temperature' in r, JSON.stringify(r));
    await assert.rejects(p.callTool('everything', 'echo', { message: 42 }, {}), (e: NikaError) => e.code === 'NIKA-MCP-002');
    await assert.rejects(p.callTool('everything', 'no-such-tool', {}, {}), (e: NikaError) => e.code === 'NIKA-MCP-002' && /no-such-tool/.test(e.message));
  });

  test('progress keeps a long call alive past the silence timeout; the overall cap still applies', async () => {
    const p = pool({ everything: everythingConfig() }, { callTimeoutMs: 1500 });
    const progress: number[] = [];
    const r = await p.callTool('everything', 'trigger-long-running-operation', { duration: 4, steps: 8 }, { onProgress: (x) => progress.push(x.progress) });
    assert.match(String(r), /Long running operation completed/);
    // The SDK may settle the call before dispatching the final notification, so the last one can be missing.
    assert.ok(progress.length >= 4, `progress: ${progress}`);
    assert.ok(progress.every((x, i) => i === 0 || x > progress[i - 1]!), `progress: ${progress}`);
    await assert.rejects(p.callTool('everything', 'trigger-long-running-operation', { duration: 20, steps: 40 }, { timeoutMs: 1000 }), (e: NikaError) => e.code === 'NIKA-MCP-002' && e.transient && /timed out/.test(e.message));
  });

  test('resources are listed and read', async () => {
    const p = pool({ everything: everythingConfig() });
    const res = await p.listResources('everything');
    assert.ok(res.length > 0);
    const doc = res.find((r) => r.uri.startsWith('demo://resource/static/document/'))!;
    assert.ok(doc, res.map((r) => r.uri).join(','));
    const text = await p.readResource('everything', doc.uri);
    assert.equal(typeof text, 'string');
    assert.ok((text as string).length > 0);
    const prompts = await p.listPrompts('everything');
    assert.ok(prompts.length > 0);
  });

  test('the child gets the env floor plus its own env, not the parent environment', async () => {
    const p = pool({ everything: everythingConfig({ GIVEN: 'yes' }) }, { baseEnv: { ...process.env, PARENT_SECRET: 'hunter2' } });
    const env = (await p.callTool('everything', 'get-env', {}, {})) as Record<string, string>;
    assert.equal(env.GIVEN, 'yes');
    assert.equal(env.PATH, process.env.PATH);
    assert.equal(env.PARENT_SECRET, undefined);
    assert.ok(Object.keys(env).every((k) => ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME', 'GIVEN'].includes(k)), Object.keys(env).join(','));
  });

  test('a server killed mid-call rejects the pending call with NIKA-MCP-001 and restarts on next use', async () => {
    const p = pool({ everything: everythingConfig() });
    await p.listTools('everything');
    const pid = p.pid('everything')!;
    const call = p.callTool('everything', 'trigger-long-running-operation', { duration: 60, steps: 60 }, {});
    setTimeout(() => process.kill(pid, 'SIGKILL'), 200);
    await assert.rejects(call, (e: NikaError) => e.code === 'NIKA-MCP-001' && e.transient && /went away|stopped/.test(e.message));
    assert.equal(p.status()[0]!.status, 'error');
    assert.match(p.status()[0]!.error!, /SIGKILL/);
    assert.equal(await p.callTool('everything', 'echo', { message: 'back' }, {}), 'Echo: back');
    assert.notEqual(p.pid('everything'), pid);
  });

  test('close() stops the whole process tree, and is safe twice', async () => {
    const p = new McpPool({ wrapped: wrappedEverythingConfig(), plain: everythingConfig() });
    assert.equal(await p.callTool('wrapped', 'echo', { message: 'tree' }, {}), 'Echo: tree');
    await p.listTools('plain');
    const wrapper = p.pid('wrapped')!;
    const [grandchild] = childPids(wrapper);
    assert.ok(grandchild && alive(grandchild), 'the real server runs as a grandchild');
    const plain = p.pid('plain')!;
    await p.close();
    await p.close();
    assert.equal(alive(wrapper), false);
    assert.equal(alive(grandchild!), false);
    assert.equal(alive(plain), false);
    await assert.rejects(p.callTool('plain', 'echo', { message: 'x' }, {}), (e: NikaError) => e.code === 'NIKA-MCP-001');
  });

  test('cancelling a call rejects with the abort reason', async () => {
    const p = pool({ everything: everythingConfig() });
    const ac = new AbortController();
    const call = p.callTool('everything', 'trigger-long-running-operation', { duration: 30, steps: 30 }, { signal: ac.signal });
    setTimeout(() => ac.abort(new NikaError('NIKA-CANCEL-001', 'user cancelled')), 100);
    await assert.rejects(call, (e: NikaError) => e.code === 'NIKA-CANCEL-001');
  });
});

describe('failures to start', () => {
  test('a command that does not exist is NIKA-MCP-001 and shows in status', async () => {
    const p = pool({ ghost: { command: 'nika-no-such-mcp-server-xyz', origin: '.mcp.json' } });
    await assert.rejects(p.listTools('ghost'), (e: NikaError) => e.code === 'NIKA-MCP-001' && /ENOENT/.test(e.message) && /\.mcp\.json/.test(e.message));
    const st = p.status()[0]!;
    assert.equal(st.status, 'error');
    assert.match(st.error!, /ENOENT/);
  });

  test('a server that dies at start reports its stderr', async () => {
    const p = pool({ dies: { command: process.execPath, args: ['-e', 'console.error("boom: missing DATABASE_URL"); process.exit(3)'] } });
    await assert.rejects(p.callTool('dies', 'x', {}, {}), (e: NikaError) => e.code === 'NIKA-MCP-001' && /boom: missing DATABASE_URL/.test(e.message));
  });

  test('an unknown server name and a disabled pool are NIKA-MCP-001', async () => {
    const p = pool({ everything: everythingConfig() });
    await assert.rejects(p.callTool('nope', 'echo', {}, {}), (e: NikaError) => e.code === 'NIKA-MCP-001' && /not configured.*everything/s.test(e.message));
    const d = pool({ everything: everythingConfig() }, { disabled: 'workspace is not trusted' });
    assert.equal(d.status()[0]!.status, 'disabled');
    await assert.rejects(d.listTools('everything'), (e: NikaError) => e.code === 'NIKA-MCP-001' && /not trusted/.test(e.message));
    assert.equal(d.pid('everything'), undefined);
  });
});

describe('other servers', () => {
  test('server-memory keeps entities across calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nika-mem-'));
    const p = pool({ memory: memoryConfig(join(dir, 'memory.jsonl')) });
    await p.callTool('memory', 'create_entities', { entities: [{ name: 'Nika', entityType: 'language', observations: ['workflows in YAML'] }] }, {});
    const graph = (await p.callTool('memory', 'read_graph', {}, {})) as { entities: Array<{ name: string; observations: string[] }> };
    assert.deepEqual(graph.entities.map((e) => e.name), ['Nika']);
    assert.deepEqual(graph.entities[0]!.observations, ['workflows in YAML']);
  });

  test('server-filesystem is scoped to its directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nika-fs-'));
    writeFileSync(join(dir, 'in.txt'), 'inside');
    const p = pool({ fs: filesystemConfig(dir) });
    const text = await p.callTool('fs', 'read_text_file', { path: join(dir, 'in.txt') }, {});
    assert.match(JSON.stringify(text), /inside/);
    await p.callTool('fs', 'write_file', { path: join(dir, 'out.txt'), content: 'written' }, {});
    assert.equal(readFileSync(join(dir, 'out.txt'), 'utf8'), 'written');
    await assert.rejects(p.callTool('fs', 'read_text_file', { path: '/etc/hostname' }, {}), (e: NikaError) => e.code === 'NIKA-MCP-002' && /denied|outside|not allowed/i.test(e.message));
  });
});

describe('HTTP servers', () => {
  for (const mode of ['streamableHttp', 'sse'] as const) {
    test(`server-everything over ${mode}`, async () => {
      const srv = await startEverythingHttp(mode);
      try {
        const p = pool({ remote: { url: srv.url } });
        assert.equal(await p.callTool('remote', 'echo', { message: 'over http' }, {}), 'Echo: over http');
        await p.close();
      } finally {
        await srv.stop();
      }
    });
  }
});
