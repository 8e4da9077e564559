// Where MCP servers come from: precedence, the two file formats, and broken files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMcpConfig, loadMcpServers } from '../../engine/mcp/config.js';

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'nika-mcpcfg-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

test('first source wins per name: workflow, then setting/--mcp-config, then .vscode/mcp.json, then .mcp.json', () => {
  const root = workspace({
    '.vscode/mcp.json': JSON.stringify({ servers: { a: { command: 'vscode-a' }, b: { command: 'vscode-b' }, c: { command: 'vscode-c' } } }),
    '.mcp.json': JSON.stringify({ mcpServers: { a: { command: 'dot-a' }, b: { command: 'dot-b' }, c: { command: 'dot-c' }, d: { command: 'dot-d' } } }),
  });
  const s = loadMcpServers({
    workspaceRoot: root,
    workflowServers: { a: { command: 'wf-a' } },
    settingServers: { a: { command: 'set-a' }, b: { command: 'set-b' } },
  });
  assert.deepEqual(
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, [v.command, v.origin]])),
    { a: ['wf-a', 'workflow mcp: block'], b: ['set-b', 'nika.mcp.servers setting'], c: ['vscode-c', '.vscode/mcp.json'], d: ['dot-d', '.mcp.json'] },
  );
});

test('VS Code format: comments, trailing commas, ${workspaceFolder}, ${env:X}, http servers with headers', () => {
  const root = workspace({
    '.vscode/mcp.json': `{
      // the editor's own file
      "servers": {
        "fs": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}/data"], "env": { "TOKEN": "\${env:MY_TOKEN}" }, "cwd": "tools", },
        "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${env:MY_TOKEN}" } },
        "off": { "command": "x", "disabled": true },
      },
    }`,
  });
  const s = loadMcpServers({ workspaceRoot: root, env: { MY_TOKEN: 't0k' } });
  assert.deepEqual(s.fs, { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', `${root}/data`], env: { TOKEN: 't0k' }, cwd: join(root, 'tools'), origin: '.vscode/mcp.json' });
  assert.deepEqual(s.remote, { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t0k' }, origin: '.vscode/mcp.json' });
  assert.equal(s.off, undefined);
});

test('--mcp-config accepts `servers`, `mcpServers` or a bare map, relative to the workspace', () => {
  const root = workspace({
    'a.json': JSON.stringify({ mcpServers: { one: { command: 'x' } } }),
    'b.json': JSON.stringify({ two: { url: 'http://127.0.0.1:9/mcp' } }),
  });
  assert.deepEqual(Object.keys(loadMcpServers({ workspaceRoot: root, configFile: 'a.json' })), ['one']);
  const b = loadMcpServers({ workspaceRoot: root, configFile: 'b.json' });
  assert.equal(b.two!.url, 'http://127.0.0.1:9/mcp');
  assert.equal(b.two!.origin, '--mcp-config b.json');
});

test('a broken file is a problem naming it; the other sources still load', () => {
  const root = workspace({
    '.vscode/mcp.json': '{ "servers": { "a": { "command": "x" }, }',
    '.mcp.json': JSON.stringify({ mcpServers: { b: { command: 'y' }, bad: { args: ['no command'] } } }),
  });
  const seen: string[] = [];
  const { servers, problems } = loadMcpConfig({ workspaceRoot: root, configFile: 'missing.json', onProblem: (p) => seen.push(p.file) });
  assert.deepEqual(Object.keys(servers), ['b']);
  assert.equal(problems.length, 3);
  assert.ok(problems.some((p) => p.file.endsWith('.vscode/mcp.json') && /not valid JSON/.test(p.message) && p.message.includes(join(root, '.vscode', 'mcp.json'))));
  assert.ok(problems.some((p) => /missing\.json does not exist/.test(p.message)));
  assert.ok(problems.some((p) => /server "bad": needs `command`/.test(p.message)));
  assert.equal(seen.length, 3);
});

test('no workspace and no sources: nothing, no problems', () => {
  assert.deepEqual(loadMcpConfig({}), { servers: {}, problems: [] });
});
