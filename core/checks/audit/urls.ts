// Literal fetch/notify targets (reference §5 nika:fetch, §8): a URL whose host sits on the SSRF
// floor is refused (NIKA-SEC-005) unless the exact loopback host is granted in
// permits.net.http; a fetch of a code-bearing artifact (`.pkl`, scripts, binaries) is refused
// (NIKA-SEC-008) unless the task lifts the data-as-code law.
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { codeBearingClass } from '../../audit/code-bearing.js';
import { collectEffects } from '../../audit/effects.js';
import { floorClass, floorLifted } from '../../audit/hosts.js';
import { liftsDataAsCode } from './lifts.js';

export function checkUrls(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect !== 'v1') return [];
  const out: NikaDiagnostic[] = [];
  const http = ctx.workflow.permits?.net?.http;
  for (const e of collectEffects(ctx)) {
    if (e.kind !== 'net') continue;
    if (e.host) {
      const cls = floorClass(e.host);
      if (cls && !floorLifted(http, e.host)) {
        const how = cls === 'loopback' ? ` Grant the exact host ("${e.host}") in permits.net.http to reach this local service.` : ' Private, link-local and metadata addresses cannot be granted.';
        out.push(diag('NIKA-SEC-005', `Task '${e.task.id}': ${e.tool} to ${e.host} is refused: a ${cls === 'metadata' ? 'cloud metadata' : cls} address on the SSRF floor.${how}`, e.span));
      }
    }
    if (e.tool === 'nika:fetch' && e.url !== undefined) {
      const code = codeBearingClass(e.url);
      if (code && !liftsDataAsCode(ctx, e.task)) {
        out.push(diag('NIKA-SEC-008', `Task '${e.task.id}' fetches a code-bearing artifact (.${code.ext}: ${code.cls}). If it is kept as data and never loaded, say so with lift: [{ law: data-as-code, because: "…" }]; if it runs, model it as the exec it feeds.`, e.span));
      }
    }
  }
  return out;
}
