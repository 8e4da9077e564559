// Where the run lenses go: one row at the top of the file, one row on each task's id. Positions
// come from the IR's spans (so list dialects get theirs on the `id:`/`name:` value).
import type { Workflow } from '../../core/ir.js';
import type { LineIndex } from '../../core/text.js';

export type LensSpot =
  | { kind: 'workflow'; line: number }
  | { kind: 'task'; line: number; character: number; taskId: string };

export function lensPlan(workflow: Workflow, lines: LineIndex): LensSpot[] {
  const spots: LensSpot[] = [];
  if (workflow.tasks.length === 0) return spots;
  spots.push({ kind: 'workflow', line: firstContentLine(lines) });
  const used = new Set<number>();
  for (const t of workflow.tasks) {
    const p = lines.positionAt(t.idSpan.start);
    // Two tasks on one line (flow-style maps) would stack unreadable lenses: keep the first.
    if (used.has(p.line)) continue;
    used.add(p.line);
    spots.push({ kind: 'task', line: p.line, character: p.character, taskId: t.id });
  }
  return spots;
}

/** The first line that is not blank, a comment, a directive or a document marker. */
export function firstContentLine(lines: LineIndex): number {
  for (let i = 0; i < lines.lineCount; i++) {
    const s = lines.lineText(i).trim();
    if (s === '' || s.startsWith('#') || s.startsWith('%') || s === '---') continue;
    return i;
  }
  return 0;
}
