// Children never inherit the engine's whole environment: they get the runner floor, the names
// the workflow's permits list, and the task's own `exec.env`.
export const ENV_FLOOR = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME'] as const;

export function composeEnv(
  engineEnv: Record<string, string | undefined>,
  passNames: readonly string[],
  own: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...ENV_FLOOR, ...passNames]) {
    const v = engineEnv[name];
    if (v !== undefined) out[name] = v;
  }
  if (out.PATH === undefined) out.PATH = '/usr/local/bin:/usr/bin:/bin';
  return { ...out, ...own };
}
