// `nika:prompt` on a terminal: confirm (y/n), free input, or a numbered choice.
import { createInterface } from 'node:readline/promises';
import type { PromptRequest } from '../engine/builtins/index.js';

export async function askOnTerminal(req: PromptRequest): Promise<unknown> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    if (req.mode === 'confirm') {
      const def = req.default === true ? 'Y/n' : req.default === false ? 'y/N' : 'y/n';
      const a = (await rl.question(`? ${req.message} [${def}] `)).trim().toLowerCase();
      if (a === '' && typeof req.default === 'boolean') return req.default;
      return a === 'y' || a === 'yes';
    }
    if (req.mode === 'choice') {
      const choices = req.choices ?? [];
      choices.forEach((c, i) => process.stdout.write(`  ${i + 1}) ${c}\n`));
      for (;;) {
        const a = (await rl.question(`? ${req.message} [1-${choices.length}] `)).trim();
        if (a === '' && req.default !== undefined) return req.default;
        const n = Number(a);
        if (Number.isInteger(n) && n >= 1 && n <= choices.length) return choices[n - 1];
        if (choices.includes(a)) return a;
      }
    }
    const a = await rl.question(`? ${req.message}${req.default !== undefined ? ` (${String(req.default)})` : ''} `);
    return a === '' && req.default !== undefined ? req.default : a;
  } finally {
    rl.close();
  }
}
