// Commands that are never run, whatever the permits say (reference §3.2, NIKA-SEC-001). This is a
// floor against obvious disasters, not a sandbox: the permits boundary is the real control.
const RULES: Array<{ re: RegExp; why: string }> = [
  { re: /\brm\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z-]+\s+)*(\/|\/\*|\/\.|~\/?|\$HOME\/?)(\s|;|&|\||$)/, why: 'recursive delete of / or the home directory' },
  { re: /--no-preserve-root/, why: 'rm --no-preserve-root' },
  { re: /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, why: 'fork bomb' },
  { re: /(^|[;&|\s])(sudo\s+)?mkfs(\.[a-z0-9]+)?\b/, why: 'formatting a filesystem' },
  { re: /\bdd\b[^;&|]*\bof=\/dev\/(sd|hd|nvme|xvd|vd|disk|mmcblk)/, why: 'dd onto a block device' },
  { re: />\s*\/dev\/(sd|hd|nvme|xvd|vd|disk|mmcblk)[a-z0-9]*/, why: 'writing to a block device' },
  { re: /\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b/, why: 'piping a download into a shell' },
  { re: /\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(python[0-9.]*|perl|ruby|node)\b/, why: 'piping a download into an interpreter' },
  { re: /\bchmod\s+(-[a-zA-Z]*\s+)*-R\s+[0-7]*7[0-7]*\s+\/(\s|$)/, why: 'recursive chmod of /' },
  { re: /(^|[;&|\s])(sudo\s+)?(shutdown|reboot|halt|poweroff)(\s|;|$)/, why: 'shutting the machine down' },
];

/** The reason a command line is refused, or undefined when it may run. */
export function blockedReason(commandLine: string): string | undefined {
  const line = commandLine.replace(/\s+/g, ' ');
  // The same line as the shell will see it after quote removal and with long options spelled
  // short: `rm -rf "/"`, `rm --recursive --force /` and `rm -rf ${HOME}` slipped past before.
  const plain = line.replace(/["']/g, '').replace(/\$\{HOME\}/g, '$HOME').replace(/--recursive\b/g, '-r').replace(/--force\b/g, '-f');
  for (const r of RULES) if (r.re.test(line) || (plain !== line && r.re.test(plain))) return r.why;
  return undefined;
}
