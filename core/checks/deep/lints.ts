// Lints (reference §8.2: warnings, the rule id is the code).
//
// native-first/001…006 (§3.2): an `exec:` whose literal program has a builtin equivalent. The
// spec lists the pairs but not the numbers; they are numbered in the order the spec lists them,
// one rule per family:
//   001 network        curl, wget              → nika:fetch
//   002 files          cat, cp, tee            → nika:read / nika:write
//   003 data programs  jq, sed                 → nika:jq
//   004 time           sleep, date             → nika:wait / nika:date
//   005 ids & digests  uuidgen, sha256sum, …   → nika:uuid / nika:hash
//   006 search/convert yq, grep, find          → nika:convert / nika:grep / nika:glob
// A builtin is typed, permit-checked per category and portable; a subprocess is none of these.
// Where the rewrite is mechanical (sleep N, cat FILE, curl URL, uuidgen, date) the finding
// carries a fix that swaps the exec: for the invoke: (only when exec: has nothing but command:).
//
// one-obvious-way/011 (§3.1): infer `schema:` is better written as the task's `returns:` (a Nika
// type, checked and lowered to JSON Schema by the engine). Not reported when `returns:` is also
// there (that is NIKA-TYPE-003).
import { isMap, isScalar, isSeq } from 'yaml';
import type { Pair } from 'yaml';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode, getPair, keySpan, pairSpan, spanOf } from '../../document.js';
import type { Span } from '../../text.js';
import { semanticModel } from '../semantic/model.js';
import type { Check } from '../index.js';

interface Native { rule: string; tool: string }

export const NATIVE_FIRST: Record<string, Native> = {
  curl: { rule: 'native-first/001', tool: 'nika:fetch' },
  wget: { rule: 'native-first/001', tool: 'nika:fetch' },
  cat: { rule: 'native-first/002', tool: 'nika:read' },
  cp: { rule: 'native-first/002', tool: 'nika:read and nika:write' },
  tee: { rule: 'native-first/002', tool: 'nika:write' },
  jq: { rule: 'native-first/003', tool: 'nika:jq (or an extract: binding)' },
  sed: { rule: 'native-first/003', tool: 'nika:jq' },
  sleep: { rule: 'native-first/004', tool: 'nika:wait' },
  date: { rule: 'native-first/004', tool: 'nika:date' },
  uuidgen: { rule: 'native-first/005', tool: 'nika:uuid' },
  sha256sum: { rule: 'native-first/005', tool: 'nika:hash' },
  sha512sum: { rule: 'native-first/005', tool: 'nika:hash' },
  b3sum: { rule: 'native-first/005', tool: 'nika:hash' },
  yq: { rule: 'native-first/006', tool: 'nika:convert' },
  grep: { rule: 'native-first/006', tool: 'nika:grep' },
  find: { rule: 'native-first/006', tool: 'nika:glob' },
};

export const lintsCheck: Check = (ctx) => {
  if (ctx.dialect.dialect !== 'v1') return [];
  const out: NikaDiagnostic[] = [];
  const model = semanticModel(ctx);
  for (const task of ctx.workflow.tasks) {
    const node = model.taskNode(task);
    const execPair = getPair(node, 'exec');
    if (execPair && isMap(execPair.value)) out.push(...nativeFirst(ctx.doc.text, execPair));
    const infer = getNode(node, 'infer');
    const schema = getPair(infer, 'schema');
    if (schema && !getPair(node, 'returns')) {
      out.push(diag('one-obvious-way/011', 'Prefer returns: on the task over infer schema: — a Nika type (e.g. returns: { object: { title: string } }) that the engine checks and turns into the JSON Schema for the model.', keySpan(schema)!, 'warning'));
    }
  }
  return out;
};

function nativeFirst(text: string, execPair: Pair<unknown, unknown>): NikaDiagnostic[] {
  const exec = execPair.value;
  const command = getNode(exec, 'command');
  if (isSeq(command) && command.items.length > 0) {
    const first = command.items[0];
    if (!isScalar(first) || typeof first.value !== 'string' || first.value.includes('${{')) return [];
    const program = first.value.split('/').pop()!;
    const native = NATIVE_FIRST[program];
    if (!native) return [];
    const argv = command.items.slice(1).map((i) => (isScalar(i) && i.value !== null && (typeof i.value !== 'object') ? String(i.value) : undefined));
    const onlyCommand = isMap(exec) && exec.items.length === 1;
    const rewrite = onlyCommand && argv.every((x) => x !== undefined) ? mechanical(program, argv as string[]) : undefined;
    const full = pairSpan(execPair);
    // A block value's range runs through its line break; the replacement stops at the content.
    const execSpan = full && { start: full.start, end: full.start + text.slice(full.start, full.end).trimEnd().length };
    const data = rewrite && execSpan ? { fixes: [{ title: `Use ${rewrite.tool}`, edits: [{ span: execSpan, newText: `invoke: { tool: "${rewrite.tool}", args: { ${Object.entries(rewrite.args).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')} } }` }], preferred: true }] } : undefined;
    return [diag(native.rule, `${program} has a builtin equivalent: ${native.tool}. Builtins are typed, permit-checked and portable; prefer invoke: { tool: "${native.tool.split(' ')[0]}" }.`, spanOf(first)!, 'warning', data)];
  }
  const shell = getNode(exec, 'shell');
  if (isScalar(shell) && typeof shell.value === 'string') {
    const line = shell.value.trim();
    // A pipeline or a compound line is more than one program; only a simple command maps.
    if (/[|;&<>`$()]/.test(line)) return [];
    const program = (line.split(/\s+/)[0] ?? '').split('/').pop()!;
    const native = NATIVE_FIRST[program];
    if (!native) return [];
    const span = shellWord(text, spanOf(shell)!, program);
    return [diag(native.rule, `${program} has a builtin equivalent: ${native.tool}. Builtins are typed, permit-checked and portable; prefer invoke: { tool: "${native.tool.split(' ')[0]}" }.`, span, 'warning')];
  }
  return [];
}

/** The span of the program word inside a shell: scalar (the whole scalar when not found). */
function shellWord(text: string, span: Span, word: string): Span {
  const at = text.slice(span.start, span.end).indexOf(word);
  return at >= 0 ? { start: span.start + at, end: span.start + at + word.length } : span;
}

/** The builtin call a simple command line means, when that is certain. */
function mechanical(program: string, argv: string[]): { tool: string; args: Record<string, string> } | undefined {
  switch (program) {
    case 'sleep': {
      if (argv.length !== 1) return undefined;
      const m = /^(\d+(?:\.\d+)?)([smh]?)$/.exec(argv[0]);
      return m ? { tool: 'nika:wait', args: { duration: `${m[1]}${m[2] || 's'}` } } : undefined;
    }
    case 'cat':
      return argv.length === 1 && !argv[0].startsWith('-') ? { tool: 'nika:read', args: { path: argv[0] } } : undefined;
    case 'curl': {
      const urls = argv.filter((a) => !a.startsWith('-'));
      const flags = argv.filter((a) => a.startsWith('-'));
      // Only the quiet/fail/follow flags keep a plain GET's meaning.
      const quiet = flags.every((f) => /^-[sSfL]+$/.test(f) || ['--silent', '--show-error', '--fail', '--location'].includes(f));
      return urls.length === 1 && quiet && /^https?:\/\//.test(urls[0]) ? { tool: 'nika:fetch', args: { url: urls[0], mode: 'raw' } } : undefined;
    }
    case 'wget': return undefined;
    case 'uuidgen': return argv.length === 0 ? { tool: 'nika:uuid', args: { version: 'v4' } } : undefined;
    case 'date': return argv.length === 0 ? { tool: 'nika:date', args: { op: 'now' } } : undefined;
  }
  return undefined;
}


