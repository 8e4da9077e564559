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
  /** Column of the task keys (-1 when there are no tasks). */
  indent: number;
}

// Sticky and multi-line: tested at a line's first character, `$` is the end of that line.
const KEY = /[A-Za-z_][\w-]*[ ]*:(?:[ ]|\r?$)/my;
const TASKS_HEADER = /tasks[ ]*:[ ]*(#.*)?\r?$/my;

function keyAt(re: RegExp, text: string, at: number): boolean {
  re.lastIndex = at;
  return re.test(text);
}

/** Line starts of `text` (LF line breaks; CRLF keeps its CR inside the line). */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

export function splitDocument(text: string, starts = lineStarts(text)): Split | undefined {
  if (text.charCodeAt(0) === 0xfeff) return undefined;
  // Lone CRs break lines for YAML; U+2028/9 break them for the multi-line regexes below.
  if ((text.includes('\r') && /\r(?!\n)/.test(text)) || text.includes('\u2028') || text.includes('\u2029')) return undefined;
  const lines = starts.length;
  const endOf = (i: number) => (i + 1 < lines ? starts[i + 1] - 1 : text.length);
  /** First non-space offset of line i (its end when blank); undefined when a tab follows the indentation. */
  const firstNonSpace = (i: number): number | undefined => {
    const e = endOf(i);
    let j = starts[i];
    while (j < e && text.charCodeAt(j) === 32) j++;
    return j < e && text.charCodeAt(j) === 9 ? undefined : j;
  };

  // Top-level cut points: lines that begin a plain key at column 0.
  const topStarts: number[] = [];
  let tasksLine = -1;
  // Tabs in indentation are refused; most documents have no tab at all.
  const hasTab = text.includes('\t');
  for (let i = 0; i < lines; i++) {
    const s = starts[i];
    if (hasTab && firstNonSpace(i) === undefined) return undefined;
    const c = text.charCodeAt(s);
    if (s === endOf(i) || (c === 13 && s + 1 === endOf(i)) || c === 32 || c === 35 /* # */) continue;
    if (!keyAt(KEY, text, s)) return undefined; // `---`, `...`, `%`, `- `, flow, quoted/complex keys, anchors
    topStarts.push(i);
    if (keyAt(TASKS_HEADER, text, s)) {
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
  let indent = -1;
  for (let k = 0; k < topStarts.length; k++) {
    const from = topStarts[k];
    const to = k + 1 < topStarts.length ? topStarts[k + 1] : lines;
    const isTasks = from <= tasksLine && tasksLine < to;
    if (!isTasks) {
      top.push(slice(offsetOfLine(from), offsetOfLine(to)));
      continue;
    }
    // Inside `tasks:`: the first content line fixes the task indentation.
    const cut = taskLines(text, starts, tasksLine + 1, to, -1);
    if (!cut) return undefined;
    const taskStarts = cut.lines;
    indent = cut.indent;
    tasksAt = top.length;
    const headerEnd = taskStarts.length ? taskStarts[0] : to;
    top.push(slice(offsetOfLine(from), offsetOfLine(headerEnd)));
    for (let j = 0; j < taskStarts.length; j++) {
      tasks.push(slice(offsetOfLine(taskStarts[j]), offsetOfLine(j + 1 < taskStarts.length ? taskStarts[j + 1] : to)));
    }
  }
  return { top, tasksAt, tasks, indent };
}

/**
 * The task key lines among lines [from, to) of a block `tasks:` map whose keys sit at column
 * `indent` (-1: the first content line sets it). Undefined when a line breaks that shape: less
 * indented than the keys, at column 0, a tab in its indentation, or a non-key at the key column.
 */
export function taskLines(text: string, starts: readonly number[], from: number, to: number, indent: number): { indent: number; lines: number[] } | undefined {
  const lines: number[] = [];
  for (let i = from; i < to; i++) {
    const e = i + 1 < starts.length ? starts[i + 1] - 1 : text.length;
    let j = starts[i];
    while (j < e && text.charCodeAt(j) === 32) j++;
    const c = text.charCodeAt(j);
    if (j === e || (c === 13 && j + 1 === e) || c === 35 /* # */) continue;
    if (c === 9) return undefined;
    const n = j - starts[i];
    if (indent < 0) indent = n;
    if (n < indent || n === 0) return undefined;
    if (n === indent) {
      if (!keyAt(KEY, text, j)) return undefined;
      lines.push(i);
    }
  }
  return { indent, lines };
}
