// The in-process fuzzer: every feature function called directly on every corpus document. Runs in
// its own process (forked by lsp-fuzz.test.ts) so the parent's watchdog can kill a hung feature
// and report the document; results travel over IPC. Synchronous code cannot be interrupted from
// inside, hence the second process.
//   env FUZZ_DOCS (count), FUZZ_SEED, FUZZ_POSITIONS (requests per document and feature)
import type { Diagnostic } from 'vscode-languageserver';
import { buildModel } from '../../server/model.js';
import { normalizeCatalog } from '../../server/catalog.js';
import { diagnostics } from '../../server/features/diagnostics.js';
import { completion } from '../../server/features/completion.js';
import { hover } from '../../server/features/hover.js';
import { definition, documentHighlights, prepareRename, references, rename } from '../../server/features/navigation.js';
import { documentSymbols } from '../../server/features/symbols.js';
import { foldingRanges } from '../../server/features/folding.js';
import { semanticTokens } from '../../server/features/semanticTokens.js';
import { codeActions } from '../../server/features/codeActions.js';
import { FUZZ_CATALOG, fuzzCorpus, prng, randomOffset } from './corpus.js';

const count = Number(process.env.FUZZ_DOCS ?? 300);
const seed = Number(process.env.FUZZ_SEED ?? 8);
const positions = Number(process.env.FUZZ_POSITIONS ?? 4);
const URI = 'file:///fuzz/doc.nika.yaml';
const send = (m: unknown) => new Promise<void>((resolve) => process.send!(m, () => resolve()));

/** Each answer restarts the parent's watchdog: the bound is per answer, not per document. */
const tick = (i: number, step: string) => send({ type: 'step', i, step });

interface Failure { doc: number; label: string; step: string; error: string }

async function main() {
  const catalog = normalizeCatalog(FUZZ_CATALOG);
  const docs = fuzzCorpus(count, seed);
  const failures: Failure[] = [];
  let requests = 0;
  for (let i = 0; i < docs.length; i++) {
    const { label, text } = docs[i]!;
    // The parent's watchdog counts from this message: a document that never reports back hung.
    await send({ type: 'start', i, label, size: text.length });
    const r = prng(seed * 7919 + i);
    let step = 'analyze';
    const fail = (error: unknown) => failures.push({ doc: i, label, step, error: (error as Error)?.stack ?? String(error) });
    try {
      const model = buildModel(text, r.next() < 0.5 ? catalog : undefined);
      const lines = model.analysis.doc.lines;
      step = 'diagnostics';
      await tick(i, step);
      const diags: Diagnostic[] = diagnostics(model);
      requests++;
      for (const d of model.analysis.diagnostics) if (/^NIKA-IMPL-/.test(d.code)) failures.push({ doc: i, label, step, error: `${d.code}: ${d.message}` });
      for (const d of diags) {
        if (d.range.start.line > d.range.end.line || (d.range.start.line === d.range.end.line && d.range.start.character > d.range.end.character)) {
          failures.push({ doc: i, label, step, error: `inverted range for ${d.code}: ${JSON.stringify(d.range)}` });
        }
      }
      const whole: Array<[string, () => unknown]> = [
        ['documentSymbols', () => documentSymbols(model)],
        ['foldingRanges', () => foldingRanges(model)],
        ['semanticTokens', () => { const t = semanticTokens(model); if (t.data.length % 5) throw new Error('semantic token data not a multiple of 5'); }],
      ];
      for (const [name, f] of whole) { step = name; await tick(i, step); f(); requests++; }
      for (let k = 0; k < positions; k++) {
        const off = randomOffset(text, r);
        const pos = lines.positionAt(off);
        const end = lines.positionAt(Math.min(text.length, off + r.int(40)));
        const at: Array<[string, () => unknown]> = [
          ['completion', () => { const c = completion(model, pos); if (!Array.isArray(c.items)) throw new Error('completion without items'); }],
          ['hover', () => hover(model, pos)],
          ['definition', () => definition(model, URI, pos)],
          ['references', () => references(model, URI, pos, true)],
          ['highlights', () => documentHighlights(model, pos)],
          ['prepareRename', () => { const p = prepareRename(model, pos); if (p.ok) { step = 'rename'; rename(model, URI, pos, 'renamed_x'); } }],
          ['codeActions', () => codeActions(model, URI, { start: pos, end }, diags.filter((d) => d.range.start.line <= end.line && d.range.end.line >= pos.line))],
        ];
        // Positions past the end and on a line that does not exist come from real clients too.
        if (k === 0) at.push(['completion(out of range)', () => completion(model, { line: lines.positionAt(text.length).line + 3, character: 999 })]);
        for (const [name, f] of at) { step = `${name}@${pos.line}:${pos.character}`; await tick(i, step); f(); requests++; }
      }
    } catch (e) {
      fail(e);
    }
  }
  await send({ type: 'done', docs: docs.length, requests, failures });
  process.disconnect();
}

main().catch(async (e) => {
  await send({ type: 'done', docs: 0, requests: 0, failures: [{ doc: -1, label: 'driver', step: 'main', error: (e as Error).stack ?? String(e) }] });
  process.disconnect();
});
