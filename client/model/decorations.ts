// The end-of-line badge after each task key: what a user glances at while the run goes on and
// after it ends. Short enough never to push past a normal editor width.
import type { RunView, TaskRun, TaskState } from './runState.js';
import { clip, fence, formatDuration, oneLine, previewValue, safeJson } from './format.js';

export type Tone = 'running' | 'success' | 'failure' | 'skipped' | 'cancelled' | 'waiting';

export interface TaskBadge {
  text: string;
  tone: Tone;
  /** Markdown shown on hover: status, error and a clipped output. */
  hover: string;
}

const ICON: Record<TaskState, string> = {
  pending: '◌', scheduled: '◌', running: '⟳', retrying: '↻', success: '✓', failure: '✗', skipped: '⊘', cancelled: '■',
};

/** `undefined` when the task has nothing worth showing (never scheduled in a finished run). */
export function taskBadge(run: RunView, t: TaskRun, now: number, maxOutput = 60): TaskBadge | undefined {
  const parts: string[] = [];
  let tone: Tone;
  switch (t.status) {
    case 'pending':
    case 'scheduled':
      if (run.status !== 'running') return undefined;
      if (run.mode !== 'workflow' && run.mode !== 'mock' && t.status === 'pending') return undefined;
      tone = 'waiting';
      parts.push('waiting');
      break;
    case 'running':
    case 'retrying': {
      tone = 'running';
      const elapsed = t.startedAt !== undefined ? ` ${formatDuration(Math.max(0, now - t.startedAt))}` : '';
      parts.push(t.status === 'retrying' ? `retrying (attempt ${t.attempt + 1})` : `running${elapsed}`);
      if (t.iterations) parts.push(`${t.iterations.done}/${t.iterations.started} items`);
      if (t.verb === 'agent' || t.turn > 0) parts.push(budgetText(t));
      const live = t.streamed ? t.streamed.slice(-maxOutput * 2) : undefined;
      if (live) parts.push(`“${tail(oneLine(live, maxOutput * 2), maxOutput)}”`);
      break;
    }
    case 'success':
      tone = 'success';
      if (t.durationMs !== undefined) parts.push(formatDuration(t.durationMs));
      if (t.iterations) parts.push(`${t.iterations.done - t.iterations.failed}/${t.iterations.done} items`);
      if (t.recovered && t.error) parts.push(`recovered from ${t.error.code}`);
      if (t.hasOutput && t.output !== null && t.output !== '') parts.push(quote(previewValue(t.output, maxOutput), t.output));
      break;
    case 'failure':
      tone = 'failure';
      if (t.durationMs !== undefined) parts.push(formatDuration(t.durationMs));
      if (t.error) parts.push(`${t.error.code} ${oneLine(t.error.message, maxOutput)}`);
      break;
    case 'skipped':
      tone = 'skipped';
      parts.push(t.reason ? `skipped: ${oneLine(t.reason, maxOutput)}` : 'skipped');
      break;
    case 'cancelled':
      tone = 'cancelled';
      parts.push(t.reason ? `cancelled: ${oneLine(t.reason, maxOutput)}` : 'cancelled');
      break;
  }
  return { text: `${ICON[t.status]} ${parts.filter(Boolean).join(' · ')}`, tone, hover: taskHover(run, t) };
}

export function budgetText(t: TaskRun): string {
  const turn = `turn ${t.turn}${t.maxTurns ? `/${t.maxTurns}` : ''}`;
  if (t.tokensUsed === undefined) return turn;
  return `${turn} · ${t.tokensUsed.toLocaleString('en-US')}${t.maxTokensTotal ? `/${t.maxTokensTotal.toLocaleString('en-US')}` : ''} tokens`;
}

export function taskHover(run: RunView, t: TaskRun): string {
  const lines = [`**${t.id}** · ${t.status}${t.durationMs !== undefined ? ` · ${formatDuration(t.durationMs)}` : ''} · run of \`${run.workflow}\``];
  const what = [t.verb, t.model, t.tool].filter(Boolean).join(' · ');
  if (what) lines.push(what);
  if (t.error) lines.push(`**${t.error.code}**: ${t.error.message}`);
  if (t.reason) lines.push(t.reason);
  if (t.hasOutput) {
    const text = typeof t.output === 'string' ? t.output : safeJson(t.output);
    lines.push(fence(clip(text, 1500), typeof t.output === 'string' ? '' : 'json'));
  } else if (t.streamed) {
    lines.push(fence(clip(t.streamed, 1500)));
  }
  return lines.join('\n\n');
}

function tail(s: string, max: number): string {
  return s.length <= max ? s : '…' + s.slice(s.length - max + 1);
}

function quote(preview: string, value: unknown): string {
  return typeof value === 'string' ? `“${preview}”` : preview;
}
