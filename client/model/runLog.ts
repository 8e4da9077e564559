// Renders the event stream as readable text for a run's output channel. Streamed model text is
// written as it arrives; when several tasks stream at once, each switch starts a new block
// headed by the task id so the interleaving stays legible.
import type { NikaEvent } from '../../engine/events.js';
import { formatDuration, oneLine, previewValue, safeJson } from './format.js';

const GUTTER = '  │ ';

export class RunLogFormatter {
  private streamKey: string | undefined;
  private atLineStart = true;
  /** Tasks whose current turn was streamed chunk by chunk (so the turn text is not printed twice). */
  private streamedTurn = new Set<string>();

  format(ev: NikaEvent): string {
    if (ev.type === 'infer_chunk') return this.chunk(keyOf(ev), label(ev), ev.text);
    let out = this.endStream();
    switch (ev.type) {
      case 'workflow_started':
        out += `▶ ${ev.workflow} · ${ev.task_count} task${ev.task_count === 1 ? '' : 's'} · ${ev.dialect}${ev.file ? ` · ${ev.file}` : ''}\n`;
        break;
      case 'task_scheduled':
        break;
      case 'task_started': {
        const what = [ev.verb, ev.model, ev.tool].filter(Boolean).join(' · ');
        out += `● ${label(ev)} started${what ? ` (${what})` : ''}${ev.attempt > 1 ? ` · attempt ${ev.attempt}` : ''}\n`;
        break;
      }
      case 'agent_turn': {
        const k = keyOf(ev);
        if (ev.text && !this.streamedTurn.has(k)) out += block(ev.text);
        this.streamedTurn.delete(k);
        const budget = [
          `turn ${ev.turn}${ev.max_turns ? `/${ev.max_turns}` : ''}`,
          ev.tokens_used !== undefined ? `${ev.tokens_used}${ev.max_tokens_total ? `/${ev.max_tokens_total}` : ''} tokens` : undefined,
          ev.stop_reason ? `stop: ${ev.stop_reason}` : undefined,
        ].filter(Boolean).join(' · ');
        out += `  ${label(ev)} · ${budget}\n`;
        break;
      }
      case 'agent_tool_call':
        this.streamedTurn.delete(keyOf(ev));
        out += `  ${label(ev)} → ${ev.tool} ${oneLine(safeJson(ev.args, 0), 240)}\n`;
        break;
      case 'agent_tool_result':
        out += `  ${label(ev)} ← ${ev.tool}${ev.is_error ? ' ✗ error:' : ''} ${previewValue(ev.result, 240)}\n`;
        break;
      case 'task_log':
        out += `  ${label(ev)} [${ev.level}] ${ev.message}\n`;
        break;
      case 'task_retrying':
        out += `↻ ${label(ev)} retrying (attempt ${ev.attempt}) in ${formatDuration(ev.delay_ms)} after ${ev.error.code}: ${oneLine(ev.error.message, 200)}\n`;
        break;
      case 'task_completed':
        out += `✓ ${label(ev)} ${formatDuration(ev.duration_ms)}${ev.output !== undefined && ev.output !== null ? ` · ${previewValue(ev.output, 160)}` : ''}\n`;
        break;
      case 'task_failed':
        out += `✗ ${label(ev)} ${formatDuration(ev.duration_ms)} · ${ev.error.code}: ${ev.error.message}\n`;
        break;
      case 'task_skipped':
        out += `⊘ ${label(ev)} skipped${ev.reason ? `: ${ev.reason}` : ''}\n`;
        break;
      case 'task_cancelled':
        out += `■ ${label(ev)} cancelled${ev.reason ? `: ${ev.reason}` : ''}\n`;
        break;
      case 'task_recovered':
        out += `↺ ${label(ev)} recovered from ${ev.error.code} · ${previewValue(ev.output, 160)}\n`;
        break;
      case 'workflow_completed':
      case 'workflow_failed':
      case 'workflow_cancelled': {
        const counts = new Map<string, number>();
        for (const s of Object.values(ev.tasks ?? {})) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
        const parts = [...counts].map(([st, n]) => `${n} ${STATUS_WORD[st] ?? st}`).join(', ');
        const head = ev.state === 'success' ? '✓ Workflow succeeded' : ev.state === 'failure' ? '✗ Workflow failed' : '■ Workflow cancelled';
        out += `\n${head} in ${formatDuration(ev.duration_ms)}${parts ? ` · ${parts}` : ''}\n`;
        if (ev.error) out += `  ${ev.error.code}: ${ev.error.message}\n`;
        if (ev.outputs && Object.keys(ev.outputs).length > 0) out += `outputs:\n${indent(safeJson(ev.outputs), '  ')}\n`;
        break;
      }
    }
    return out;
  }

  private chunk(key: string, name: string, text: string): string {
    let out = '';
    if (this.streamKey !== key) {
      if (!this.atLineStart) out += '\n';
      out += `  ${name} ›\n`;
      this.streamKey = key;
      this.atLineStart = true;
    }
    this.streamedTurn.add(key);
    const parts = text.split(/\r?\n/);
    parts.forEach((part, i) => {
      if (this.atLineStart && (part !== '' || i < parts.length - 1)) out += GUTTER;
      out += part;
      if (i < parts.length - 1) {
        out += '\n';
        this.atLineStart = true;
      } else if (part !== '') {
        this.atLineStart = false;
      }
    });
    return out;
  }

  private endStream(): string {
    this.streamKey = undefined;
    if (this.atLineStart) return '';
    this.atLineStart = true;
    return '\n';
  }
}

const STATUS_WORD: Record<string, string> = {
  success: 'succeeded', failure: 'failed', skipped: 'skipped', cancelled: 'cancelled', pending: 'not run',
};

function keyOf(ev: { task_id: string; index?: number }): string {
  return ev.index === undefined ? ev.task_id : `${ev.task_id}[${ev.index}]`;
}
const label = keyOf;

function block(text: string): string {
  return text.split(/\r?\n/).map((l) => GUTTER + l).join('\n') + '\n';
}

function indent(text: string, pad: string): string {
  return text.split('\n').map((l) => pad + l).join('\n');
}
