// The smallest `permits:` block under which a migrated workflow's effects are allowed. Older
// dialects had no authority boundary, so the migration must declare one (an absent block means
// zero authority in current v1). Literal values give exact grants; anything computed at run time
// can only be granted broadly, and the notes say so, so the user can tighten it.

type Obj = Record<string, unknown>;

const FS_READ_TOOLS: Record<string, string> = { 'nika:read': 'path', 'nika:grep': 'path', 'nika:glob': 'pattern' };
const FS_WRITE_TOOLS: Record<string, string> = { 'nika:write': 'path', 'nika:edit': 'path' };
const NET_TOOLS = new Set(['nika:fetch', 'nika:notify']);

export interface InferredPermits { permits: Obj; notes: string[] }

function literal(v: unknown): v is string {
  return typeof v === 'string' && v !== '' && !v.includes('${{');
}

function hostOf(url: unknown): string | undefined {
  if (!literal(url)) return undefined;
  try { return new URL(url).hostname || undefined; } catch { return undefined; }
}

/** `tasks` are current-v1 task objects (as printed by the migration). */
export function inferPermits(tasks: Record<string, Obj>): InferredPermits {
  const notes: string[] = [];
  const read = new Set<string>();
  const write = new Set<string>();
  const hosts = new Set<string>();
  const tools = new Set<string>();
  const programs = new Set<string>();
  const env = new Set<string>();
  let execAny = false;
  const broad = new Set<string>();

  const grantTool = (id: string, args: Obj | undefined, where: string) => {
    tools.add(id);
    if (id in FS_READ_TOOLS) {
      const p = args?.[FS_READ_TOOLS[id]];
      if (literal(p)) read.add(p); else { read.add('**'); broad.add(`fs.read "**" (${where})`); }
    }
    if (id in FS_WRITE_TOOLS) {
      const p = args?.[FS_WRITE_TOOLS[id]];
      if (literal(p)) write.add(p); else { write.add('**'); broad.add(`fs.write "**" (${where})`); }
    }
    if (NET_TOOLS.has(id)) {
      const h = id === 'nika:fetch' ? hostOf(args?.url) : undefined;
      if (h) hosts.add(h); else { hosts.add('*'); broad.add(`net.http "*" (${where})`); }
    }
  };

  for (const [id, task] of Object.entries(tasks)) {
    const exec = task.exec as Obj | undefined;
    if (exec) {
      const argv = exec.command;
      if (Array.isArray(argv) && literal(argv[0])) programs.add(argv[0]);
      else execAny = true;
      for (const k of Object.keys((exec.env as Obj | undefined) ?? {})) env.add(k);
    }
    const invoke = task.invoke as Obj | undefined;
    if (invoke && typeof invoke.tool === 'string') grantTool(invoke.tool, invoke.args as Obj | undefined, `task ${id}`);
    const agent = task.agent as Obj | undefined;
    if (agent && Array.isArray(agent.tools)) {
      for (const t of agent.tools) {
        if (typeof t !== 'string' || t.startsWith('!')) continue;
        // An agent chooses its own arguments, so its file and network grants cannot be narrowed.
        grantTool(t, undefined, `agent ${id}`);
      }
    }
  }

  const permits: Obj = {};
  if (read.size || write.size) {
    const fs: Obj = {};
    if (read.size) fs.read = [...read].sort();
    if (write.size) fs.write = [...write].sort();
    permits.fs = fs;
  }
  if (hosts.size) permits.net = { http: hosts.has('*') ? ['*'] : [...hosts].sort() };
  if (execAny) permits.exec = true;
  else if (programs.size) permits.exec = [...programs].sort();
  if (tools.size) permits.tools = [...tools].sort();
  if (env.size) permits.env = [...env].sort();
  if (broad.size) notes.push(`permits: granted ${[...broad].join(', ')} because the value is only known at run time; narrow it if you can.`);
  if (execAny) notes.push('permits: exec is true because a command runs through the shell or its program is computed; an argv command with a literal program allows an allowlist instead.');
  return { permits, notes };
}
