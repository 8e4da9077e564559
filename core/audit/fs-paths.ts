// Static judgement of literal paths against `permits.fs.read` / `fs.write` globs (reference §1.6),
// with the same rules the engine's run-time boundary applies: globs are gitignore-flavoured
// (`**` spans directories, `*`/`?` stay in one segment), relative globs and paths are anchored at
// the workflow's directory, `~/` at the home directory, `.`/`..` are resolved lexically, and a
// granted directory covers everything below it. Symlinks are the run time's business.

/** Stand-ins for the two anchors, which a static check cannot know. */
const BASE = '/\u0000wf';
const HOME = '/\u0000home';

/** Lexically normalized absolute form of a path or glob (POSIX separators). */
export function anchorPath(p: string): string {
  let s = p.trim().replace(/\\/g, '/');
  if (s === '~') s = HOME;
  else if (s.startsWith('~/')) s = `${HOME}/${s.slice(2)}`;
  else if (!s.startsWith('/')) s = `${BASE}/${s}`;
  const out: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') { out.pop(); continue; }
    out.push(seg);
  }
  return '/' + out.join('/');
}

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        const atSegStart = i === 0 || glob[i - 1] === '/';
        if (atSegStart && slashAfter) { re += '(?:[^/]*(?:/[^/]*)*/)?'; i += 2; } else { re += '.*'; i += 1; }
      } else {
        re += '[^/]*';
      }
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) { re += '\\['; continue; }
      let body = glob.slice(i + 1, close);
      if (body.startsWith('!')) body = '^' + body.slice(1);
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else {
      re += c.replace(/[.+^${}()|\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`);
}

export function hasGlobChars(s: string): boolean {
  return /[*?[]/.test(s);
}

function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/** Literal directory part of a glob (everything before the first segment with a glob character). */
export function literalPrefix(anchored: string): string {
  const parts = anchored.split('/');
  const i = parts.findIndex((x) => hasGlobChars(x));
  return i < 0 ? anchored : parts.slice(0, i).join('/') || '/';
}

function compileAll(globs: readonly string[]): RegExp[] {
  return globs.map((g) => globToRegExp(anchorPath(g)));
}

/** The path, or a directory above it, matches one of the globs. */
export function pathCovered(path: string, globs: readonly string[]): boolean {
  const res = compileAll(globs);
  for (let p = anchorPath(path); ; p = parentOf(p)) {
    if (res.some((r) => r.test(p))) return true;
    if (p === '/') return false;
  }
}

/**
 * A directory walk (nika:glob's root, nika:grep on a directory) may start where the directory is
 * readable itself or holds a read grant somewhere below it; each file found is judged on its own.
 */
export function walkAllowed(dir: string, globs: readonly string[]): boolean {
  const real = anchorPath(dir);
  if (globs.some((g) => { const r = literalPrefix(anchorPath(g)); return r === real || r.startsWith(real === '/' ? '/' : real + '/'); })) return true;
  return pathCovered(dir, globs);
}

/** The directory a glob pattern is walked from (its literal prefix, or the parent of a plain path). */
export function walkRoot(pattern: string): string {
  const a = anchorPath(pattern);
  return hasGlobChars(pattern) ? literalPrefix(a) : parentOf(a);
}

/** Renders an anchored path back for messages (`./x` for workflow-relative, `~/x` for home). */
export function displayPath(anchored: string): string {
  if (anchored === BASE) return '.';
  if (anchored.startsWith(BASE + '/')) return anchored.slice(BASE.length + 1);
  if (anchored.startsWith(HOME)) return '~' + anchored.slice(HOME.length);
  return anchored;
}
