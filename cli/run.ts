// `nika-run run FILE …`: check, then run on the embedded engine and render the events.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { analyze } from '../core/analyze.js';
import { LineIndex } from '../core/text.js';
import { parseVarFlags, resolveInputs, startRun } from '../engine/index.js';
import { loadMcpConfig } from '../engine/mcp/config.js';
import { HumanRenderer } from './render.js';
import { styler } from './style.js';
import { workspaceRootFor } from './workspace.js';
import { askOnTerminal } from './prompt.js';

export interface RunFlags {
  vars: string[];
  model?: string;
  task?: string;
  json: boolean;
  mcpConfig?: string;
  maxParallel?: number;
}

export async function runCommand(file: string, flags: RunFlags): Promise<number> {
  const err = styler(process.stderr);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    process.stderr.write(`${err.red('error')} cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 2;
  }
  const a = analyze(text, { uri: file });
  const errors = a.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    const lines = new LineIndex(text);
    const codes = [...new Set(errors.map((d) => d.code))];
    process.stderr.write(`${err.red('refused by check')}: ${codes.join(', ')}\n`);
    for (const d of errors) {
      const p = lines.positionAt(d.span.start);
      process.stderr.write(`  ${file}:${p.line + 1}:${p.character + 1}: ${err.bold(d.code)} ${d.message}\n`);
    }
    return 2;
  }

  const env = process.env;
  let inputs: Record<string, unknown>;
  try {
    inputs = parseVarFlags(flags.vars, env);
    resolveInputs(a.workflow, inputs);
  } catch (e) {
    process.stderr.write(`${err.red('error')} ${(e as Error).message}\n`);
    return 2;
  }
  if (flags.task && !a.workflow.tasks.some((t) => t.id === flags.task)) {
    process.stderr.write(`${err.red('error')} no task '${flags.task}' in ${file} (tasks: ${a.workflow.tasks.map((t) => t.id).join(', ')})\n`);
    return 2;
  }

  const { servers, problems } = loadMcpConfig({ workflowServers: a.workflow.mcp, configFile: flags.mcpConfig, workspaceRoot: workspaceRootFor(file), env });
  for (const p of problems) process.stderr.write(`${err.yellow('warning')} ${p.message}\n`);
  if (flags.mcpConfig && problems.some((p) => p.file.endsWith(flags.mcpConfig!) || p.message.includes(flags.mcpConfig!))) return 2;

  const interactive = !flags.json && process.stdin.isTTY === true && process.stdout.isTTY === true;
  const handle = startRun(a.workflow, {
    cwd: dirname(resolve(file)),
    file,
    inputs,
    modelOverride: flags.model,
    only: flags.task ? { task: flags.task, withUpstream: true } : undefined,
    maxParallel: flags.maxParallel,
    env,
    mcpServers: servers,
    prompt: interactive ? askOnTerminal : undefined,
  });

  const renderer = flags.json ? undefined : new HumanRenderer(process.stdout);
  handle.onEvent((e) => {
    if (renderer) renderer.handle(e);
    else process.stdout.write(JSON.stringify(e) + '\n');
  });

  let interrupts = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    interrupts++;
    if (interrupts === 1 && !flags.json) process.stderr.write(`\n${err.yellow(`${sig}: stopping (again to skip cleanups)…`)}\n`);
    if (interrupts <= 2) handle.cancel(`interrupted by ${sig}`);
    else process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const result = await handle.done;
    return result.state === 'success' ? 0 : result.state === 'failure' ? 1 : 130;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
