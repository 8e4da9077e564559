// Journey 6 (a second code-server, workspace trust on, folder not trusted): no run lens, runs
// are not offered, the MCP view says servers are not started — and no MCP server process exists,
// even after Refresh and an mcp: completion.
export const title = 'untrusted workspace';

export async function run({ ui, page, check, shot, processesWithMark, mark, processGroup }) {
  await ui.openFile('run.nika.yaml');
  const lenses = ui.editor.locator('.codelens-decoration');
  await lenses.filter({ hasText: 'Runs need a trusted workspace' }).first().waitFor();
  await ui.editor.locator('.codelens-decoration', { hasText: 'Check' }).first().waitFor();
  const texts = (await lenses.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
  check(!texts.some((t) => /Run task|Run workflow|Run with upstream|mock\/echo/.test(t)), `lenses: ${JSON.stringify(texts)}`);
  await shot('untrusted-lenses');

  // The run commands are not in the palette either.
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input.input').fill('>Nika: ');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Nika: Check Workflow' }).first().waitFor();
  const cmds = (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((s) => s.split('\n')[0]);
  await ui.dismiss();
  check(!cmds.some((c) => /Nika: Run (Workflow|Task)/.test(c)), `palette offers no run command (${cmds.length} Nika commands listed)`);

  // Clicking the lens leads to the trust editor, not to a run.
  await lenses.locator('a', { hasText: 'Runs need a trusted workspace' }).first().click();
  const trust = page.getByText('You are in Restricted Mode').first();
  await trust.waitFor();
  check(true, 'the lens opens Workspace Trust ("You are in Restricted Mode"), no run starts');
  await shot('lens-opens-trust');
  await ui.dismiss();
  if (await trust.isVisible()) await page.locator('[aria-label="Close"], .codicon-close').filter({ visible: true }).last().click().catch(() => undefined);
  await trust.waitFor({ state: 'hidden' });

  await ui.showNikaViews();
  await page.locator('.pane-body', { hasText: 'Runs are disabled in Restricted Mode' }).first().waitFor();
  const rows = ui.treeRows('MCP Tools');
  await rows.filter({ hasText: 'Restricted Mode: servers are not started' }).first().waitFor();
  await rows.filter({ hasText: /everything.*(not started|disabled)/ }).first().waitFor();
  // Try to start it anyway: Refresh in the view's title bar.
  await page.locator('.pane-header[aria-label^="MCP Tools"]').hover();
  await page.locator('.pane-header[aria-label^="MCP Tools"] .action-label[aria-label^="Refresh MCP Servers"]').click();
  await ui.openFile('complete.nika.yaml');
  await ui.focusLine('tool:');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('"mcp:');
  await page.locator('.editor-widget.suggest-widget .monaco-list-row', { hasText: 'mcp:everything/' }).first().waitFor();
  await shot('untrusted-completion');
  await ui.dismiss();
  await rows.filter({ hasText: /everything.*(not started|disabled)/ }).first().waitFor();
  const snap = await ui.treeSnapshotWhen('MCP Tools', (rs) => rs.length > 0 && !rs.some((r) => /connected/.test(r)));
  check(snap.length > 0 && !snap.some((r) => /connected/.test(r)), `MCP Tools view: ${snap.join(' · ')}`);
  await shot('untrusted-views');

  const marked = processesWithMark(mark);
  const inGroup = processGroup().filter((p) => /server-everything/.test(p.cmd));
  check(marked.length === 0 && inGroup.length === 0, `no server-everything process (marker scan: ${marked.length}, code-server's process group: ${inGroup.length})`);
}
