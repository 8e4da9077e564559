// Journey 2: typing `tool: "mcp:` offers the configured server (the real server-everything from
// .vscode/mcp.json), and accepting it offers that server's live tools.
export const title = 'MCP tool completion';

export async function run({ ui, page, check, shot }) {
  await ui.openFile('complete.nika.yaml');
  await ui.focusLine('tool:');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('"mcp:');
  const rows = page.locator('.editor-widget.suggest-widget .monaco-list-row');
  const server = rows.filter({ hasText: 'mcp:everything/' }).first();
  // The server starts once the language server is up; until it has listed its tools the item is
  // not there yet, so ask again (Ctrl+Space) until it is.
  await waitFor(async () => {
    if (await server.isVisible().catch(() => false)) return true;
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Space');
    return server.waitFor({ timeout: 5000 }).then(() => true, () => false);
  }, 120_000, 'completion item mcp:everything/');
  check(true, `offered after "mcp:": ${(await rows.allInnerTexts()).map((s) => s.split('\n')[0]).join(', ')}`);
  await shot('server-offered');
  await server.click();
  const echo = rows.filter({ hasText: 'mcp:everything/echo' }).first();
  await echo.waitFor();
  const tools = (await rows.allInnerTexts()).map((s) => s.split('\n')[0]);
  check(tools.includes('mcp:everything/echo') && tools.includes('mcp:everything/get-sum'), `tools offered: ${tools.join(', ')}`);
  await shot('tools-offered');
  await echo.click();
  await ui.waitEditorText('tool: "mcp:everything/echo"');
  check(true, 'accepted: tool: "mcp:everything/echo"');
  await page.keyboard.press('Control+s');
}

async function waitFor(attempt, ms, what) {
  const end = Date.now() + ms;
  while (Date.now() < end) if (await attempt()) return;
  throw new Error(`timed out waiting for ${what}`);
}
