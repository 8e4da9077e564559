// Translating era-A (`nika/workflow@0.x`) data wiring into current expressions, so the engine
// evaluates a single language: `use:` paths become `${{ tasks.X.output… }}` bindings and
// `{{use.alias}}` templates become `${{ with.alias }}` (or `${{ item }}` for the loop variable).

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `a.b.0.c-d` → `.a.b[0]['c-d']` appended to a CEL reference. */
function celPath(segments: string[]): string {
  return segments.map((s) => (/^\d+$/.test(s) ? `[${s}]` : IDENT.test(s) ? `.${s}` : `['${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`)).join('');
}

/** A JSON value as a CEL literal (objects have no literal form in the subset: they become their JSON text). */
export function celLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(celLiteral).join(', ')}]`;
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\t/g, '\\t')}'`;
}

function parseDefault(text: string): unknown {
  const t = text.trim();
  try { return JSON.parse(t); } catch { /* not JSON */ }
  if (/^'.*'$/s.test(t)) return t.slice(1, -1);
  return t;
}

/** A legacy `use:` entry (string `task.path ?? default`, or `{from|path, default}`) as a `${{ }}` string. */
export function useToExpression(spec: unknown): string {
  let path: string | undefined;
  let dflt: unknown;
  let hasDefault = false;
  if (typeof spec === 'string') {
    const i = spec.indexOf('??');
    path = (i >= 0 ? spec.slice(0, i) : spec).trim();
    if (i >= 0) { hasDefault = true; dflt = parseDefault(spec.slice(i + 2)); }
  } else if (spec && typeof spec === 'object') {
    const o = spec as Record<string, unknown>;
    const from = typeof o.from === 'string' ? o.from : undefined;
    const p = typeof o.path === 'string' ? o.path : undefined;
    path = from && p ? `${from}.${p}` : from ?? p;
    if ('default' in o) { hasDefault = true; dflt = o.default; }
  }
  path = (path ?? '').replace(/^\$/, '');
  const [task, ...rest] = path.split('.').filter((s) => s.length > 0);
  if (!task) return '';
  const ref = `tasks.${task}.output${celPath(rest)}`;
  return hasDefault ? `\${{ has(${ref}) ? ${ref} : ${celLiteral(dflt)} }}` : `\${{ ${ref} }}`;
}

const TEMPLATE = /(\$?)\{\{\s*use\.([A-Za-z_][\w-]*)((?:\.[\w-]+)*)\s*\}\}/g;

/** `{{use.alias.x}}` → `${{ with.alias.x }}`; the loop variable's alias → `${{ item.x }}`. */
export function rewriteLegacyTemplates(s: string, loopName: string): string {
  if (!s.includes('{{')) return s;
  return s.replace(TEMPLATE, (whole, dollar: string, alias: string, rest: string) => {
    if (dollar) return whole;
    const tail = celPath(rest.split('.').filter(Boolean));
    return alias === loopName ? `\${{ item${tail} }}` : `\${{ with${celPath([alias])}${tail} }}`;
  });
}
