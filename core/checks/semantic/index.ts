// Meaning checks: expressions, references, the task graph, tools and models.
import type { Check } from '../index.js';

export const SEMANTIC_CHECKS: Check[] = [];
