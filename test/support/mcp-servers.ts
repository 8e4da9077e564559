// Definitions of the real MCP servers installed from npm (devDependencies), for tests that need
// a server on the other end of the pool, plus a helper to run server-everything over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { McpServerConfig } from '../../core/ir.js';

const root = join(__dirname, '..', '..');
const dist = (pkg: string) => join(root, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');

export const everythingConfig = (env?: Record<string, string>): McpServerConfig => ({
  command: process.execPath, args: [dist('server-everything'), 'stdio'], ...(env ? { env } : {}),
});
export const memoryConfig = (file: string): McpServerConfig => ({
  command: process.execPath, args: [dist('server-memory')], env: { MEMORY_FILE_PATH: file },
});
export const filesystemConfig = (dir: string): McpServerConfig => ({
  command: process.execPath, args: [dist('server-filesystem'), dir],
});
/** server-everything behind a wrapper process, so the real server is a grandchild of the pool. */
export const wrappedEverythingConfig = (): McpServerConfig => ({
  command: process.execPath,
  args: ['-e', `const c=require('child_process').spawn(process.execPath,${JSON.stringify([dist('server-everything'), 'stdio'])},{stdio:'inherit'});process.on('SIGTERM',()=>{});c.on('exit',(code)=>process.exit(code??1))`],
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts server-everything with an HTTP transport; resolves once it listens. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [dist('server-everything'), mode], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/listening|running/i.test(out)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${out}`)));
  });
  const url = `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`;
  return {
    url,
    child,
    stop: () => new Promise<void>((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', () => r());
      child.kill('SIGKILL');
    }),
  };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Direct children of a pid (Linux /proc). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
