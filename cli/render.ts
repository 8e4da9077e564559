// Human rendering of the event stream: one line per task transition, streamed model text under
// the task that produced it, and the outputs at the end.
import type { NikaEvent } from '../engine/events.js';
import { duration, preview, styler } from './style.js';

export class HumanRenderer {
  private readonly s: ReturnType<typeof styler>;
  /** The task whose streamed text is mid-line, so another task's text starts on a new line. */
  private streaming: string | undefined;
  private width = 8;
  /** Tasks whose current agent turn already streamed its text (agent_turn would repeat it). */
  private readonly streamedTurn = new Set<string>();

  constructor(private readonly out: NodeJS.WriteStream) {
    this.s = styler(out);
  }

  private line(text: string): void {
    this.endStream();
    this.out.write(text + '\n');
  }

  private endStream(): void {
    if (this.streaming !== undefined) {
      this.out.write('\n');
      this.streaming = undefined;
    }
  }

  private id(e: { task_id: string; index?: number }): string {
    const label = e.index !== undefined ? `${e.task_id}[${e.index}]` : e.task_id;
    return this.s.bold(label.padEnd(this.width));
  }

  handle(e: NikaEvent): void {
    const s = this.s;
    switch (e.type) {
      case 'workflow_started':
        this.line(`${s.cyan('▶')} ${s.bold(e.workflow)} ${s.dim(`(${e.dialect}, ${e.task_count} task${e.task_count === 1 ? '' : 's'})`)}`);
        break;
      case 'task_scheduled':
        this.width = Math.max(this.width, e.task_id.length + 4);
        break;
      case 'task_started': {
        const what = [e.verb, e.model, e.tool].filter(Boolean).join(' ');
        this.line(`  ${s.blue('●')} ${this.id(e)} ${s.dim(what + (e.attempt > 1 ? ` (attempt ${e.attempt})` : ''))}`);
        break;
      }
      case 'infer_chunk': {
        this.streamedTurn.add(e.task_id);
        if (this.streaming !== e.task_id) {
          this.endStream();
          this.out.write(`    ${s.dim('│')} `);
          this.streaming = e.task_id;
        }
        this.out.write(e.text.replace(/\n/g, `\n    ${s.dim('│')} `));
        break;
      }
      case 'agent_turn':
        if (this.streamedTurn.delete(e.task_id)) this.line(`    ${s.dim('│')} ${s.magenta(`turn ${e.turn}`)}${e.stop_reason ? s.dim(` (${e.stop_reason})`) : ''}`);
        else if (e.text) this.line(`    ${s.dim('│')} ${s.magenta(`turn ${e.turn}`)} ${e.text.replace(/\n/g, `\n    ${s.dim('│')} `)}`);
        break;
      case 'agent_tool_call':
        this.line(`    ${s.dim('→')} ${e.tool} ${s.dim(preview(e.args, 100))}`);
        break;
      case 'agent_tool_result':
        this.line(`    ${e.is_error ? s.red('←') : s.dim('←')} ${e.tool} ${s.dim(preview(e.result, 100))}`);
        break;
      case 'task_log':
        this.line(`    ${s.dim('·')} ${e.level === 'error' ? s.red(e.level) : e.level === 'warn' ? s.yellow(e.level) : s.dim(e.level)} ${e.message}${e.data !== undefined && e.data !== null ? ' ' + s.dim(preview(e.data, 100)) : ''}`);
        break;
      case 'task_retrying':
        this.line(`  ${s.yellow('↻')} ${this.id(e)} ${e.error.code}: ${preview(e.error.message, 100)} ${s.dim(`— attempt ${e.attempt} in ${duration(e.delay_ms)}`)}`);
        break;
      case 'task_completed':
        this.line(`  ${s.green('✓')} ${this.id(e)} ${s.dim(duration(e.duration_ms))} ${s.dim(preview(e.output, 80))}`);
        break;
      case 'task_failed':
        this.line(`  ${s.red('✗')} ${this.id(e)} ${s.dim(duration(e.duration_ms))} ${s.red(e.error.code)} ${e.error.message}`);
        break;
      case 'task_skipped':
        this.line(`  ${s.yellow('⊘')} ${this.id(e)} ${s.dim(`skipped: ${e.reason}`)}`);
        break;
      case 'task_cancelled':
        this.line(`  ${s.dim('⨯')} ${this.id(e)} ${s.dim(`cancelled: ${e.reason}`)}`);
        break;
      case 'task_recovered':
        this.line(`  ${s.yellow('⤳')} ${this.id(e)} ${s.dim(`recovered from ${e.error.code}`)}`);
        break;
      case 'workflow_completed':
      case 'workflow_failed':
      case 'workflow_cancelled': {
        const mark = e.state === 'success' ? s.green('✓ succeeded') : e.state === 'failure' ? s.red('✗ failed') : s.yellow('⨯ cancelled');
        this.line(`${mark} ${s.dim(`in ${duration(e.duration_ms)}`)}${e.error && e.state !== 'success' ? ` ${s.red(e.error.code)} ${e.error.message}` : ''}`);
        if (e.outputs && Object.keys(e.outputs).length) this.line(`${s.bold('outputs')}\n${JSON.stringify(e.outputs, null, 2)}`);
        break;
      }
    }
  }
}
