// The environment plane of `permits:` (reference §1.6): what a child process may see. A child's
// environment is composed, never inherited: the runner floor, the names `permits.env` passes
// through, and the task's own `exec.env` map.

/** Names every child gets from the engine without a grant (a normative maximum). */
export const ENV_FLOOR: readonly string[] = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME'];

/**
 * Names no grant can pass: each one makes a child load or run code the workflow never shows
 * (linker injection, shell startup files, tool and interpreter hooks, IFS). A `permits.env`
 * entry naming one is a dead grant (NIKA-AUTH-009).
 */
export const DANGEROUS_ENV: ReadonlySet<string> = new Set([
  'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'GCONV_PATH',
  'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'DYLD_FRAMEWORK_PATH', 'DYLD_FALLBACK_LIBRARY_PATH', 'DYLD_FALLBACK_FRAMEWORK_PATH',
  'BASH_ENV', 'ENV',
  'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EXTERNAL_DIFF', 'GIT_PAGER', 'GIT_PROXY_COMMAND', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_TEMPLATE_DIR',
  'LESSOPEN', 'HOSTALIASES', 'TERMINFO', 'TERMINFO_DIRS', 'TERMCAP',
  'PYTHONSTARTUP', 'PYTHONPATH', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB', 'NODE_OPTIONS', 'NODE_PATH',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'DOTNET_STARTUP_HOOKS', 'OPENSSL_CONF', 'OPENSSL_MODULES',
  'IFS',
]);

export function isDangerousEnv(name: string): boolean {
  // The whole DYLD_ family is the macOS loader's; new members appear with OS releases.
  return DANGEROUS_ENV.has(name) || name.startsWith('DYLD_');
}

export function isFloorEnv(name: string): boolean {
  return ENV_FLOOR.includes(name);
}
