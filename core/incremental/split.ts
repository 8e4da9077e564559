// Cutting a document into independently parseable slices: one per top-level key and, inside a
// block `tasks:` map, one per task. The line structure of block mappings makes the cut points
// cheap to find; anything the cut could get wrong (flow or list at the top, documents markers,
// directives, tabs, lone CRs, a BOM, odd indentation, complex keys) makes the split refuse, and
// the caller parses the whole text instead.

export interface Slice {
  start: number;
  end: number;
  text: string;
}

export interface Split {
  /** Top-level slices in order; the `tasks:` one holds only its header line (and what trails it). */
  top: Slice[];
  /** Index in `top` of the `tasks:` header, or -1 when the document has no block task map. */
  tasksAt: number;
  tasks: Slice[];
}

const TOP_KEY = /^[A-Za-z_][\w-]*[ ]*:(?:[ ]|\r?$)/;
const TASK_KEY = /^[A-Za-z_][\w-]*[ ]*:(?:[ ]|\r?$)/;

/** Line starts of `text` (LF line breaks; CRLF keeps its CR inside the line). */
function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  return i;
}

function isBlankOrComment(rest: string): boolean {
  return rest === '' || rest === '\r' || rest[0] === '#';
}

export function splitDocument(text: string): Split | undefined {
  if (text.charCodeAt(0) === 0xfeff) return undefined;
  if (/\r(?!\n)/.test(text)) return undefined;
  const starts = lineStarts(text);
  const lines = starts.length;
  const lineAt = (i: number) => text.slice(starts[i], i + 1 < lines ? starts[i + 1] - 1 : text.length);

  // Top-level cut points: lines that begin a plain key at column 0.
  const topStarts: number[] = [];
  let tasksLine = -1;
  for (let i = 0; i < lines; i++) {
    const line = lineAt(i);
    const c = line.charCodeAt(0);
    if (c === 9 || /^[ ]*\t/.test(line)) return undefined;
    if (line === '' || line === '\r' || c === 32 || c === 35 /* # */) continue;
    if (!TOP_KEY.test(line)) return undefined; // `---`, `...`, `%`, `- `, flow, quoted/complex keys, anchors
    topStarts.push(i);
    if (/^tasks[ ]*:[ ]*(#.*)?\r?$/.test(line)) {
      if (tasksLine >= 0) return undefined; // duplicate `tasks:` keys: leave them to the full parse
      tasksLine = i;
    }
  }
  if (topStarts.length === 0) return undefined;
  // Leading comments and blank lines belong to the first slice; trailing ones to the slice above.
  topStarts[0] = 0;
  const offsetOfLine = (i: number) => (i < lines ? starts[i] : text.length);
  const slice = (a: number, b: number): Slice => ({ start: a, end: b, text: text.slice(a, b) });

  const top: Slice[] = [];
  const tasks: Slice[] = [];
  let tasksAt = -1;
  for (let k = 0; k < topStarts.length; k++) {
    const from = topStarts[k];
    const to = k + 1 < topStarts.length ? topStarts[k + 1] : lines;
    const isTasks = from <= tasksLine && tasksLine < to;
    if (!isTasks) {
      top.push(slice(offsetOfLine(from), offsetOfLine(to)));
      continue;
    }
    // Inside `tasks:`: the first content line fixes the task indentation.
    let indent = -1;
    const taskStarts: number[] = [];
    for (let i = tasksLine + 1; i < to; i++) {
      const line = lineAt(i);
      const n = indentOf(line);
      if (isBlankOrComment(line.slice(n))) continue;
      if (indent < 0) indent = n;
      if (n < indent || n === 0) return undefined;
      if (n === indent) {
        if (!TASK_KEY.test(line.slice(n))) return undefined;
        taskStarts.push(i);
      }
    }
    tasksAt = top.length;
    const headerEnd = taskStarts.length ? taskStarts[0] : to;
    top.push(slice(offsetOfLine(from), offsetOfLine(headerEnd)));
    for (let j = 0; j < taskStarts.length; j++) {
      tasks.push(slice(offsetOfLine(taskStarts[j]), offsetOfLine(j + 1 < taskStarts.length ? taskStarts[j + 1] : to)));
    }
  }
  return { top, tasksAt, tasks };
}
