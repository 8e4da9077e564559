// Shared by the engine and CLI tests: run a workflow given as YAML text in a fresh folder and
// collect everything it emitted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../core/analyze.js';
import { startRun, type RunOptions, type RunResult } from '../../engine/index.js';
import type { NikaEvent } from '../../engine/events.js';

export function tempDir(prefix = 'nika-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Ran { result: RunResult; events: NikaEvent[]; dir: string }

export async function runYaml(
  yaml: string,
  opts: Partial<RunOptions> & { dir?: string; onEvent?: (e: NikaEvent, cancel: (r?: string) => void) => void } = {},
): Promise<Ran> {
  const dir = opts.dir ?? tempDir();
  writeFileSync(join(dir, 'wf.nika.yaml'), yaml);
  const { workflow } = analyze(yaml, { skipChecks: true });
  const handle = startRun(workflow, { cwd: dir, file: join(dir, 'wf.nika.yaml'), env: { ...process.env }, ...opts });
  const events: NikaEvent[] = [];
  handle.onEvent((e) => { events.push(e); opts.onEvent?.(e, handle.cancel); });
  const result = await handle.done;
  return { result, events, dir };
}

export function eventsOf<T extends NikaEvent['type']>(events: NikaEvent[], type: T, taskId?: string): Array<Extract<NikaEvent, { type: T }>> {
  return events.filter((e) => e.type === type && (taskId === undefined || (e as { task_id?: string }).task_id === taskId)) as Array<Extract<NikaEvent, { type: T }>>;
}

export function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/** Polls until `pid` is gone (a killed process takes a moment to be reaped); false if it never goes. */
export async function gone(pid: number, withinMs = 5000): Promise<boolean> {
  const end = Date.now() + withinMs;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}
