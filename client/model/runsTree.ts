// Rows of the Runs view: a run, then its tasks. Pure descriptions (label, icon id, tooltip,
// context value); the vscode layer only turns them into TreeItems.
import type { RunView, TaskRun, TaskState } from './runState.js';
import { firstError, tally } from './runState.js';
import { formatDuration, oneLine, previewValue } from './format.js';

export interface IconRef { id: string; color?: string }

export interface RowModel {
  label: string;
  description: string;
  tooltip: string;
  icon: IconRef;
  /** Drives the inline actions in package.json `menus` (`nikaRun.running`, `nikaTask.done` …). */
  contextValue: string;
  collapsible: boolean;
}

const TASK_ICON: Record<TaskState, IconRef> = {
  pending: { id: 'circle-outline' },
  scheduled: { id: 'circle-outline' },
  running: { id: 'sync~spin', color: 'charts.blue' },
  retrying: { id: 'refresh', color: 'charts.yellow' },
  success: { id: 'pass', color: 'testing.iconPassed' },
  failure: { id: 'error', color: 'testing.iconFailed' },
  skipped: { id: 'debug-step-over', color: 'disabledForeground' },
  cancelled: { id: 'circle-slash', color: 'disabledForeground' },
};

const RUN_ICON: Record<RunView['status'], IconRef> = {
  running: { id: 'sync~spin', color: 'charts.blue' },
  success: { id: 'pass-filled', color: 'testing.iconPassed' },
  failure: { id: 'error', color: 'testing.iconFailed' },
  cancelled: { id: 'circle-slash', color: 'disabledForeground' },
  refused: { id: 'warning', color: 'list.warningForeground' },
};

const MODE_LABEL: Record<RunView['mode'], string> = {
  workflow: '', mock: 'mock/echo', task: 'task', upstream: 'task + upstream',
};

export function runRow(run: RunView, now: number): RowModel {
  const counts = tally(run);
  const total = run.order.length;
  const done = counts.success + counts.failure + counts.skipped + counts.cancelled;
  const mode = run.mode === 'task' || run.mode === 'upstream' ? `${MODE_LABEL[run.mode]} ${run.target}` : MODE_LABEL[run.mode];
  const desc: string[] = [];
  if (mode) desc.push(mode);
  if (run.status === 'running') desc.push(`${done}/${total} · ${formatDuration(now - run.startedAt)}`);
  else if (run.status === 'refused') desc.push(`refused${run.error ? ` · ${run.error.code}` : ''}`);
  else {
    desc.push(formatDuration(run.durationMs ?? (run.endedAt ?? now) - run.startedAt));
    const fe = firstError(run);
    if (run.status === 'failure' && fe) desc.push(fe.error.code);
  }
  desc.push(clock(run.startedAt));
  const tip = [
    `**${run.workflow}** — ${run.status}${mode ? ` (${mode})` : ''}`,
    run.file ? `\`${run.file}\`` : '',
    `${counts.success} succeeded · ${counts.failure} failed · ${counts.skipped} skipped · ${counts.cancelled} cancelled${counts.running ? ` · ${counts.running} running` : ''}`,
    run.error ? `**${run.error.code}**: ${run.error.message}` : '',
    run.backend === 'official' ? 'Ran through the official `nika` binary.' : '',
  ].filter(Boolean).join('\n\n');
  return {
    label: run.workflow,
    description: desc.join(' · '),
    tooltip: tip,
    icon: RUN_ICON[run.status],
    contextValue: run.status === 'running' ? 'nikaRun.running' : 'nikaRun.done',
    collapsible: run.order.length > 0,
  };
}

export function taskRow(run: RunView, t: TaskRun, now: number): RowModel {
  const desc: string[] = [];
  if (t.status === 'running' || t.status === 'retrying') {
    if (t.startedAt !== undefined) desc.push(formatDuration(now - t.startedAt));
    if (t.verb === 'agent') desc.push(`turn ${t.turn}${t.maxTurns ? `/${t.maxTurns}` : ''}`);
    if (t.status === 'retrying') desc.push(`retry ${t.attempt + 1}`);
  } else if (t.status === 'pending' || t.status === 'scheduled') {
    desc.push(run.status === 'running' ? 'waiting' : 'not run');
  } else {
    if (t.durationMs !== undefined) desc.push(formatDuration(t.durationMs));
    if (t.status === 'failure' && t.error) desc.push(t.error.code);
    if (t.status === 'skipped') desc.push(t.reason ? `skipped: ${oneLine(t.reason, 40)}` : 'skipped');
    if (t.status === 'cancelled') desc.push('cancelled');
    if (t.status === 'success' && t.hasOutput && t.output !== null && t.output !== '') desc.push(previewValue(t.output, 50));
  }
  if (t.iterations) desc.push(`${t.iterations.done}/${t.iterations.started} items`);
  const tip = [
    `**${t.id}** — ${t.status}${t.verb ? ` · ${t.verb}` : ''}${t.model ? ` · ${t.model}` : ''}${t.tool ? ` · ${t.tool}` : ''}`,
    t.attempt > 1 ? `${t.attempt} attempts` : '',
    t.error ? `**${t.error.code}**: ${t.error.message}` : '',
    t.reason ?? '',
    t.hasOutput || t.streamed || t.transcript.length ? 'Click to open the full output.' : '',
  ].filter(Boolean).join('\n\n');
  return {
    label: t.id,
    description: desc.filter(Boolean).join(' · '),
    tooltip: tip,
    icon: TASK_ICON[t.status],
    contextValue: `nikaTask.${t.verb === 'agent' || t.verb === 'infer' ? 'model' : 'plain'}`,
    collapsible: false,
  };
}

function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}
