// Printing a migrated workflow as YAML that reads like a hand-written current file: multi-line
// prompts as `|` blocks, every string holding `${{` double-quoted (so it survives flow
// collections, `: ` and ` #`), durations quoted, short scalar lists and `after:` in flow style.
import { Document, isMap, isScalar, isSeq, visit, type Scalar, type YAMLMap } from 'yaml';

/** Keys whose value must be a quoted string in current v1. */
const QUOTED_KEYS = new Set(['timeout', 'duration']);

export interface PrintOptions {
  /** Comment lines for the top of the file (without `#`). */
  header?: string[];
  /** Comment lines to put before each task key. */
  taskComments?: Record<string, string[]>;
}

function asComment(lines: string[]): string {
  return lines.map((l) => (l.startsWith(' ') || l === '' ? l : ` ${l}`)).join('\n');
}

export function printWorkflow(obj: Record<string, unknown>, opts: PrintOptions = {}): string {
  const doc = new Document(obj, { version: '1.2' });
  visit(doc, {
    Pair(_k, pair) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const v = pair.value;
      if (isScalar(v) && typeof v.value === 'string' && QUOTED_KEYS.has(key)) v.type = 'QUOTE_DOUBLE';
      if (key === 'after' && isMap(v)) v.flow = true;
    },
    Scalar(k, node) {
      if (k === 'key' || typeof node.value !== 'string') return;
      if (node.value.includes('\n') && !/[ \t]\n|^\s|\s$/.test(node.value.replace(/\n+$/, ''))) node.type = 'BLOCK_LITERAL';
      else if (node.value.includes('${{')) node.type = 'QUOTE_DOUBLE';
    },
    Seq(_k, seq) {
      const scalars = seq.items.every((i) => isScalar(i) && !(typeof i.value === 'string' && i.value.includes('\n')));
      const width = seq.items.reduce<number>((n, i) => n + String((i as Scalar).value ?? '').length + 4, 0);
      if (scalars && seq.items.length > 0 && width <= 80) seq.flow = true;
    },
  });
  if (opts.header?.length) doc.commentBefore = asComment(opts.header);
  const tasks = doc.get('tasks');
  if (isMap(tasks) && opts.taskComments) {
    for (const pair of (tasks as YAMLMap).items) {
      const id = isScalar(pair.key) ? String(pair.key.value) : '';
      const lines = opts.taskComments[id];
      if (lines?.length && isScalar(pair.key)) pair.key.commentBefore = asComment(lines);
    }
  }
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true });
}

/** Comment text attached to a YAML node, as lines without the `#`. */
export function commentLines(...comments: Array<string | null | undefined>): string[] {
  const out: string[] = [];
  for (const c of comments) if (c) out.push(...c.split('\n').map((l) => l.replace(/^ /, '')));
  return out;
}

export { isSeq };
