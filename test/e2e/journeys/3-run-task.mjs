// Journey 3: "▶ Run task" on a task runs it on the embedded engine: the run's output channel
// shows it, the Runs view shows the run and per-task statuses, and the task line gets a badge.
export const title = 'run task lens';

export async function run({ ui, page, check, shot }) {
  await ui.openFile('run.nika.yaml');
  await ui.focusLine('permits');
  const lens = ui.editor.locator('.codelens-decoration a', { hasText: '▶ Run task' }).first(); // the first task: hello
  await lens.waitFor();
  await ui.focusLine('permits'); // Monaco only refreshes lens commands while the text has focus
  await lens.click();

  await ui.waitPanelText('Workflow succeeded');
  const out = await ui.panelText();
  check(out.includes('Only task hello') && out.includes('✓ hello') && out.includes('hello from the e2e journey'), `output channel:\n${indent(out)}`);

  await ui.showNikaViews();
  const runs = ui.treeRows('Runs');
  await runs.filter({ hasText: 'journey-run' }).first().waitFor();
  await runs.filter({ hasText: 'shout' }).first().waitFor();
  const expected = (rs) => rs.some((r) => /^journey-run task hello .*\(pass/.test(r)) && rs.some((r) => /^hello .*hello from the e2e journey \(pass/.test(r))
    && rs.some((r) => /^shout not run/.test(r));
  const rows = await ui.treeSnapshotWhen('Runs', expected);
  check(expected(rows), `Runs view (run, then its tasks):\n${indent(rows.join('\n'))}`);

  await page.waitForFunction(() => [...document.querySelectorAll('.part.editor .editor-group-container.active .view-line span')]
    .some((e) => getComputedStyle(e, '::after').content.includes('hello from the e2e journey')));
  const badges = await ui.decorationsOn('hello:');
  check(badges.some((b) => b.includes('✓')), `decoration on "hello:": ${badges.join(' ')}`);
  await shot('run-task-done');
}

const indent = (s) => s.split('\n').map((l) => '      ' + l).join('\n');
