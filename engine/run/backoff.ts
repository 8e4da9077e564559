import type { RetryPolicy } from '../../core/ir.js';
import type { NikaError } from '../contracts.js';
import { codeMatches } from './errors.js';

/** Transient errors retry; others only when `on_codes` names them; a timeout never does. */
export function shouldRetry(policy: RetryPolicy | undefined, err: NikaError, attempt: number): boolean {
  if (!policy || attempt >= policy.maxAttempts) return false;
  if (err.code === 'NIKA-TIMEOUT-001' || err.code === 'NIKA-CANCEL-001') return false;
  if (err.category === 'security_error') return false;
  if (policy.onCodes?.length) return codeMatches(policy.onCodes, err.code);
  return err.transient;
}

/** Delay before attempt `attempt + 1`. Jitter draws from the upper half, so it never collapses to 0. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.max(0, policy.backoffMs);
  const raw = policy.backoffStrategy === 'fixed' ? base
    : policy.backoffStrategy === 'linear' ? base * attempt
    : base * 2 ** (attempt - 1);
  const capped = Math.min(raw, policy.backoffMaxMs > 0 ? policy.backoffMaxMs : raw);
  return Math.round(policy.jitter ? capped * (0.5 + random() / 2) : capped);
}
