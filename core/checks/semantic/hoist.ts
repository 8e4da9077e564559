// The canonical fix for NIKA-VAR-021 (reference §4.4, §11.4): move a `tasks.X.<proj>` read out of a
// verb body / `when:` / `for_each.items` into the task's `with:` (which is what creates the edge),
// and read the binding instead.
import { isMap, isScalar } from 'yaml';
import { getNode, nodeAtPath, type NikaDocument } from '../../document.js';
import type { DiagnosticData } from '../../diagnostic.js';
import type { Reference } from '../../expr/index.js';
import { RESERVED_BINDING_NAMES, CEL_IDENTIFIER } from '../../catalog/cel.js';
import type { Task } from '../../ir.js';
import { addEntries } from './edits.js';

type Fix = NonNullable<DiagnosticData['fixes']>[number];

export function hoistFix(doc: NikaDocument, task: Task, ref: Reference): Fix | undefined {
  const [idSeg, projSeg] = ref.segments;
  if (ref.root !== 'tasks' || !idSeg || !projSeg || idSeg.name === task.id) return undefined;
  const span = { start: ref.rootSpan.start, end: projSeg.span.end };
  const dotted = `tasks.${idSeg.name}.${projSeg.name}`;
  // Only the plain dotted spelling is rewritten; bracket forms would leave a dangling `]`.
  if (doc.text.slice(span.start, span.end) !== dotted) return undefined;
  const taskNode = nodeAtPath(doc, task.path);
  if (!isMap(taskNode)) return undefined;
  const expr = `\${{ ${dotted} }}`;

  const withNode = getNode(taskNode, 'with');
  const existing = new Map<string, unknown>();
  if (isMap(withNode)) for (const p of withNode.items) if (isScalar(p.key)) existing.set(String(p.key.value), isScalar(p.value) ? p.value.value : undefined);
  for (const [k, v] of existing) {
    if (typeof v === 'string' && v.trim() === expr) {
      return { title: `Read the existing binding with.${k}`, edits: [{ span, newText: `with.${k}` }], preferred: true };
    }
  }
  const base = projSeg.name === 'output' ? idSeg.name : `${idSeg.name}_${projSeg.name}`;
  let name = CEL_IDENTIFIER.test(base) && !RESERVED_BINDING_NAMES.has(base) ? base : `${base}_value`;
  for (let n = 2; existing.has(name); n++) name = `${base}_${n}`;
  const insert = addEntries(doc, taskNode, 'with', [[name, `"${expr}"`]], 'first');
  if (!insert) return undefined;
  return {
    title: `Hoist ${dotted} into with: as ${name}`,
    edits: [insert, { span, newText: `with.${name}` }],
    preferred: true,
  };
}
