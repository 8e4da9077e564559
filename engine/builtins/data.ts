// Pure data builtins: jq, json_diff, json_merge_patch, convert, validate, hash, uuid.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { blake3 } from '@noble/hashes/blake3.js';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import YAML from 'yaml';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { NikaError } from '../contracts.js';
import { jqAll, JqError } from '../jq.js';
import { parseCsv, toCsv } from './csv.js';
import { builtinError } from './errors.js';
import type { Builtin } from './types.js';

export const jq: Builtin = async (args) => {
  try {
    const all = await jqAll(args.input ?? null, String(args.expression));
    return all.length === 0 ? null : all.length === 1 ? all[0] : all;
  } catch (e) {
    if (e instanceof JqError && e.kind !== 'runtime') throw new NikaError('NIKA-VAR-005', `nika:jq: ${e.message}`);
    throw builtinError('jq', 1, (e as Error).message);
  }
};

type Op = { op: 'add' | 'remove' | 'replace'; path: string; value?: unknown };

export const json_diff: Builtin = async (args) => {
  for (const k of ['before', 'after']) {
    if (!isJson(args[k])) throw builtinError('json_diff', 1, `${k} is not a JSON value`);
  }
  const ops: Op[] = [];
  diff(args.before, args.after, '', ops);
  return ops;
};

function diff(a: unknown, b: unknown, path: string, ops: Op[]): void {
  if (deepEqual(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) diff(a[i], b[i], `${path}/${i}`, ops);
    // Remove from the end first so earlier indexes stay valid while the patch applies.
    for (let i = a.length - 1; i >= common; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
    for (let i = common; i < b.length; i++) ops.push({ op: 'add', path: `${path}/${i}`, value: b[i] });
    return;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of Object.keys(a)) {
      if (!(k in b)) ops.push({ op: 'remove', path: `${path}/${escapePtr(k)}` });
    }
    for (const k of Object.keys(b)) {
      if (k in a) diff(a[k], b[k], `${path}/${escapePtr(k)}`, ops);
      else ops.push({ op: 'add', path: `${path}/${escapePtr(k)}`, value: b[k] });
    }
    return;
  }
  ops.push({ op: 'replace', path, value: b });
}

export const json_merge_patch: Builtin = async (args) => {
  if (!isJson(args.target) || !isJson(args.patch)) throw builtinError('json_merge_patch', 1, 'target and patch must be JSON values');
  return mergePatch(args.target, args.patch);
};

function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return patch;
  const out: Record<string, unknown> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export const convert: Builtin = async (args) => {
  const from = String(args.from);
  const to = String(args.to);
  if (from === to) throw builtinError('convert', 2, `from and to are both ${from}`);
  let value: unknown;
  try {
    if (typeof args.input !== 'string') value = args.input;
    else if (from === 'json') value = JSON.parse(args.input);
    else if (from === 'yaml') value = YAML.parse(args.input);
    else if (from === 'toml') value = parseToml(args.input);
    else value = parseCsv(args.input, args.has_header !== false);
  } catch (e) {
    throw builtinError('convert', 1, `input is not valid ${from}: ${(e as Error).message}`);
  }
  try {
    if (to === 'json') return value;
    if (to === 'yaml') return YAML.stringify(value);
    if (to === 'toml') {
      if (!isObj(value)) throw new Error('TOML needs a table (an object) at the top');
      return stringifyToml(value);
    }
    return toCsv(value, args.formula_guard === true);
  } catch (e) {
    throw builtinError('convert', 2, `cannot write ${to}: ${(e as Error).message}`);
  }
};

export const validate: Builtin = async (args) => {
  const format = args.format === 'yaml' ? 'yaml' : 'json';
  let schema = args.schema;
  if (typeof schema === 'string') {
    try { schema = YAML.parse(schema); } catch (e) { throw builtinError('validate', 1, `schema is not JSON/YAML: ${(e as Error).message}`); }
  }
  if (!isObj(schema) && typeof schema !== 'boolean') throw builtinError('validate', 1, 'schema must be an object');
  let data = args.data;
  if (typeof data === 'string' && args.format !== undefined) {
    try { data = format === 'yaml' ? YAML.parse(data) : JSON.parse(data); } catch (e) {
      return { valid: false, errors: [{ path: '', message: `data is not ${format}: ${(e as Error).message}` }] };
    }
  }
  const is2020 = isObj(schema) && typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  const ajv = is2020 ? new Ajv2020({ allErrors: true, strict: false }) : new Ajv({ allErrors: true, strict: false });
  let check;
  try { check = ajv.compile(schema as object); } catch (e) { throw builtinError('validate', 1, `invalid schema: ${(e as Error).message}`); }
  const valid = check(data) as boolean;
  return { valid, errors: (check.errors ?? []).map((er) => ({ path: er.instancePath, message: er.message ?? 'invalid', keyword: er.keyword })) };
};

export const hash: Builtin = async (args) => {
  const op = String(args.op ?? 'hash');
  if (op !== 'hash') throw builtinError('hash', 2, `op ${op} needs signing keys, which this engine does not manage yet`);
  const algo = String(args.algo ?? 'blake3');
  const encoding = args.encoding === 'base64' ? 'base64' : 'hex';
  if (['md5', 'sha1'].includes(algo)) throw builtinError('hash', 1, `${algo} is refused (broken); use blake3, sha256 or sha512`);
  const content = Buffer.from(String(args.content), 'utf8');
  if (algo === 'blake3') return Buffer.from(blake3(content)).toString(encoding);
  return createHash(algo).update(content).digest(encoding);
};

export const uuid: Builtin = async (args) => {
  if (args.version === 'v4') return randomUUID();
  // RFC 9562 v7: 48-bit Unix ms timestamp, then random bits with version and variant set.
  const b = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isJson(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'bigint';
}

function escapePtr(k: string): string {
  return k.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}
