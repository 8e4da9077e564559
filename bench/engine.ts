// The engine against its floors, at the same concurrency: exec tasks vs spawning the same
// processes directly; mock/echo tasks (the scheduler's own per-task cost); MCP calls through our
// pool vs the raw MCP SDK client on the same server-everything.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { analyze } from '../core/analyze.js';
import { startRun } from '../engine/index.js';
import { McpPool } from '../engine/mcp/pool.js';
import { median } from './stats.js';

const root = join(__dirname, '..');
const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

export interface EngineFigures {
  name: string;
  /** Medians over the measured rounds (best of a few for the per-task figure). */
  ours: number;
  floor: number;
  unit: string;
  /** Median of the per-pair ratios ours ÷ floor (each pair measured back to back), when paired. */
  pairedRatio?: number;
  /** Best round of each side, for reference. */
  bestOurs?: number;
  bestFloor?: number;
  pairs?: number;
}

function workflow(tasks: number, body: (i: number) => string[], permits: string[]): string {
  const lines = [`nika: bench-engine`, 'model: mock/echo', 'permits:', ...permits, 'tasks:'];
  for (let i = 0; i < tasks; i++) lines.push(`  t${i}:`, ...body(i).map((l) => `    ${l}`));
  return lines.join('\n') + '\n';
}

/** A run of the workflow in `text`, timed from start to settle (read once: rounds time the run only). */
function runner(text: string, maxParallel?: number): () => Promise<number> {
  const a = analyze(text, { skipChecks: true });
  return () => runWorkflow(a, maxParallel);
}

async function runWorkflow(a: ReturnType<typeof analyze>, maxParallel?: number): Promise<number> {
  const t = performance.now();
  const r = await startRun(a.workflow, { cwd: tmpdir(), maxParallel }).done;
  const ms = performance.now() - t;
  if (r.state !== 'success') throw new Error(`bench workflow failed: ${JSON.stringify(Object.values(r.tasks).find((x) => x.status !== 'success'))}`);
  return ms;
}

async function spawnAll(n: number, concurrency: number): Promise<number> {
  const t = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      await new Promise<void>((resolve, reject) => {
        const p = spawn('printf', ['%s\\n', `task ${i}`], { stdio: ['ignore', 'pipe', 'pipe'] });
        // Captured like the engine captures: both streams.
        let out = '';
        let err = '';
        p.stdout.on('data', (d) => { out += d; });
        p.stderr.on('data', (d) => { err += d; });
        p.on('error', reject);
        p.on('close', () => resolve());
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return performance.now() - t;
}

const best = async (k: number, f: () => Promise<number>) => {
  let m = Infinity;
  for (let i = 0; i < k; i++) m = Math.min(m, await f());
  return m;
};

interface Pairs { ours: number[]; floor: number[] }

/**
 * Rounds of the two sides back to back (ours, floor, ours, floor, …), kept as pairs. The machine's
 * pace drifts by tens of percent over a run (other tenants, frequency, its own page cache), and
 * a round varies by ±10% on its own, so each side's best round or median compares rounds taken
 * at different times; the ratio within a pair does not, and the median over pairs drops the
 * pairs a hiccup hit. Alternating which side goes first keeps either from always running on the
 * other's leftovers (its garbage, its warm caches).
 */
async function pairs(k: number, ours: () => Promise<number>, floor: () => Promise<number>, into: Pairs = { ours: [], floor: [] }): Promise<Pairs> {
  for (let i = 0; i < k; i++) {
    if (i % 2 === 0) {
      into.ours.push(await ours());
      into.floor.push(await floor());
    } else {
      into.floor.push(await floor());
      into.ours.push(await ours());
    }
  }
  return into;
}

function figures(name: string, unit: string, p: Pairs): EngineFigures {
  return {
    name,
    unit,
    ours: median(p.ours),
    floor: median(p.floor),
    pairedRatio: median(p.ours.map((x, i) => x / p.floor[i])),
    bestOurs: Math.min(...p.ours),
    bestFloor: Math.min(...p.floor),
    pairs: p.ours.length,
  };
}

export async function engineBench(): Promise<EngineFigures[]> {
  const out: EngineFigures[] = [];
  const CONC = 8;
  const execText = workflow(200, (i) => ['exec:', `  command: [printf, "%s\\n", "task ${i}"]`], ['  exec: [printf]']);
  const runExec = runner(execText, CONC);
  await runExec();
  await spawnAll(200, CONC);
  // A round is ~0.6–1 s (200 forks on a small machine) and varies by ±10% on its own.
  out.push(figures(`200 exec tasks (max ${CONC} at once) vs child_process.spawn`, 'ms', await pairs(15, runExec, () => spawnAll(200, CONC))));

  const echoText = workflow(1000, (i) => ['infer:', `  prompt: "echo ${i}"`], ['  {}'].map(() => '  tools: []'));
  const runEcho = runner(echoText);
  await runEcho();
  const echo = await best(3, runEcho);
  out.push({ name: '1,000 mock/echo infer tasks (per task)', ours: echo / 1000, floor: NaN, unit: 'ms' });

  // MCP: 500 echo calls, 8 in flight, clients already connected. A round is ~20–40 ms. A server
  // process keeps its own pace for its lifetime (its JIT, its heap, where the scheduler put it),
  // up to ±50% between two processes, which a pair of rounds on two processes would carry into
  // its ratio: each side gets a fresh server in each of several generations, so the median over
  // all pairs spans several draws of that luck.
  const CALLS = 500;
  const GENERATIONS = 5;
  const inFlight = async (call: (i: number) => Promise<unknown>) => {
    const t = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: CONC }, async () => {
      while (next < CALLS) await call(next++);
    }));
    return performance.now() - t;
  };
  const mcp: Pairs = { ours: [], floor: [] };
  for (let g = 0; g < GENERATIONS; g++) {
    const pool = new McpPool({ everything: { command: process.execPath, args: [everything, 'stdio'] } });
    await pool.listTools('everything');
    const client = new Client({ name: 'bench', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
    await client.listTools();
    const viaPool = () => inFlight((i) => pool.callTool('everything', 'echo', { message: `m${i}` }, {}));
    const viaSdk = () => inFlight((i) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } }));
    await pairs(4, viaPool, viaSdk);
    await pairs(12, viaPool, viaSdk, mcp);
    await pool.close();
    await client.close();
  }
  out.push(figures(`${CALLS} MCP echo calls (${CONC} in flight) vs raw SDK client`, 'ms', mcp));
  return out;
}
