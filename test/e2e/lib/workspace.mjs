// A fresh copy of the fixture workspace whose .vscode/mcp.json runs this repository's
// server-everything (absolute path, `node`), tagged with a marker variable so its processes can
// be found later (lib/procs.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '../../..');

export function makeWorkspace(dir, mark) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(path.join(HERE, '..', 'workspace'), dir, { recursive: true });
  fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  const entry = path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  if (!fs.existsSync(entry)) throw new Error(`server-everything is not installed (${entry}); run npm ci`);
  fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), JSON.stringify({
    servers: { everything: { type: 'stdio', command: 'node', args: [entry, 'stdio'], env: { NIKA_E2E_MARK: mark } } },
  }, null, 2) + '\n');
  return dir;
}
