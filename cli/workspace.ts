import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The nearest folder (from the workflow up) holding MCP config, else the current directory. */
export function workspaceRootFor(file: string | undefined): string {
  if (file) {
    for (let d = dirname(resolve(file)); ; d = dirname(d)) {
      if (existsSync(join(d, '.mcp.json')) || existsSync(join(d, '.vscode', 'mcp.json'))) return d;
      if (dirname(d) === d) break;
    }
  }
  return process.cwd();
}
