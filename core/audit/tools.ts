// Tool whitelists against the `permits.tools` ceiling (reference §3.4): an agent may only be
// offered what the workflow may call at all.
import { matchToolPattern, toolAllowed } from '../toolid.js';

const strip = (p: string) => (p.startsWith('!') ? p.slice(1) : p);

/**
 * Whether one whitelist entry (an id or a glob) stays inside the ceiling. A glob is inside when a
 * ceiling glob admits its text (`mcp:fs/**` admits `mcp:fs/*`, but `*` never admits `**`) and no
 * later ceiling negation carves into it, unless the whitelist negates that part itself.
 */
export function entryWithin(ceiling: readonly string[], entry: string, whitelist: readonly string[] = []): boolean {
  if (!entry.includes('*')) return toolAllowed(ceiling, entry);
  const ownNegations = whitelist.filter((w) => w.startsWith('!')).map(strip);
  let allowed = false;
  for (const raw of ceiling) {
    const pat = strip(raw);
    if (raw.startsWith('!')) {
      const overlaps = matchToolPattern(entry, pat) || matchToolPattern(pat, entry);
      if (overlaps && !ownNegations.some((n) => matchToolPattern(n, pat) || n === pat)) allowed = false;
    } else if (matchToolPattern(pat, entry) && (!entry.includes('**') || pat.includes('**'))) {
      allowed = true;
    }
  }
  return allowed;
}

/** Whether a ceiling entry is exercised by a used id or whitelist entry. */
export function ceilingEntryUsed(entry: string, used: { id: string; pattern: boolean }): boolean {
  const pat = strip(entry);
  if (!used.pattern) return matchToolPattern(pat, used.id);
  return matchToolPattern(pat, used.id) || matchToolPattern(used.id, pat);
}
