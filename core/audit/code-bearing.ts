// The data-as-code sink (reference §8 NIKA-SEC-008): artifacts that execute when loaded. A
// `nika:fetch` whose URL path ends in one of these is refused unless the task carries
// `lift: [{ law: data-as-code, because: … }]`. Judged on the path's final extension, case
// insensitive; the query string carries no verdict.

const CLASSES: Record<string, readonly string[]> = {
  'serialized executable': ['pkl', 'pickle', 'dill', 'joblib', 'pt', 'pth', 'ckpt'],
  'script or notebook': ['py', 'sh', 'bash', 'zsh', 'ps1', 'bat', 'cmd', 'rb', 'pl', 'php', 'js', 'mjs', 'ipynb'],
  'executable binary or module': ['exe', 'dll', 'so', 'dylib', 'wasm', 'jar'],
};

const BY_EXT = new Map<string, string>();
for (const [cls, exts] of Object.entries(CLASSES)) for (const e of exts) BY_EXT.set(e, cls);

/** The code-bearing class of a URL (or bare path), or undefined when the artifact is inert. */
export function codeBearingClass(url: string): { ext: string; cls: string } | undefined {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0];
  }
  const last = path.split('/').pop() ?? '';
  const dot = last.lastIndexOf('.');
  if (dot <= 0 && !(dot === 0 && last.length > 1)) return undefined;
  const ext = last.slice(dot + 1).toLowerCase();
  const cls = BY_EXT.get(ext);
  return cls ? { ext, cls } : undefined;
}
