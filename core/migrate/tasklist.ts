// Quick fix for NIKA-PARSE-022: a current-v1 file that wrote `tasks:` as a list of `- id: x`
// (or `- name: x`) entries. One edit replaces the list with the equivalent map keyed by id, moving
// the entries' own nodes so their comments and scalar styles survive.
import { Document, isMap, isScalar, isSeq, Pair, Scalar, YAMLMap } from 'yaml';
import { getPair, parseNikaDocument } from '../document.js';
import type { Span } from '../text.js';

const TASK_ID = /^[a-z][a-z0-9_]*$/;

export function convertTaskListToMap(text: string): { span: Span; newText: string } | undefined {
  const doc = parseNikaDocument(text);
  if (!doc.root || doc.parseDiagnostics.length > 0) return undefined;
  const tasksPair = getPair(doc.root, 'tasks');
  const seq = tasksPair?.value;
  if (!tasksPair || !isSeq(seq) || !isScalar(tasksPair.key) || !seq.range || !tasksPair.key.range) return undefined;

  const map = new YAMLMap<Scalar, unknown>();
  const seen = new Set<string>();
  for (const [i, item] of seq.items.entries()) {
    // Entries that are not maps, or lack a usable unique id, cannot be keyed: no edit then.
    if (!isMap(item)) return undefined;
    const idPair = getPair(item, 'id') ?? getPair(item, 'name');
    const id = idPair && isScalar(idPair.value) ? String(idPair.value.value) : undefined;
    if (!id || !TASK_ID.test(id) || seen.has(id)) return undefined;
    seen.add(id);
    const body = item.clone() as YAMLMap<unknown, unknown>;
    const comments: string[] = [];
    if (i === 0 && seq.commentBefore) comments.push(seq.commentBefore);
    if (item.commentBefore) comments.push(item.commentBefore);
    // `name:` beside an `id:` was a label; keep it as a comment rather than lose it.
    const name = getPair(item, 'name');
    if (getPair(item, 'id') && name && isScalar(name.value) && String(name.value.value) !== id) comments.push(` ${String(name.value.value)}`);
    body.items = body.items.filter((p) => !(isScalar(p.key) && (p.key.value === 'id' || p.key.value === 'name')));
    body.commentBefore = undefined;
    body.flow = item.flow;
    const key = new Scalar(id);
    if (comments.length) key.commentBefore = comments.join('\n');
    map.items.push(new Pair(key, body));
  }
  if (map.items.length === 0) return undefined;

  const out = new Document({});
  out.contents = new YAMLMap();
  (out.contents as YAMLMap).items.push(new Pair(new Scalar('tasks'), map));
  const printed = out.toString({ lineWidth: 0 });
  // Replace from just after `tasks:` to the end of the list, so the key (and any comment on it) stays.
  const colon = text.indexOf(':', tasksPair.key.range[1]);
  const start = colon + 1;
  const end = seq.range[1];
  let newText = printed.slice(printed.indexOf(':') + 1);
  if (text[end - 1] !== '\n') newText = newText.replace(/\n$/, '');
  if (text.includes('\r\n')) newText = newText.replace(/\r?\n/g, '\r\n');
  return { span: { start, end }, newText };
}
