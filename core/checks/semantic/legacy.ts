// Era-A `{{use.alias}}` templates (legacy files): the alias must be a `use:` entry of the task or
// its for_each `as:` loop name, otherwise the template renders nothing useful.
import { isScalar } from 'yaml';
import type { CheckContext } from '../context.js';
import { diag, type NikaDiagnostic } from '../../diagnostic.js';
import { getNode } from '../../document.js';
import { semanticModel } from './model.js';
import { closest, didYouMean, renameFix } from './suggest.js';

export function checkLegacyTemplates(ctx: CheckContext): NikaDiagnostic[] {
  if (ctx.dialect.dialect !== 'legacy') return [];
  const out: NikaDiagnostic[] = [];
  for (const site of semanticModel(ctx).sites) {
    if (site.syntax !== 'legacy') continue;
    const alias = site.references[0]?.segments[0];
    if (!alias) continue;
    const names = site.task ? Object.keys(site.task.with) : [];
    if (site.task?.forEach) {
      const as = getNode(semanticModel(ctx).taskNode(site.task), 'as');
      names.push(isScalar(as) ? String(as.value) : 'item');
    }
    if (names.includes(alias.name)) continue;
    const s = closest(alias.name, names);
    const where = site.task ? `task '${site.task.id}' has no use: entry` : 'use: aliases only exist inside a task; there is no entry';
    out.push(diag('NIKA-VAR-001', `${where} '${alias.name}'.${didYouMean(s)}`, alias.span, 'error', renameFix(alias.span, s)));
  }
  return out;
}
