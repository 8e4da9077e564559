// Authority checks: the permits boundary, secret flows and untrusted content (reference §1.5,
// §1.6, §3.2–3.4, §8). They judge current v1 only; older dialects predate the law.
import type { Check } from '../index.js';
import { taskLocal } from '../locality.js';
import { checkPermitEntries } from './entries.js';
import { checkLifts } from './lift.js';
import { checkOrder } from './order.js';
import { checkPermits } from './permits.js';
import { checkSecretFlows, checkSecrets } from './secrets.js';
import { checkUrls } from './urls.js';

// The task-local ones judge a task's own effects, lift entries or hash key against the envelope.
// The others read the whole graph, or land findings on the permits block (checkPermits: its quick
// fixes edit that block, which a finding kept for an unchanged task would not follow).
export const AUDIT_CHECKS: Check[] = [checkPermits, checkPermitEntries, taskLocal(checkUrls), taskLocal(checkLifts), taskLocal(checkSecrets), checkSecretFlows, checkOrder];
