// Journey 1: a workflow with an error shows a squiggle and a Problems row carrying its Nika
// code; the quick fix offered on it removes both.
export const title = 'diagnostic + quick fix';

export async function run({ ui, page, check, shot }) {
  await ui.openFile('broken.nika.yaml');
  const squiggle = ui.editor.locator('.squiggly-error');
  await squiggle.first().waitFor();
  await page.locator('[id="status.problems"]').click();
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'NIKA-PARSE-005' }).first();
  await row.waitFor();
  const rowText = (await row.innerText()).replace(/\n/g, ' | ');
  check(/temprature/.test(rowText) && /temperature/.test(rowText), `Problems row: ${rowText}`);
  await shot('squiggle-and-problem');

  // The caret on the squiggled key, then Ctrl+. as a person would.
  await ui.focusLine('temprature');
  await page.keyboard.press('Home');
  await page.keyboard.press('Control+.');
  const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'temperature' }).first();
  await fix.waitFor();
  check(true, `quick fix offered: ${(await fix.innerText()).trim()}`);
  await shot('quick-fix-menu');
  await fix.click();

  await ui.waitEditorText('temperature: 0.2');
  await squiggle.first().waitFor({ state: 'detached' });
  await page.locator('.markers-panel .monaco-list-row', { hasText: 'NIKA-PARSE-005' }).first().waitFor({ state: 'detached' });
  check(!(await ui.editorText()).includes('temprature'), 'the key is renamed; squiggle and Problems row are gone');
  await shot('fixed');
  await page.keyboard.press('Control+s');
}
