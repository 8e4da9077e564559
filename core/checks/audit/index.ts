// Authority checks: the permits boundary, secret flows and untrusted content (reference §1.5,
// §1.6, §3.2–3.4, §8). They judge current v1 only; older dialects predate the law.
import type { Check } from '../index.js';
import { checkPermitEntries } from './entries.js';
import { checkLifts } from './lift.js';
import { checkOrder } from './order.js';
import { checkPermits } from './permits.js';
import { checkSecrets } from './secrets.js';
import { checkUrls } from './urls.js';

export const AUDIT_CHECKS: Check[] = [checkPermits, checkPermitEntries, checkUrls, checkLifts, checkSecrets, checkOrder];
