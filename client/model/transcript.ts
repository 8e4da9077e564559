// Agent and infer transcripts as markdown: compact for the inline thread under the task key,
// complete for the read-only document. Model text is shown as markdown (answers usually are);
// tool arguments and results are fenced so nothing inside can break the layout.
import type { RunView, TaskRun, TranscriptEntry } from './runState.js';
import { budgetText } from './decorations.js';
import { clip, fence, formatDuration, safeJson } from './format.js';

export interface InlineOptions {
  /** Entries shown before older ones collapse into "n earlier entries". */
  maxEntries?: number;
  /** Longest tool argument/result block. */
  maxBlock?: number;
  /** Longest assistant text per entry. */
  maxText?: number;
}

/** The body of the inline thread at the task (updated live, kept after the run). */
export function renderInline(run: RunView, t: TaskRun, opts: InlineOptions = {}): string {
  const maxEntries = opts.maxEntries ?? 6;
  const maxBlock = opts.maxBlock ?? 400;
  const maxText = opts.maxText ?? 1200;
  const out: string[] = [statusLine(run, t)];
  const entries = t.transcript;
  const hidden = Math.max(0, entries.length - maxEntries);
  if (hidden > 0) out.push(`*… ${hidden} earlier entr${hidden === 1 ? 'y' : 'ies'} (open the full transcript)*`);
  for (const e of entries.slice(hidden)) out.push(entryMarkdown(e, maxBlock, maxText));
  const answer = finalAnswer(t, maxText);
  // An infer task's streamed text is its answer: once done, show it once, as the answer.
  if (t.streamed && !(answer && sameText(t.streamed, t.output))) out.push(tailText(t.streamed, maxText) + (t.status === 'running' ? ' ▍' : ''));
  if (answer) out.push(answer);
  if (t.status === 'failure' && t.error) out.push(`**✗ ${t.error.code}**: ${t.error.message}`);
  return out.join('\n\n');
}

/** The complete read-only document for one task of one run. */
export function renderTaskDocument(run: RunView, t: TaskRun): string {
  const out: string[] = [`# ${t.id}`, statusLine(run, t)];
  const facts = [
    t.verb ? `- verb: \`${t.verb}\`` : '',
    t.model ? `- model: \`${t.model}\`` : '',
    t.tool ? `- tool: \`${t.tool}\`` : '',
    t.attempt > 1 ? `- attempts: ${t.attempt}` : '',
    t.iterations ? `- items: ${t.iterations.done} done, ${t.iterations.failed} failed` : '',
    t.usage ? `- usage: ${t.usage.input_tokens} input + ${t.usage.output_tokens} output tokens` : '',
    t.stopReason ? `- stop reason: ${t.stopReason}` : '',
    `- run: \`${run.runId ?? run.key}\` of \`${run.workflow}\`${run.file ? ` (${run.file})` : ''}`,
  ].filter(Boolean);
  out.push(facts.join('\n'));
  if (t.error) out.push(`## Error\n\n**${t.error.code}**: ${t.error.message}`);
  if (t.reason) out.push(`## Reason\n\n${t.reason}`);
  if (t.hasOutput) out.push(`## Output\n\n${outputBlock(t.output)}`);
  const streamed = t.streamed && !(t.hasOutput && sameText(t.streamed, t.output)) ? t.streamed : '';
  if (t.transcript.length || streamed) {
    const body = t.transcript.map((e) => entryMarkdown(e, 20_000, 100_000));
    if (streamed) body.push(streamed + (t.status === 'running' ? ' ▍' : ''));
    out.push(`## Transcript\n\n${body.join('\n\n')}`);
  }
  return out.join('\n\n') + '\n';
}

/** A whole run as one document: summary table, then each task that has something to show. */
export function renderRunDocument(run: RunView): string {
  const out = [`# ${run.workflow} — ${run.status}`, `Run \`${run.runId ?? run.key}\`${run.durationMs !== undefined ? ` · ${formatDuration(run.durationMs)}` : ''}${run.file ? ` · ${run.file}` : ''}`];
  if (run.error) out.push(`**${run.error.code}**: ${run.error.message}`);
  const rows = run.order.map((id) => {
    const t = run.tasks.get(id)!;
    return `| ${id} | ${t.status} | ${t.durationMs !== undefined ? formatDuration(t.durationMs) : ''} | ${t.error?.code ?? ''} |`;
  });
  if (rows.length) out.push(['| task | status | duration | error |', '|---|---|---|---|', ...rows].join('\n'));
  if (run.outputs && Object.keys(run.outputs).length) out.push(`## Outputs\n\n${fence(safeJson(run.outputs), 'json')}`);
  return out.join('\n\n') + '\n';
}

function statusLine(run: RunView, t: TaskRun): string {
  const parts = [`**${t.verb ?? 'task'}** \`${t.id}\``, STATUS[t.status]];
  if (t.durationMs !== undefined) parts.push(formatDuration(t.durationMs));
  if (t.verb === 'agent' || t.turn > 0) parts.push(budgetText(t));
  if (t.model) parts.push(`\`${t.model}\``);
  if (run.mode === 'mock') parts.push('mock rehearsal');
  return parts.join(' · ');
}

const STATUS: Record<TaskRun['status'], string> = {
  pending: 'waiting', scheduled: 'waiting', running: 'running', retrying: 'retrying',
  success: 'done', failure: 'failed', skipped: 'skipped', cancelled: 'cancelled',
};

export function entryMarkdown(e: TranscriptEntry, maxBlock: number, maxText: number): string {
  switch (e.kind) {
    case 'text':
      return `**Turn ${e.turn}**\n\n${clip(e.text, maxText)}`;
    case 'tool_call':
      return `🔧 **${e.tool}**\n${fence(clip(safeJson(e.args), maxBlock), 'json')}`;
    case 'tool_result': {
      const text = typeof e.result === 'string' ? e.result : safeJson(resultText(e.result));
      return `${e.isError ? '⚠️ **error from**' : '↩ **result of**'} ${e.tool}\n${fence(clip(text, maxBlock), typeof e.result === 'string' ? '' : 'json')}`;
    }
    case 'log':
      return `*[${e.level}]* ${e.message}`;
    case 'retry':
      return `↻ retrying (attempt ${e.attempt}) after **${e.error.code}**: ${e.error.message}`;
  }
}

/** MCP results are `{content:[{type:'text', text}]}`; show the text when that is all there is. */
function resultText(result: unknown): unknown {
  const content = (result as { content?: unknown } | null)?.content;
  if (Array.isArray(content) && content.every((c) => c && typeof c === 'object' && (c as { type?: string }).type === 'text')) {
    const text = content.map((c) => (c as { text?: string }).text ?? '').join('\n');
    if (!(result as { isError?: boolean }).isError && Object.keys(result as object).length === 1) return text;
  }
  return result;
}

function finalAnswer(t: TaskRun, max: number): string | undefined {
  if (t.status !== 'success' || !t.hasOutput || t.output === null || t.output === undefined) return undefined;
  // An agent's last turn text usually is the answer already; do not print it twice.
  const last = [...t.transcript].reverse().find((e) => e.kind === 'text');
  if (typeof t.output === 'string' && last && last.kind === 'text' && last.text.trim() === t.output.trim()) {
    return '✅ **Answer** (the last turn above)';
  }
  return `✅ **Answer**\n\n${typeof t.output === 'string' ? clip(t.output, max) : fence(clip(safeJson(t.output), max), 'json')}`;
}

function outputBlock(value: unknown): string {
  if (typeof value === 'string') return fence(value);
  return fence(safeJson(value), 'json');
}

function sameText(a: string, b: unknown): boolean {
  return typeof b === 'string' && a.trim() === b.trim();
}

function tailText(s: string, max: number): string {
  return s.length <= max ? s : `…${s.slice(s.length - max)}`;
}
