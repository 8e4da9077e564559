// Tool ids (reference §5, §6, §11.2) and the whitelist globs of `permits.tools` / `agent.tools`
// (§3.4). Only two namespaces exist: `nika:` (spec-owned builtins) and `mcp:<server>/<tool>`.
// Whether a `nika:` name is one of the 28 is the checker's question (NIKA-INVOKE-001), not a
// grammar one, so parseToolId accepts any well-formed builtin name.
import { BUILTINS } from './catalog/builtins.js';

export type ToolId =
  | { kind: 'nika'; name: string }
  | { kind: 'mcp'; server: string; tool: string }
  | { kind: 'invalid'; reason: string };

/** `nika:<name>`, and the admitted-but-empty `nika:<group>/<tool>` form. */
const NIKA_NAME = /^[a-z][a-z0-9_]*(\/[a-z][a-z0-9_]*)?$/;
const MCP_SERVER = /^[a-z0-9][a-z0-9-]*$/;
const MCP_TOOL = /^[A-Za-z0-9_/-]+$/;

export function parseToolId(s: string): ToolId {
  const invalid = (reason: string): ToolId => ({ kind: 'invalid', reason });
  if (s.trim() === '') return invalid('empty tool id (expected nika:<builtin> or mcp:<server>/<tool>)');
  if (/\s/.test(s)) return invalid('tool ids contain no whitespace');

  const legacy = /^([^:/]+)::(.+)$/.exec(s);
  if (legacy) return invalid(`'server::tool' is the legacy spelling; write mcp:${legacy[1]}/${legacy[2]}`);

  const colon = s.indexOf(':');
  if (colon < 0) {
    const hint = BUILTINS.has(s) ? `; did you mean nika:${s}?` : '';
    return invalid(`missing namespace (expected nika:<builtin> or mcp:<server>/<tool>)${hint}`);
  }
  const ns = s.slice(0, colon);
  const rest = s.slice(colon + 1);

  if (ns === 'nika') {
    if (rest === '') return invalid('missing builtin name after nika:');
    if (rest.includes('.')) return invalid('dots are not allowed in tool ids');
    if (!NIKA_NAME.test(rest)) {
      const lower = rest.toLowerCase();
      const hint = lower !== rest && NIKA_NAME.test(lower) ? `; did you mean nika:${lower}?` : '';
      return invalid(`builtin names are lower-case snake_case${hint}`);
    }
    return { kind: 'nika', name: rest };
  }

  if (ns === 'mcp') {
    const slash = rest.indexOf('/');
    if (rest.includes('.')) return invalid('dots are not allowed in tool ids (use mcp:<server>/<tool>)');
    if (slash < 0) return invalid(`missing '/<tool>': MCP tool ids are mcp:<server>/<tool> (e.g. mcp:${rest || 'server'}/<tool>)`);
    const server = rest.slice(0, slash);
    const tool = rest.slice(slash + 1);
    if (server === '') return invalid('missing server name in mcp:<server>/<tool>');
    if (!MCP_SERVER.test(server)) return invalid(`MCP server '${server}' must be lower-case kebab-case ([a-z0-9][a-z0-9-]*)`);
    if (tool === '') return invalid(`missing tool name after mcp:${server}/`);
    if (!MCP_TOOL.test(tool)) return invalid(`MCP tool '${tool}' may only contain letters, digits, '_', '-' and '/'`);
    return { kind: 'mcp', server, tool };
  }

  if (/^x-/.test(ns)) return invalid(`the '${ns}:' namespace is reserved and refused; expose vendor tools through an MCP server (mcp:<server>/<tool>)`);
  return invalid(`unknown namespace '${ns}:' (only nika: and mcp: exist)`);
}

/** Renders a parsed id back to its canonical text. */
export function formatToolId(id: Exclude<ToolId, { kind: 'invalid' }>): string {
  return id.kind === 'nika' ? `nika:${id.name}` : `mcp:${id.server}/${id.tool}`;
}

// Pattern compilation is cached: the engine asks per tool call, the agent per tool list.
const compiled = new Map<string, RegExp>();

function compile(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    let src = '';
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === '*' && pattern[i + 1] === '*') {
        src += '[^:]*';
        i++;
      } else if (c === '*') {
        src += '[^/:]*';
      } else {
        src += c.replace(/[\\^$.|?+()[\]{}]/g, '\\$&');
      }
    }
    re = new RegExp(`^${src}$`);
    compiled.set(pattern, re);
  }
  return re;
}

/**
 * Whether one glob (without `!`) matches a tool id: `*` stays inside one `/` segment and never
 * crosses the namespace colon; `**` crosses `/` (still not the colon, so `**` alone matches
 * nothing and every grant names its namespace).
 */
export function matchToolPattern(pattern: string, toolId: string): boolean {
  return compile(pattern).test(toolId);
}

/** Default deny; the last rule that matches decides, and a `!` rule denies. */
export function toolAllowed(patterns: readonly string[], toolId: string): boolean {
  let allowed = false;
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const pattern = negated ? raw.slice(1) : raw;
    if (matchToolPattern(pattern, toolId)) allowed = !negated;
  }
  return allowed;
}

/** Checks a whitelist entry's shape (glob characters allowed); returns a reason when malformed. */
export function toolPatternProblem(raw: string): string | undefined {
  const pattern = raw.startsWith('!') ? raw.slice(1) : raw;
  if (!pattern.includes('*')) {
    const id = parseToolId(pattern);
    return id.kind === 'invalid' ? id.reason : undefined;
  }
  if (!/^(nika|mcp):/.test(pattern)) return `tool patterns must start with nika: or mcp: (got '${pattern}')`;
  if (/\*{3,}/.test(pattern)) return `'***' is not a glob; use * (one segment) or ** (any depth)`;
  return undefined;
}
