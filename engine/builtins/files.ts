// File tools (seed 003): read, write, edit, glob, grep. Paths are relative to the workflow
// directory; every path goes through the permits boundary after symlinks and `..` are resolved.
import { mkdir, readdir, readFile, stat, writeFile, rename } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { globToRegExp, hasGlobChars } from '../../core/audit/fs-paths.js';
import { builtinError } from './errors.js';
import type { Builtin, BuiltinContext } from './types.js';

const MAX_RESULTS = 10_000;

export const read: Builtin = async (args, ctx) => {
  const path = String(args.path);
  const real = ctx.boundary.read(path);
  let st;
  try { st = await stat(real); } catch { throw builtinError('read', 1, `file not found: ${path}`); }
  if (!st.isFile()) throw builtinError('read', 2, `not a regular file: ${path}`);
  const buf = await readFile(real);
  if (args.binary === true) return buf.toString('base64');
  const enc = String(args.encoding ?? 'utf-8').toLowerCase().replace('_', '-');
  try {
    return new TextDecoder(enc, { fatal: true }).decode(buf);
  } catch (e) {
    throw builtinError('read', 3, `cannot decode ${path} as ${enc}: ${(e as Error).message}`);
  }
};

export const write: Builtin = async (args, ctx) => {
  const path = String(args.path);
  const real = ctx.boundary.write(path);
  const content = typeof args.content === 'string' ? args.content : JSON.stringify(args.content ?? null, null, 2) + '\n';
  const exists = await stat(real).then((s) => s, () => undefined);
  if (exists?.isDirectory()) throw builtinError('write', 2, `${path} is a directory`);
  if (exists && args.overwrite === false) throw builtinError('write', 1, `${path} exists and overwrite is false`);
  try {
    if (args.create_dirs === true) await mkdir(dirname(real), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const tmp = `${real}.nika-${process.pid}-${Date.now()}.tmp`;
    await writeFile(tmp, content);
    await rename(tmp, real);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw builtinError('write', 2, code === 'ENOENT' ? `parent directory of ${path} does not exist (set create_dirs: true)` : `cannot write ${path}: ${(e as Error).message}`);
  }
  return path;
};

/** `count` absent: the text must occur exactly once; 0: replace every occurrence; N: exactly N. */
export const edit: Builtin = async (args, ctx) => {
  const path = String(args.path);
  const real = ctx.boundary.write(path);
  ctx.boundary.read(path);
  let text: string;
  try { text = await readFile(real, 'utf8'); } catch { throw builtinError('edit', 2, `cannot read ${path}`); }
  const find = String(args.find);
  if (find === '') throw builtinError('edit', 1, 'find must not be empty');
  const found = text.split(find).length - 1;
  const count = args.count as number | undefined;
  if (found === 0) throw builtinError('edit', 1, `text not found in ${path}: ${JSON.stringify(find.slice(0, 80))}`);
  if (count === undefined && found !== 1) throw builtinError('edit', 1, `text occurs ${found} times in ${path}; give count: ${found} (or 0 for all) to replace them all`);
  if (count !== undefined && count !== 0 && found !== count) throw builtinError('edit', 1, `expected ${count} occurrence(s) in ${path}, found ${found}`);
  const out = text.split(find).join(String(args.replace));
  try { await writeFile(real, out); } catch (e) { throw builtinError('edit', 2, `cannot write ${path}: ${(e as Error).message}`); }
  return path;
};

export const glob: Builtin = async (args, ctx) => {
  const pattern = String(args.pattern);
  if (pattern === '' || /\[[^\]]*$/.test(pattern)) throw builtinError('glob', 1, `invalid pattern '${pattern}'`);
  const excludes = (Array.isArray(args.exclude) ? args.exclude : args.exclude ? [args.exclude] : []).map(String);
  const abs = isAbsolute(pattern);
  const full = abs ? pattern : join(ctx.cwd, pattern);
  const root = staticPrefix(full);
  ctx.boundary.readDir(root);
  const re = globToRegExp(full);
  const ex = excludes.map((e) => globToRegExp(isAbsolute(e) ? e : join(ctx.cwd, e)));
  const out: string[] = [];
  for await (const file of walk(root, ctx.signal)) {
    if (!re.test(file) || ex.some((r) => r.test(file))) continue;
    try { ctx.boundary.read(file); } catch { continue; }
    out.push(abs ? file : toPosix(relative(ctx.cwd, file)));
    if (out.length >= MAX_RESULTS) break;
  }
  return out.sort();
};

export const grep: Builtin = async (args, ctx) => {
  let re: RegExp;
  try {
    re = new RegExp(String(args.pattern), args.case_insensitive === true ? 'i' : '');
  } catch (e) {
    throw builtinError('grep', 1, `invalid regular expression: ${(e as Error).message}`);
  }
  const path = String(args.path);
  const files: string[] = [];
  if (hasGlobChars(path)) {
    for (const f of (await glob({ pattern: path }, ctx)) as string[]) files.push(isAbsolute(f) ? f : join(ctx.cwd, f));
  } else {
    const real = ctx.boundary.readDir(path);
    const st = await stat(real).catch(() => undefined);
    if (st?.isFile()) ctx.boundary.read(path);
    if (!st) throw builtinError('grep', 1, `no such file or directory: ${path}`);
    if (st.isDirectory()) {
      for await (const f of walk(real, ctx.signal)) files.push(f);
    } else {
      files.push(resolve(ctx.cwd, path));
    }
  }
  const results: Array<{ path: string; line: number; match: string }> = [];
  for (const f of files.sort()) {
    let real: string;
    try { real = ctx.boundary.read(f); } catch { continue; }
    const buf = await readFile(real).catch(() => undefined);
    if (!buf || buf.subarray(0, 8000).includes(0)) continue;
    const lines = buf.toString('utf8').split(/\r?\n/);
    const shown = isAbsolute(path) ? f : toPosix(relative(ctx.cwd, f));
    for (let i = 0; i < lines.length; i++) {
      if (re.test(lines[i])) results.push({ path: shown, line: i + 1, match: lines[i] });
      if (results.length >= MAX_RESULTS) return results;
    }
  }
  return results;
};

function staticPrefix(p: string): string {
  const parts = p.split(sep);
  const i = parts.findIndex(hasGlobChars);
  return i < 0 ? dirname(p) : parts.slice(0, i).join(sep) || sep;
}

async function* walk(dir: string, signal: AbortSignal): AsyncGenerator<string> {
  let entries;
  try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    if (signal.aborted) return;
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === '.git' || e.name === 'node_modules') continue;
      yield* walk(p, signal);
    } else if (e.isFile() || e.isSymbolicLink()) {
      yield p;
    }
  }
}

const toPosix = (p: string) => p.split(sep).join('/');

export type { BuiltinContext };
