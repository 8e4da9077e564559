// Every provider failure becomes a NikaError with one of the run-time INFER codes (reference §8):
//   NIKA-INFER-001  provider/auth/request refused: missing key, unknown provider, 4xx other than
//                   408/409/429, mock/mock-error. Not transient.
//   NIKA-INFER-002  rate-limited or transient: 429, 408, 409, 5xx, connection refused/reset,
//                   request timeout. transient: true (the scheduler owns retries; SDK retries are off).
//   NIKA-INFER-003  malformed response: unparsable stream or tool arguments (not transient), or a
//                   stream cut before its terminal event (transient: the next attempt may succeed).
//   NIKA-INFER-004  structured output invalid: `schema:` answer that is not JSON or fails the schema.
// Cancellation and task timeouts surface as the signal's own reason (the scheduler aborts with it),
// or NIKA-CANCEL-001 when the reason is not a NikaError.
import { NikaError } from '../contracts.js';

export function abortError(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof NikaError) return r;
  return new NikaError('NIKA-CANCEL-001', 'cancelled', { category: 'cancelled' });
}

/** Removes secret values from a message; the SDKs never put keys in errors, but a proxy might echo headers. */
export function redact(text: string, secrets: Array<string | undefined>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out;
}

interface SdkLikeError { status?: unknown; name?: string; message?: string; code?: unknown; cause?: unknown }

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function networkish(e: SdkLikeError): boolean {
  const name = e.name ?? '';
  if (/Connection(Timeout)?Error/.test(name)) return true;
  for (let c: unknown = e; c && typeof c === 'object'; c = (c as SdkLikeError).cause) {
    const code = (c as SdkLikeError).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
    const msg = (c as SdkLikeError).message ?? '';
    if (/terminated|socket hang up|other side closed|fetch failed/i.test(msg)) return true;
  }
  return false;
}

/** Maps anything an SDK call threw to a NikaError; `what` names the call for the message. */
export function providerError(err: unknown, what: string, signal: AbortSignal, secrets: Array<string | undefined> = []): NikaError {
  if (err instanceof NikaError) return err;
  if (signal.aborted) {
    const a = abortError(signal);
    return a instanceof NikaError ? a : new NikaError('NIKA-CANCEL-001', 'cancelled');
  }
  const e = (err ?? {}) as SdkLikeError;
  const msg = redact(String(e.message ?? err), secrets);
  const status = typeof e.status === 'number' ? e.status : undefined;
  if (status !== undefined) {
    const transient = status === 429 || status === 408 || status === 409 || status >= 500;
    const hint = status === 401 || status === 403 ? ' (check the API key)' : status === 404 ? ' (check the model name and base URL)' : '';
    return new NikaError(transient ? 'NIKA-INFER-002' : 'NIKA-INFER-001', `${what} failed with HTTP ${status}${hint}: ${msg}`, {
      transient,
      details: { status },
    });
  }
  if (networkish(e)) {
    return new NikaError('NIKA-INFER-002', `${what}: connection failed: ${msg}`, { transient: true });
  }
  return new NikaError('NIKA-INFER-003', `${what}: unexpected response: ${msg}`);
}

export function cutStream(what: string): NikaError {
  return new NikaError('NIKA-INFER-003', `${what}: the response stream ended before it was complete`, { transient: true });
}
