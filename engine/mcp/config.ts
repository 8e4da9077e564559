// Where MCP servers come from (design.md, "MCP servers: where they come from"). First wins per
// name, in this order:
//   1. the workflow's own `mcp:` block (v1-draft / legacy dialects)
//   2. the `nika.mcp.servers` setting (editor) or `--mcp-config FILE` (CLI)
//   3. `.vscode/mcp.json` in the workspace (VS Code's format, key `servers`)
//   4. `.mcp.json` at the workspace root (key `mcpServers`)
// Reads files but has no other effect, so the extension can call it on every config change.
// A file that does not parse is reported as a problem naming it; the other sources still load.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { McpServerConfig } from '../../core/ir.js';

export type McpServerEntry = McpServerConfig & { origin: string };

export interface McpConfigProblem { file: string; message: string }

export interface LoadMcpServersOptions {
  workflowServers?: Record<string, McpServerConfig>;
  settingServers?: Record<string, unknown>;
  /** `--mcp-config FILE`: either `{servers: …}`, `{mcpServers: …}` or a bare name → server map. */
  configFile?: string;
  workspaceRoot?: string;
  /** For `${env:NAME}` in VS Code files; defaults to process.env. */
  env?: Record<string, string | undefined>;
  onProblem?(problem: McpConfigProblem): void;
}

export function loadMcpServers(opts: LoadMcpServersOptions): Record<string, McpServerEntry> {
  return loadMcpConfig(opts).servers;
}

export function loadMcpConfig(opts: LoadMcpServersOptions): { servers: Record<string, McpServerEntry>; problems: McpConfigProblem[] } {
  const servers: Record<string, McpServerEntry> = {};
  const problems: McpConfigProblem[] = [];
  const problem = (file: string, message: string) => {
    const p = { file, message };
    problems.push(p);
    opts.onProblem?.(p);
  };
  const root = opts.workspaceRoot;
  const vars = { workspaceFolder: root ?? process.cwd(), env: opts.env ?? process.env };
  const seen = new Set<string>();
  const add = (name: string, raw: unknown, origin: string, file: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const cfg = normalize(raw, vars, root);
    if (cfg === null) return;
    if (typeof cfg === 'string') return problem(file, `server "${name}": ${cfg}`);
    servers[name] = { ...cfg, origin };
  };

  for (const [name, cfg] of Object.entries(opts.workflowServers ?? {})) add(name, cfg, 'workflow mcp: block', 'workflow');
  for (const [name, cfg] of Object.entries(opts.settingServers ?? {})) add(name, cfg, 'nika.mcp.servers setting', 'nika.mcp.servers');
  if (opts.configFile) {
    const file = root && !isAbsolute(opts.configFile) ? resolve(root, opts.configFile) : resolve(opts.configFile);
    const json = readJson(file, problem, true);
    if (json) {
      const map = pickMap(json, ['servers', 'mcpServers']) ?? json;
      for (const [name, cfg] of Object.entries(map)) add(name, cfg, `--mcp-config ${opts.configFile}`, file);
    }
  }
  if (root) {
    const vscode = join(root, '.vscode', 'mcp.json');
    const a = readJson(vscode, problem, false);
    for (const [name, cfg] of Object.entries(pickMap(a, ['servers']) ?? {})) add(name, cfg, '.vscode/mcp.json', vscode);
    const dot = join(root, '.mcp.json');
    const b = readJson(dot, problem, false);
    for (const [name, cfg] of Object.entries(pickMap(b, ['mcpServers']) ?? {})) add(name, cfg, '.mcp.json', dot);
  }
  return { servers, problems };
}

function pickMap(json: Record<string, unknown> | undefined, keys: string[]): Record<string, unknown> | undefined {
  for (const k of keys) {
    const v = json?.[k];
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  }
  return undefined;
}

/** VS Code's mcp.json allows comments and trailing commas; strip them outside strings before parsing. */
function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

function readJson(file: string, problem: (f: string, m: string) => void, required: boolean): Record<string, unknown> | undefined {
  if (!existsSync(file)) {
    if (required) problem(file, `MCP config file ${file} does not exist`);
    return undefined;
  }
  try {
    const v = JSON.parse(stripJsonc(readFileSync(file, 'utf8')));
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      problem(file, `${file}: expected a JSON object`);
      return undefined;
    }
    return v as Record<string, unknown>;
  } catch (e) {
    problem(file, `${file} is not valid JSON: ${(e as Error).message}`);
    return undefined;
  }
}

interface Vars { workspaceFolder: string; env: Record<string, string | undefined> }

function subst(s: string, vars: Vars): string {
  return s.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (_m, what: string, name?: string) => {
    if (what === 'workspaceFolder') return vars.workspaceFolder;
    if (what === 'userHome') return homedir();
    return vars.env[name!] ?? '';
  });
}

const strMap = (v: unknown, vars: Vars): Record<string, string> | undefined => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = subst(String(x), vars);
  return out;
};

/** A server definition in any of the accepted shapes, or a string saying what is wrong with it. */
/** `null`: switched off with `disabled: true` (it still hides same-named definitions of lower precedence). */
function normalize(raw: unknown, vars: Vars, root: string | undefined): McpServerConfig | string | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'definition must be an object';
  const r = raw as Record<string, unknown>;
  const type = typeof r.type === 'string' ? r.type : undefined;
  if (r.disabled === true) return null;
  const out: McpServerConfig = {};
  if (typeof r.url === 'string' && type !== 'stdio') {
    out.url = subst(r.url, vars);
    out.headers = strMap(r.headers, vars);
  } else if (typeof r.command === 'string' && r.command.trim() !== '') {
    out.command = subst(r.command, vars);
    if (Array.isArray(r.args)) out.args = r.args.map((a) => subst(String(a), vars));
    out.env = strMap(r.env, vars);
    if (typeof r.cwd === 'string') {
      const cwd = subst(r.cwd, vars);
      out.cwd = root && !isAbsolute(cwd) ? resolve(root, cwd) : cwd;
    }
  } else {
    return type === 'http' || type === 'sse' ? '`url` is required for an HTTP server' : 'needs `command` (stdio) or `url` (HTTP)';
  }
  for (const k of ['env', 'headers', 'args'] as const) if (out[k] === undefined) delete out[k];
  return out;
}
