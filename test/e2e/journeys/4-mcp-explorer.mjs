// Journey 4: the MCP Tools view lists the configured server and its tools; "Call MCP Tool…" on
// echo asks for its argument and shows the echo; "Insert as invoke task" writes the task.
export const title = 'MCP explorer';

export async function run({ ui, page, check, shot, processesWithMark, mark }) {
  await ui.openFile('tools.nika.yaml');
  await ui.showNikaViews();
  const rows = ui.treeRows('MCP Tools');
  await rows.filter({ hasText: /connected/ }).first().waitFor();
  const echo = rows.filter({ hasText: /^echo/ }).first();
  await echo.waitFor();
  const listed = (rs) => /^everything connected · \d+ tools/.test(rs[0]) && rs.some((r) => r.startsWith('echo Echoes back')) && rs.some((r) => r.startsWith('get-sum'));
  const snap = await ui.treeSnapshotWhen('MCP Tools', listed);
  check(listed(snap),
    `MCP Tools view (${snap.length} rows): ${snap.slice(0, 3).join(' · ')} …`);
  // Positive control for journey 6: the server process is found by its marker while it runs.
  const procs = processesWithMark(mark);
  check(procs.length > 0, `server-everything is running with this workspace's marker: ${procs.map((p) => `${p.pid} ${p.cmd}`).join('; ')}`);
  await shot('mcp-tools');

  await echo.hover();
  await echo.locator('.action-label[aria-label^="Call MCP Tool"]').click();
  const input = page.locator('.quick-input-widget input.input');
  await page.locator('.quick-input-widget', { hasText: 'mcp:everything/echo' }).waitFor();
  await input.fill('hello from the e2e journey');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('.part.editor .view-lines')]
    .some((e) => e.textContent.replace(/\u00a0/g, ' ').includes('"result": "Echo: hello from the e2e journey"')));
  check(true, 'Call tool… result document: "result": "Echo: hello from the e2e journey"');
  await shot('call-tool-result');

  // The result opened beside the workflow: close it, back to the workflow, caret at its end,
  // then insert from the tree.
  await ui.palette('View: Close Editor Group');
  await page.locator('.part.editor .editor-group-container.active .tab.active', { hasText: 'tools.nika' }).waitFor();
  await ui.focusLine('message');
  await page.keyboard.press('Control+End');
  await echo.hover();
  await echo.locator('.action-label[aria-label^="Insert MCP Tool"]').click();
  await ui.waitEditorText(/tool: "?mcp:everything\/echo/);
  const text = await ui.editorText();
  check(/\n {2}echo:\n {4}invoke:\n {6}tool: "?mcp:everything\/echo"?\n {6}args:\n {8}message:/.test(text), `inserted task:\n${text.split('\n').slice(-6).map((l) => '      ' + l).join('\n')}`);
  await shot('inserted-invoke-task');
  await page.keyboard.press('Control+s');
}
