// Authority checks: the permits boundary and secret flows (reference §1.5, §1.6).
import type { Check } from '../index.js';

export const AUDIT_CHECKS: Check[] = [];
