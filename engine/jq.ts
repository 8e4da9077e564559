// jq for `extract:` bindings, `nika:jq` and `nika:fetch` mode jq, through jq-wasm (real jq
// compiled to WebAssembly and shipped inside the npm package, so it works offline and bundles).
import * as jqWasm from 'jq-wasm';

export class JqError extends Error {
  constructor(message: string, readonly kind: 'compile' | 'runtime' | 'refused') { super(message); }
}

/** Every value the filter emits, in order. */
export async function jqAll(input: unknown, filter: string): Promise<unknown[]> {
  if (/(^|[^A-Za-z0-9_$])(\$ENV|env)(?![A-Za-z0-9_])/.test(filter)) {
    throw new JqError('jq: env and $ENV are not available to workflows', 'refused');
  }
  let out: string;
  // The WASM build reports jq's exit status through process.exitCode, which would turn a caught
  // jq error into a failing exit of the whole engine process.
  const exitCode = process.exitCode;
  try {
    out = await jqWasm.raw(JSON.stringify(input ?? null), filter, ['-c']);
  } catch (e) {
    const msg = String((e as Error).message ?? e).replace(/^Failed to execute raw query:\s*/, '').trim();
    throw new JqError(msg, /compile error/.test(msg) ? 'compile' : 'runtime');
  } finally {
    process.exitCode = exitCode;
  }
  return out.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
}

/** The single value a binding must produce; `count` tells the caller how many it got otherwise. */
export async function jqOne(input: unknown, filter: string): Promise<{ value: unknown; count: number }> {
  const all = await jqAll(input, filter);
  return { value: all.length === 1 ? all[0] : all, count: all.length };
}
