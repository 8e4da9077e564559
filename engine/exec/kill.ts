// Children are spawned as leaders of their own process group, so a cancel or timeout can take
// down everything they started (a shell's grandchildren included), not just the direct child.
const live = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pid: number): void {
  live.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort when the engine's process goes away without cancelling its runs.
    process.on('exit', () => { for (const p of live) signalGroup(p, 'SIGKILL'); });
  }
}

export function untrackGroup(pid: number): void { live.delete(pid); }

export function signalGroup(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole group, SIGKILL after `graceMs` if anything in it is still there. */
export async function killGroup(pid: number, graceMs = 2000): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) { untrackGroup(pid); return; }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    if (!groupAlive(pid)) { untrackGroup(pid); return; }
  }
  signalGroup(pid, 'SIGKILL');
  untrackGroup(pid);
}
