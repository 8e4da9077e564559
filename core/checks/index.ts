// The static checks, run in order on one analysis. Each check is a pure function
// (CheckContext) → diagnostics; the list is the single place that decides what runs.
import type { NikaDiagnostic } from '../diagnostic.js';
import type { CheckContext } from './context.js';
import { AUDIT_CHECKS } from './audit/index.js';
import { DEEP_CHECKS } from './deep/index.js';
import { SEMANTIC_CHECKS } from './semantic/index.js';
import { STRUCTURE_CHECKS } from './structure/index.js';

export type Check = (ctx: CheckContext) => NikaDiagnostic[];

export function allChecks(): Check[] {
  return [...STRUCTURE_CHECKS, ...SEMANTIC_CHECKS, ...AUDIT_CHECKS, ...DEEP_CHECKS];
}

export function runChecks(ctx: CheckContext): NikaDiagnostic[] {
  const out: NikaDiagnostic[] = [];
  for (const check of allChecks()) {
    try {
      out.push(...check(ctx));
    } catch (e) {
      // A bug in one check must not take the others (or the server) down with it.
      out.push({ code: 'NIKA-IMPL-001', severity: 'warning', message: `internal error in a check: ${(e as Error).message}`, span: { start: 0, end: 0 } });
    }
  }
  return out;
}
