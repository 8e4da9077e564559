import { NikaError } from '../contracts.js';

/** `NIKA-BUILTIN-<NAME>-NNN`, the per-builtin run-time error plane. */
export function builtinError(name: string, n: number, message: string, opts: { transient?: boolean; details?: Record<string, unknown> } = {}): NikaError {
  return new NikaError(`NIKA-BUILTIN-${name.toUpperCase()}-${String(n).padStart(3, '0')}`, `nika:${name}: ${message}`, opts);
}

/** An argument contract violation that a static check would also catch. */
export function argError(name: string, message: string): NikaError {
  return new NikaError('NIKA-BUILTIN-001', `nika:${name}: ${message}`);
}
