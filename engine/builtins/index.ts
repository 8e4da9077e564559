// The `nika:*` builtins this engine runs. Names of the closed set that have no implementation here
// fail with their own NIKA-BUILTIN-<NAME>-001 instead of pretending.
import { BUILTINS } from '../../core/catalog/builtins.js';
import { NikaError } from '../contracts.js';
import { checkArgs } from './args.js';
import { assert, done, emit, inspect, log, prompt, wait } from './core.js';
import { convert, hash, jq, json_diff, json_merge_patch, uuid, validate } from './data.js';
import { date } from './date.js';
import { builtinError } from './errors.js';
import { fetchBuiltin } from './fetch.js';
import { edit, glob, grep, read, write } from './files.js';
import type { Builtin, BuiltinContext } from './types.js';

export type { BuiltinContext, PromptRequest } from './types.js';

const IMPLEMENTED: Record<string, Builtin> = {
  assert, done, emit, inspect, log, prompt, wait,
  convert, hash, jq, json_diff, json_merge_patch, uuid, validate, date,
  fetch: fetchBuiltin, read, write, edit, glob, grep,
};

export function isImplemented(name: string): boolean {
  return name in IMPLEMENTED;
}

export async function callBuiltin(name: string, args: Record<string, unknown>, ctx: BuiltinContext): Promise<unknown> {
  if (!BUILTINS.has(name)) throw new NikaError('NIKA-INVOKE-001', `unknown builtin nika:${name}`);
  const impl = IMPLEMENTED[name];
  if (!impl) throw builtinError(name, 1, 'is not available in this engine');
  const a = { ...args };
  if (name === 'glob' && typeof a.exclude === 'string') a.exclude = [a.exclude];
  checkArgs(name, a);
  return impl(a, ctx);
}
