// The status bar item: engine/server state and what is running, in one glance.

export interface StatusInput {
  trusted: boolean;
  server: 'starting' | 'running' | 'stopped' | 'failed';
  runningRuns: number;
  runningTasks: number;
  lastRun?: { workflow: string; status: string };
}

export interface StatusView { text: string; tooltip: string; command: 'runs' | 'cancel' | 'restart'; warning: boolean }

export function statusView(s: StatusInput): StatusView {
  if (s.runningRuns > 0) {
    const tasks = `${s.runningTasks} task${s.runningTasks === 1 ? '' : 's'}`;
    return {
      text: `$(sync~spin) Nika: ${s.runningRuns > 1 ? `${s.runningRuns} runs · ` : ''}${tasks}`,
      tooltip: `${s.runningRuns} run${s.runningRuns === 1 ? '' : 's'} in progress, ${tasks} running. Click to cancel.`,
      command: 'cancel', warning: false,
    };
  }
  if (s.server === 'failed' || s.server === 'stopped') {
    return { text: '$(warning) Nika', tooltip: 'The Nika language server is not running. Click to restart it.', command: 'restart', warning: true };
  }
  const icon = s.server === 'starting' ? '$(loading~spin)' : !s.trusted ? '$(shield)' : s.lastRun?.status === 'failure' ? '$(error)' : '$(check)';
  const lines = [
    s.server === 'starting' ? 'Language server starting…' : 'Language server running.',
    s.trusted ? 'Runs use the embedded engine.' : 'Restricted mode: language features only (no runs, no MCP servers).',
  ];
  if (s.lastRun) lines.push(`Last run: ${s.lastRun.workflow} — ${s.lastRun.status}.`);
  lines.push('Click to show the runs.');
  return { text: `${icon} Nika`, tooltip: lines.join('\n'), command: 'runs', warning: false };
}
