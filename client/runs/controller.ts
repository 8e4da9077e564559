// Starting, following and cancelling runs. A run is checked first (error diagnostics refuse it,
// naming their codes), asks for missing required inputs, then runs on the embedded engine in this
// extension host — or through the official `nika` binary when the setting says so. Both feed the
// same event fold, so every view renders either.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Analysis } from '../../core/analyze.js';
import type { Workflow } from '../../core/ir.js';
import type { NikaEvent } from '../../engine/events.js';
import { analysisOf, taskText } from '../analysisCache.js';
import { coerceInput, inputQuestions, type InputQuestion } from '../model/inputs.js';
import { RunLogFormatter } from '../model/runLog.js';
import { applyEvent, createRun, refuseRun, type RunMode, type RunView } from '../model/runState.js';
import { readSettings } from '../settings.js';
import { errorMessage } from '../util.js';
import { loadEngine } from '../lazy.js';
import type { RunStore } from './store.js';
import { findOfficialBinary, startOfficialRun } from './officialBackend.js';
import type { McpClientPool } from '../../engine/contracts.js';

export interface RunDeps {
  store: RunStore;
  /** Environment with the provider keys from SecretStorage and base URLs from settings. */
  engineEnv(): Promise<Record<string, string | undefined>>;
  /** The editor's MCP pool plus the workflow's own servers for this run; dispose stops the latter. */
  poolForRun(workflow: Workflow, env: Record<string, string | undefined>, cwd: string): Promise<{ pool: McpClientPool; dispose(): Promise<void> }>;
  log: vscode.OutputChannel;
}

export interface RunRequest { uri: vscode.Uri; mode: RunMode; task?: string }

let counter = 0;

export class RunController {
  constructor(private readonly deps: RunDeps) {}

  async start(req: RunRequest): Promise<RunView | undefined> {
    if (!vscode.workspace.isTrusted) {
      const pick = await vscode.window.showWarningMessage('Nika runs are disabled in Restricted Mode: running a workflow starts processes and calls models. Trust this workspace to run it.', 'Manage Workspace Trust');
      if (pick) void vscode.commands.executeCommand('workbench.trust.manage');
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(req.uri);
    const analysis = analysisOf(doc);
    const file = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
    const name = analysis.workflow.name ?? path.basename(doc.uri.path).replace(/\.nika\.ya?ml$/i, '');
    const run = createRun({
      key: `run-${Date.now().toString(36)}-${++counter}`, workflow: name, mode: req.mode, target: req.task,
      file: doc.uri.toString(), taskIds: analysis.workflow.tasks.map((t) => t.id), startedAt: Date.now(),
    });

    const errors = analysis.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) {
      const codes = [...new Set(errors.map((d) => d.code))];
      refuseRun(run, { code: codes[0], message: `${errors.length} error${errors.length === 1 ? '' : 's'} in the file: ${codes.join(', ')}` }, Date.now());
      this.deps.store.add(run, { rerun: () => void this.start(req) });
      const first = errors[0];
      const pos = analysis.doc.lines.positionAt(first.span.start);
      const pick = await vscode.window.showErrorMessage(
        `Not running ${name}: ${errors.length} error${errors.length === 1 ? '' : 's'} (${codes.join(', ')}). First: line ${pos.line + 1}: ${first.message}`,
        'Show Problems', 'Go to Error');
      if (pick === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
      if (pick === 'Go to Error') void vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos.line, pos.character, pos.line, pos.character) });
      return run;
    }
    if (req.task && !analysis.workflow.tasks.some((t) => t.id === req.task)) {
      void vscode.window.showErrorMessage(`There is no task "${req.task}" in ${name}.`);
      return undefined;
    }

    const inputs = await askInputs(analysis, name);
    if (!inputs) return undefined;

    const settings = readSettings(doc.uri);
    let official: string | undefined;
    if (settings.useOfficialBinary !== 'off') {
      official = await findOfficialBinary(settings.officialBinaryPath);
      if (!official && settings.useOfficialBinary === 'on') {
        void vscode.window.showErrorMessage(`nika.useOfficialBinary is "on" but "${settings.officialBinaryPath}" was not found on PATH. Install it, or set the option to "auto"/"off" to use the embedded engine.`);
        return undefined;
      }
      if (official && doc.isDirty) await doc.save();
    }
    run.backend = official ? 'official' : 'embedded';

    const channel = vscode.window.createOutputChannel(`Nika Run: ${name} #${counter}`);
    const extras = this.deps.store.add(run, { channel, rerun: () => void this.start(req) });
    for (const t of analysis.workflow.tasks) {
      const text = taskText(analysis, t.id);
      if (text !== undefined) extras.snapshots.set(t.id, text);
    }
    channel.show(true);
    const fmt = new RunLogFormatter();
    const onEvent = (ev: NikaEvent) => {
      const taskId = applyEvent(run, ev);
      channel.append(fmt.format(ev));
      this.deps.store.changed(run, taskId);
    };
    const header = [
      `Nika run of ${file}`,
      req.mode === 'mock' ? 'Rehearsal: every model replaced by mock/echo.' : '',
      req.task ? `Only task ${req.task}${req.mode === 'upstream' ? ' and everything upstream of it' : ' (upstream results reused from earlier runs when present)'}.` : '',
      official ? `Backend: ${official} run --json` : 'Backend: embedded engine',
      Object.keys(inputs).length ? `Inputs: ${Object.keys(inputs).join(', ')}` : '',
    ].filter(Boolean).join('\n');
    channel.appendLine(header + '\n');

    const cwd = doc.uri.scheme === 'file' ? path.dirname(doc.uri.fsPath) : (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd());
    const env = await this.deps.engineEnv();
    const modelOverride = req.mode === 'mock' ? 'mock/echo' : undefined;
    try {
      if (official) {
        const h = startOfficialRun({ binary: official, file: doc.uri.fsPath, cwd, task: req.task, modelOverride, inputs, env, runId: run.key, onEvent, onStderr: (s) => channel.append(s) });
        extras.cancel = h.cancel;
        void h.done.then((code) => this.settle(run, code === 0 ? 'success' : code === 130 ? 'cancelled' : 'failure', channel, code !== 0 && code !== 130 ? `nika exited with code ${code}` : undefined));
      } else {
        await this.startEmbedded(run, analysis.workflow, { cwd, file, inputs, modelOverride, env, onEvent, channel, settings, extras, req });
      }
    } catch (e) {
      channel.appendLine(`✗ could not start: ${errorMessage(e)}`);
      this.settle(run, 'failure', channel, errorMessage(e));
    }
    return run;
  }

  private async startEmbedded(run: RunView, wf: Workflow, o: {
    cwd: string; file: string; inputs: Record<string, unknown>; modelOverride?: string; env: Record<string, string | undefined>;
    onEvent(ev: NikaEvent): void; channel: vscode.OutputChannel; settings: ReturnType<typeof readSettings>;
    extras: NonNullable<ReturnType<RunStore['extrasOf']>>; req: RunRequest;
  }): Promise<void> {
    // Loaded on first run only: activation stays free of the engine and the MCP SDK.
    const engine = loadEngine().run;
    const workflow: Workflow = o.settings.defaultModel && !wf.model ? { ...wf, model: o.settings.defaultModel } : wf;
    const pool = await this.deps.poolForRun(workflow, o.env, o.cwd);
    const handle = engine.startRun(workflow, {
      cwd: o.cwd, file: o.file, inputs: o.inputs, modelOverride: o.modelOverride, env: o.env,
      only: o.req.task ? { task: o.req.task, withUpstream: o.req.mode === 'upstream' } : undefined,
      reuse: o.req.task && o.req.mode === 'task' ? this.deps.store.reuseRecords(run.file!) : undefined,
      maxParallel: o.settings.maxParallel > 0 ? o.settings.maxParallel : undefined,
      mcpPool: pool.pool,
      prompt: (r) => answerPrompt(r),
    });
    run.runId = handle.runId;
    const off = handle.onEvent(o.onEvent);
    o.extras.cancel = (reason) => handle.cancel(reason ?? 'cancelled from the editor');
    handle.done.then(
      (result) => this.settle(run, result.state, o.channel, result.error ? `${result.error.code}: ${result.error.message}` : undefined),
      (e) => this.settle(run, 'failure', o.channel, errorMessage(e)),
    ).finally(() => {
      off();
      void pool.dispose();
    });
  }

  /** The engine's final event normally settled the run already; this covers crashes and exits without one. */
  private settle(run: RunView, state: 'success' | 'failure' | 'cancelled', channel: vscode.OutputChannel, message?: string): void {
    if (run.status === 'running') {
      applyEvent(run, { type: state === 'success' ? 'workflow_completed' : state === 'failure' ? 'workflow_failed' : 'workflow_cancelled', state, ts: Date.now(), run_id: run.runId ?? run.key, tasks: {}, duration_ms: Date.now() - run.startedAt, error: message ? { code: /NIKA-[A-Z]+(?:-[A-Z]+)*-\d+/.exec(message)?.[0] ?? 'NIKA-RUN', message } : undefined });
      if (message) channel.appendLine(`\n✗ ${message}`);
    }
    this.deps.store.changed(run);
    if (run.status === 'failure') {
      const t = [...run.tasks.values()].find((x) => x.status === 'failure');
      const what = t?.error ? `${t.id}: ${t.error.code} ${t.error.message}` : run.error ? `${run.error.code} ${run.error.message}` : 'see the output';
      void vscode.window.showErrorMessage(`Nika run of ${run.workflow} failed — ${what}`, 'Show Output').then((p) => { if (p) channel.show(); });
    }
  }

  cancel(run: RunView): void {
    const x = this.deps.store.extrasOf(run.key);
    if (run.status !== 'running' || !x?.cancel) return;
    x.cancel('cancelled from the editor');
    x.channel?.appendLine('■ cancelling…');
  }
}

/** Asks each required input without a default; undefined when the user backs out. */
async function askInputs(a: Analysis, name: string): Promise<Record<string, unknown> | undefined> {
  const qs = inputQuestions(a.workflow.inputs);
  const out: Record<string, unknown> = {};
  for (const [i, q] of qs.entries()) {
    const v = await askOne(q, `${name}: input ${i + 1}/${qs.length}`);
    if (v === undefined) return undefined;
    out[q.name] = v.value;
  }
  return out;
}

async function askOne(q: InputQuestion, title: string): Promise<{ value: unknown } | undefined> {
  if (q.kind === 'enum' || q.kind === 'bool') {
    const options = q.kind === 'bool' ? ['true', 'false'] : q.options ?? [];
    const pick = await vscode.window.showQuickPick(options, { title, placeHolder: `${q.name} (${q.typeLabel})${q.description ? ` — ${q.description}` : ''}`, ignoreFocusOut: true });
    if (pick === undefined) return undefined;
    const c = coerceInput(q, pick);
    return c.ok ? { value: c.value } : undefined;
  }
  const raw = await vscode.window.showInputBox({
    title, prompt: `${q.name} (${q.typeLabel}, required)${q.description ? ` — ${q.description}` : ''}`,
    placeHolder: q.kind === 'json' ? 'a JSON value, e.g. ["a", "b"]' : undefined,
    ignoreFocusOut: true,
    validateInput: (s) => {
      const c = coerceInput(q, s);
      return c.ok ? undefined : c.error;
    },
  });
  if (raw === undefined) return undefined;
  const c = coerceInput(q, raw);
  return c.ok ? { value: c.value } : undefined;
}

/** `nika:prompt` during a run: a human answers in the editor. */
async function answerPrompt(r: { message: string; mode: 'confirm' | 'input' | 'choice'; default?: unknown; choices?: string[]; taskId: string }): Promise<unknown> {
  const title = `Nika task ${r.taskId} asks`;
  if (r.mode === 'confirm') {
    const pick = await vscode.window.showQuickPick(['Yes', 'No'], { title, placeHolder: r.message, ignoreFocusOut: true });
    return pick === undefined ? r.default ?? false : pick === 'Yes';
  }
  if (r.mode === 'choice') {
    const pick = await vscode.window.showQuickPick(r.choices ?? [], { title, placeHolder: r.message, ignoreFocusOut: true });
    return pick ?? r.default;
  }
  const text = await vscode.window.showInputBox({ title, prompt: r.message, value: r.default === undefined ? '' : String(r.default), ignoreFocusOut: true });
  return text ?? r.default;
}
