import { ExprEvalError } from '../../core/expr/index.js';
import { NikaError } from '../contracts.js';
import type { ErrorInfo } from '../events.js';

/** Everything that reaches a task becomes a NikaError; foreign exceptions are internal errors. */
export function toNikaError(e: unknown): NikaError {
  if (e instanceof NikaError) return e;
  if (e instanceof ExprEvalError) return new NikaError(e.code, e.message);
  if (e && typeof e === 'object' && 'code' in e && typeof (e as { code: unknown }).code === 'string' && /^NIKA-/.test((e as { code: string }).code)) {
    return new NikaError((e as { code: string }).code, String((e as { message?: unknown }).message ?? e));
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new NikaError('NIKA-IMPL-001', `internal error: ${msg}`, { category: 'internal_error' });
}

export function errorInfo(e: NikaError): ErrorInfo {
  return { code: e.code, message: e.message, category: e.category, transient: e.transient };
}

export function cancelError(reason: string): NikaError {
  return new NikaError('NIKA-CANCEL-001', reason);
}

/** `on_codes` entries are code patterns (regexes, anchored); a plain code matches itself. */
export function codeMatches(patterns: string[] | undefined, code: string): boolean {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some((p) => {
    if (p === code) return true;
    try { return new RegExp(`^(?:${p})$`).test(code); } catch { return false; }
  });
}
