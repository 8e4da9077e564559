// Gitignore-flavoured globs for permits and `nika:glob`: `**` spans directories, `*` and `?`
// stay inside one segment, `[…]` is a character class.
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        const atSegStart = i === 0 || glob[i - 1] === '/';
        if (atSegStart && slashAfter) { re += '(?:[^/]*(?:/[^/]*)*/)?'; i += 2; }
        else { re += '.*'; i += 1; }
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
