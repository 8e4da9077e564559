// Where a keystroke's check time goes: types one character at a time into the middle of a
// generated workflow through the incremental analyzer and prints the mean milliseconds per edit
// of the whole analysis and of each check. Usage: tsx bench/checks.ts [tasks=1000] [edits=30]
import { IncrementalAnalyzer } from '../core/incremental/analyzer.js';
import type { Check } from '../core/checks/index.js';
import { AUDIT_CHECKS } from '../core/checks/audit/index.js';
import { DEEP_CHECKS } from '../core/checks/deep/index.js';
import { SEMANTIC_CHECKS } from '../core/checks/semantic/index.js';
import { STRUCTURE_CHECKS } from '../core/checks/structure/index.js';
import { isTaskLocal } from '../core/checks/locality.js';
import { benchText } from './lsp.js';
import { editPoint } from './generate.js';

const tasks = Number(process.argv[2] ?? 1000);
const edits = Number(process.argv[3] ?? 30);
const times = new Map<string, number>();
for (const list of [STRUCTURE_CHECKS, SEMANTIC_CHECKS, AUDIT_CHECKS, DEEP_CHECKS]) {
  list.forEach((c, i) => {
    const timed: Check = (ctx) => {
      const t = performance.now();
      try { return c(ctx); } finally { times.set(c.name, (times.get(c.name) ?? 0) + performance.now() - t); }
    };
    Object.defineProperty(timed, 'name', { value: c.name });
    list[i] = timed;
  });
}
const catalog = { servers: [{ name: 'everything', status: 'connected' as const, tools: [{ name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } }] }] };
let text = benchText(tasks);
let at = editPoint(text);
const a = new IncrementalAnalyzer();
a.analyze(text, { catalog: catalog as never });
a.analyze(text.slice(0, at) + 'x' + text.slice(at), { catalog: catalog as never });
text = text.slice(0, at) + 'x' + text.slice(at);
at++;
times.clear();
let total = 0;
let diags = 0;
for (let i = 0; i < edits; i++) {
  text = text.slice(0, at) + 'x' + text.slice(at);
  at++;
  const t = performance.now();
  diags = a.analyze(text, { catalog: catalog as never }).diagnostics.length;
  total += performance.now() - t;
}
console.log(`${tasks} tasks, ${edits} edits: ${(total / edits).toFixed(1)} ms per analysis (${diags} findings, ${JSON.stringify(a.stats)})`);
for (const [name, ms] of [...times].sort((x, y) => y[1] - x[1])) {
  const local = [...STRUCTURE_CHECKS, ...SEMANTIC_CHECKS, ...AUDIT_CHECKS, ...DEEP_CHECKS].some((c) => c.name === name && isTaskLocal(c));
  console.log(`${(ms / edits).toFixed(2).padStart(8)}  ${name}${local ? ' (task-local)' : ''}`);
}
