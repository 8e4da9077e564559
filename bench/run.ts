// `npm run bench`: every figure side by side in one run, with its ratio to the baseline measured
// in the same run. Usage: tsx bench/run.ts [--sizes 100,1000,5000] [--skip lsp,engine,extension]
// [--activation-runs 11]. Activation alone, after a build: tsx bench/run.ts --skip lsp,engine
import { spawnSync } from 'node:child_process';
import { statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { SERVERS, floor, measureServer, type LspFigures } from './lsp.js';
import type { EngineFigures } from './engine.js';
import { fmt, ratio, table } from './stats.js';

const root = join(__dirname, '..');
const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
const sizes = (arg('--sizes') ?? '100,1000,5000').split(',').map(Number);
const skip = new Set((arg('--skip') ?? '').split(','));

async function lsp(): Promise<void> {
  console.log('\n## Language server (stdio), generated workflows\n');
  const rows: (string | number)[][] = [];
  const ratios: (string | number)[][] = [];
  for (const n of sizes) {
    const fl = floor(n);
    const figs: Record<string, LspFigures> = {};
    for (const s of SERVERS) {
      // Steady typing: enough keystrokes that the work left over from opening (the compiler
      // threads, the first collections) does not dominate the CPU figure (at 1,000 tasks ours
      // reads ~20 ms per edit over 50 keystrokes, ~14.5 over 200). Fewer on the big documents
      // keep a run within minutes; medians stay meaningful.
      const rounds = n >= 5000 ? 5 : 50;
      figs[s.name] = await measureServer(s, n, { edits: n >= 5000 ? 5 : 100, completions: rounds, brokenEdits: n >= 5000 ? 5 : 20 });
      const f = figs[s.name];
      rows.push([`${s.name} @${n}`, fmt(f.openMs), fmt(f.editMs), fmt(f.editP95), fmt(f.editCpuMs), fmt(f.toolP50), fmt(f.toolP95), fmt(f.tasksP50), fmt(f.tasksP95), fmt(f.rss, 0), fmt(f.peakRss, 0), fmt(f.brokenEditMs)]);
    }
    rows.push([`floor: yaml parseDocument @${n} (${(fl.bytes / 1024).toFixed(0)} KiB)`, '', fmt(fl.parseMs), '', '', '', '', '', '', '', '', '']);
    const ours = figs.nika;
    const yls = figs['yaml-language-server'];
    ratios.push([n, ratio(ours.editMs, yls.editMs), ratio(ours.editCpuMs, yls.editCpuMs), ratio(ours.editMs, fl.parseMs), ratio(ours.toolP95, yls.toolP95), ratio(ours.tasksP95, yls.tasksP95), ratio(ours.peakRss, yls.peakRss), ratio(ours.brokenEditMs, yls.brokenEditMs)]);
    // Progress for long runs: each size as soon as it is measured.
    console.error(`[${n} tasks] ${JSON.stringify({ fl, ...figs })}`);
  }
  console.log(table(['server @tasks', 'open ms', 'edit→diag p50', 'p95', 'CPU/edit ms', 'tool: p50', 'p95', 'tasks. p50', 'p95', 'RSS MiB', 'peak', 'edit w/ YAML error'], rows));
  console.log('\nRatios (ours ÷ baseline; below 1 is better):\n');
  console.log(table(['tasks', 'edit wall ÷ yaml-ls', 'edit CPU ÷ yaml-ls', 'edit wall ÷ yaml parse', 'tool: p95 ÷ yaml-ls', 'tasks. p95 ÷ yaml-ls', 'peak RSS ÷ yaml-ls', 'edit w/ YAML error ÷ yaml-ls'], ratios));
}

async function engine(): Promise<void> {
  console.log('\n## Engine\n');
  // In a fresh process (bench/engine-main.ts), started like this one (tsx's loader flags).
  const r = spawnSync(process.execPath, [...process.execArgv, join(root, 'bench', 'engine-main.ts')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const line = r.stdout.trim().split('\n').pop();
  if (r.status !== 0 || !line) throw new Error(`bench/engine-main.ts failed (exit ${r.status})`);
  const figs = JSON.parse(line) as EngineFigures[];
  const ms = (x: number | undefined, unit: string) => (x !== undefined && Number.isFinite(x) ? `${fmt(x, 2)} ${unit}` : '—');
  console.log(table(
    ['workload', 'ours (median)', 'floor (median)', 'ratio (median of pairs)', 'best ÷ best', 'pairs'],
    figs.map((f) => [
      f.name, ms(f.ours, f.unit), ms(f.floor, f.unit),
      f.pairedRatio !== undefined ? `${f.pairedRatio.toFixed(3)}×` : '—',
      f.bestOurs !== undefined && f.bestFloor !== undefined ? ratio(f.bestOurs, f.bestFloor) : '—',
      f.pairs ?? '—',
    ]),
  ));
}

type Activation = {
  requireMs: number; activateMs: number; requireCpuMs: number; activateCpuMs: number;
  deferredMs: number; deferredCpuMs: number; loadedByActivation: string[]; loadedAfter: string[]; error?: string;
};

/** Runs bench/activation.cjs in fresh processes; medians, since one cold load is noisy. */
function activationRuns(n: number, extensionRoot = root): Activation[] {
  const xs: Activation[] = [];
  for (let i = 0; i < n; i++) {
    const r = spawnSync(process.execPath, [join(root, 'bench', 'activation.cjs'), extensionRoot], { encoding: 'utf8' });
    const line = r.stdout.trim().split('\n').pop();
    if (line) xs.push(JSON.parse(line));
  }
  return xs;
}

function extension(): void {
  console.log('\n## Extension\n');
  const xs = activationRuns(Number(arg('--activation-runs') ?? 11));
  const med = (f: (x: Activation) => number) => { const v = xs.map(f).sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
  const err = xs.find((x) => x.error)?.error;
  const early = [...new Set(xs.flatMap((x) => x.loadedByActivation ?? []))];
  const vsix = join(root, 'nika-workflows.vsix');
  const size = (f: string) => existsSync(join(root, 'dist', f)) ? `${(statSync(join(root, 'dist', f)).size / 1048576).toFixed(2)} MiB` : '—';
  const rows = [
    [`activation: load dist/extension.js + activate(), wall (median of ${xs.length})`, `${fmt(med((x) => x.requireMs + x.activateMs))} ms${err ? ` (activate threw under the stand-in vscode: ${err})` : ''}`],
    ['activation, CPU (steadier on a busy machine)', `${fmt(med((x) => x.requireCpuMs + x.activateCpuMs))} ms`],
    ['lazy bundles loaded by activation (should be none)', early.length ? early.join(', ') : 'none'],
    ['deferred right after activation (language client load + start), wall / CPU', `${fmt(med((x) => x.deferredMs))} / ${fmt(med((x) => x.deferredCpuMs))} ms`],
    ['dist/extension.js', size('extension.js')],
    ['dist/languageClient.js, analysis.js, engine.js (loaded on use)', ['languageClient.js', 'analysis.js', 'engine.js'].map(size).join(', ')],
    ['VSIX (npm run package)', existsSync(vsix) ? `${(statSync(vsix).size / 1048576).toFixed(2)} MiB` : 'not built'],
  ];
  console.log(table(['what', 'figure'], rows));
}

(async () => {
  console.log(`Nika benchmarks — node ${process.version}, ${new Date().toISOString()}`);
  if (!skip.has('lsp')) await lsp();
  if (!skip.has('engine')) await engine();
  if (!skip.has('extension')) extension();
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
