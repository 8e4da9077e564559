// Where the dead value blocks go (reference §1.1, §9.2): each `vars:` entry becomes an input knob
// (`required: false` + `default:`) or, when no type expression can describe it, a `const:`; each
// `env:` entry becomes an input knob, or a secret read from the environment when its name says
// it is a credential.

type Obj = Record<string, unknown>;

/** Old type spellings and their current names (reference §4.8). */
const OLD_TYPES: Record<string, string> = { boolean: 'bool', float: 'number', double: 'number', int: 'integer', text: 'string', str: 'string', object: 'map' };

export function currentType(t: unknown): unknown {
  if (typeof t === 'string') {
    const mapped = OLD_TYPES[t];
    if (mapped === 'map') return { map: 'string' };
    return mapped ?? t;
  }
  return t;
}

function scalarType(v: unknown): string | undefined {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return undefined;
}

/** A type expression describing a literal value, or undefined when none is exact enough. */
export function typeOfValue(v: unknown): unknown {
  const s = scalarType(v);
  if (s) return s;
  if (Array.isArray(v)) {
    const types = new Set(v.map(scalarType));
    if (v.length === 0) return { array: 'string' };
    if (types.size === 1 && !types.has(undefined)) return { array: [...types][0] };
    if (types.size === 2 && types.has('integer') && types.has('number')) return { array: 'number' };
  }
  return undefined;
}

const TYPED_VAR_KEYS = new Set(['type', 'default', 'description', 'required']);

export interface ValueHome {
  inputs: Record<string, Obj>;
  const: Record<string, unknown>;
  secrets: Record<string, Obj>;
  /** `vars.x` → `inputs.x`, `env.X` → `secrets.X`, … (for renameRoots). */
  renames: Map<string, string>;
  notes: string[];
}

const CREDENTIAL = /(^|_)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH|PAT)($|_)|API_?KEY/i;

export function looksLikeCredential(name: string): boolean {
  return CREDENTIAL.test(name);
}

const ENV_REF = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

export function placeValues(vars: Obj, env: Obj, taken: { inputs: Set<string>; const: Set<string>; secrets: Set<string> }): ValueHome {
  const home: ValueHome = { inputs: {}, const: {}, secrets: {}, renames: new Map(), notes: [] };
  const free = (set: Set<string>, name: string) => !set.has(name) && !(name in home.inputs) && !(name in home.const) && !(name in home.secrets);

  for (const [name, v] of Object.entries(vars)) {
    const o = v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
    // The draft's typed var `{type, default}` is already an input declaration.
    if (o && 'type' in o && Object.keys(o).every((k) => TYPED_VAR_KEYS.has(k)) && free(taken.inputs, name)) {
      const decl: Obj = { type: currentType(o.type), required: o.required === true };
      if ('default' in o) decl.default = o.default;
      if (typeof o.description === 'string') decl.description = o.description;
      home.inputs[name] = decl;
      home.renames.set(`vars.${name}`, `inputs.${name}`);
      home.renames.set(`config.${name}`, `inputs.${name}`);
      continue;
    }
    const type = typeOfValue(v);
    if (type !== undefined && free(taken.inputs, name)) {
      home.inputs[name] = { type, required: false, default: v };
      home.renames.set(`vars.${name}`, `inputs.${name}`);
      home.renames.set(`config.${name}`, `inputs.${name}`);
    } else if (free(taken.const, name)) {
      home.const[name] = v;
      home.renames.set(`vars.${name}`, `const.${name}`);
      home.renames.set(`config.${name}`, `const.${name}`);
      home.notes.push(`vars.${name} became const.${name}: no input type describes its value, so callers can no longer override it.`);
    } else {
      home.notes.push(`vars.${name} was dropped: an entry with that name already exists.`);
    }
  }

  for (const [name, v] of Object.entries(env)) {
    const ref = typeof v === 'string' ? ENV_REF.exec(v) : null;
    if (looksLikeCredential(name) && free(taken.secrets, name)) {
      home.secrets[name] = { source: 'env', key: ref ? ref[1] : name };
      home.renames.set(`env.${name}`, `secrets.${name}`);
      home.notes.push(`env.${name} became secrets.${name} (source: env, key: ${ref ? ref[1] : name}); its value is no longer written in the file.`);
      continue;
    }
    if (!free(taken.inputs, name)) { home.notes.push(`env.${name} was dropped: an input with that name already exists.`); continue; }
    const type = typeOfValue(v) ?? 'string';
    const decl: Obj = { type, required: false };
    if (v !== null && v !== undefined) decl.default = typeof type === 'string' && type === 'string' && typeof v !== 'string' ? String(v) : v;
    home.inputs[name] = decl;
    home.renames.set(`env.${name}`, `inputs.${name}`);
    if (ref) home.notes.push(`env.${name} became inputs.${name}; it used to expand $${ref[1]}: pass it at run time with --var ${name}=@env:${ref[1]}.`);
  }
  return home;
}
