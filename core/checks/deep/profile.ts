// The YAML profile as diagnostics (reference §11.1; the judge is core/profile/yaml-profile.ts).
// The profile is law for current v1. v1-draft and legacy files predate it and their engines read
// anchors, aliases and merge keys, so there the same findings are warnings: the file still runs,
// but a migrated copy would be refused.
import type { NikaDiagnostic } from '../../diagnostic.js';
import { judgeYamlProfile } from '../../profile/yaml-profile.js';
import type { Check } from '../index.js';

export const yamlProfileCheck: Check = (ctx) => {
  const current = ctx.dialect.dialect === 'v1';
  return judgeYamlProfile(ctx.doc).map((f): NikaDiagnostic => {
    const d: NikaDiagnostic = {
      code: f.code,
      severity: current ? 'error' : 'warning',
      message: current ? f.message : `${f.message} (Current v1 refuses this; older dialects still run it.)`,
      span: f.span,
    };
    if (f.fix) d.data = { fixes: [{ title: f.fix.title, edits: [{ span: f.fix.span, newText: f.fix.newText }], preferred: true }] };
    return d;
  });
};
