// Page helpers for driving the VS Code workbench that code-server serves. Every wait is for a
// condition in the DOM (never a fixed sleep), with the page's generous default timeout.
// Monaco renders spaces as U+00A0, so text is normalised before matching.

export const norm = (s) => String(s ?? '').replace(/\u00a0/g, ' ');

export class Ui {
  constructor(page, log) {
    this.page = page;
    this.log = log;
  }

  /** The editor of the active editor group. */
  get editor() {
    return this.page.locator('.part.editor .editor-group-container.active .monaco-editor').first();
  }

  async editorText() {
    return norm(await this.editor.locator('.view-lines').first().innerText());
  }

  /** Waits until the active editor shows `needle` (a string or a RegExp source with flags). */
  async waitEditorText(needle, opts = {}) {
    const re = needle instanceof RegExp ? { source: needle.source, flags: needle.flags } : undefined;
    await this.page.waitForFunction(({ n, re }) => {
      const e = document.querySelector('.part.editor .editor-group-container.active .monaco-editor .view-lines');
      const t = (e?.textContent ?? '').replace(/\u00a0/g, ' ');
      return re ? new RegExp(re.source, re.flags).test(t) : t.includes(n);
    }, { n: typeof needle === 'string' ? needle : '', re }, opts);
  }

  async waitPanelText(needle, opts = {}) {
    await this.page.waitForFunction((n) => [...document.querySelectorAll('.part.panel .view-lines')]
      .some((e) => e.textContent.replace(/\u00a0/g, ' ').includes(n)), needle, opts);
  }

  async panelText() {
    return norm((await this.page.locator('.part.panel .view-lines').allInnerTexts()).join('\n'));
  }

  /** Runs a command by its palette title (F1), e.g. 'View: Close All Editor Groups'. */
  async palette(title) {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input.input');
    await input.fill('>' + title);
    // Click the row whose label is exactly the title ("File: Save All" is not "…Save All Files").
    const row = this.page.locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name').getByText(title, { exact: true }) }).first();
    await row.click();
  }

  /** Opens a workspace file with Quick Open (Ctrl+P), as a person would. */
  async openFile(name) {
    await this.page.keyboard.press('Control+p');
    await this.page.locator('.quick-input-widget input.input').fill(name);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.part.editor .editor-group-container.active .tab.active', { hasText: name.replace(/\.[^.]+$/, '') }).first().waitFor();
    await this.editor.locator('.view-line').first().waitFor();
  }

  /** Puts the caret in the active editor's text (Monaco re-fetches lenses only while it has focus). */
  async focusLine(hasText) {
    await this.editor.locator('.view-line', { hasText }).first().click();
  }

  /** Back to one empty editor group; saves first so no "unsaved changes" dialog can appear. */
  async resetEditors() {
    await this.dismiss();
    await this.palette('File: Save All').catch(() => undefined);
    await this.palette('View: Close All Editor Groups');
    // Should an unsaved editor remain (Save All can race a late edit), its dialog would block.
    const dontSave = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" });
    const tabs = this.page.locator('.part.editor .editor-group-container .tab').first();
    await Promise.race([tabs.waitFor({ state: 'detached' }), dontSave.waitFor().then(() => dontSave.click())]);
    await tabs.waitFor({ state: 'detached' });
  }

  /** Closes quick inputs, suggest widgets and menus a failed step may have left open. */
  async dismiss() {
    for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape');
  }

  /** Shows the Nika activity-bar container (Runs and MCP Tools views). */
  async showNikaViews() {
    const runs = this.page.locator('.pane-header[aria-label^="Runs"]');
    if (!(await runs.isVisible().catch(() => false))) {
      await this.page.locator('.activitybar .action-item a[aria-label^="Nika"]').first().click();
    }
    await runs.waitFor();
    for (const name of ['Runs', 'MCP Tools']) {
      const h = this.page.locator(`.pane-header[aria-label^="${name}"]`);
      if ((await h.getAttribute('aria-expanded')) !== 'true') await h.click();
    }
  }

  treeRows(view) {
    return this.page.locator(`.monaco-list[aria-label="${view}"] .monaco-list-row`);
  }

  /** Rows of a tree view as "label description (icon)"; the icon is how a status is shown. */
  async treeSnapshot(view) {
    return this.treeRows(view).evaluateAll((rows) => rows.map((r) => {
      const label = (r.getAttribute('aria-label') ?? r.innerText).replace(/, has actions$/, '');
      const icon = [...(r.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])].find((c) => c.startsWith('codicon-') && c !== 'codicon-');
      return icon ? `${label} (${icon.slice(8)})` : label;
    }));
  }

  /**
   * The tree's rows once `ok(rows)` holds, or the last rows read when `ms` run out: a view that
   * is re-rendered (a refresh after each event) can be read between two renders, empty.
   */
  async treeSnapshotWhen(view, ok, ms = 10_000) {
    const until = Date.now() + ms;
    for (;;) {
      const rows = await this.treeSnapshot(view);
      if (ok(rows) || Date.now() > until) return rows;
      await this.page.waitForTimeout(100);
    }
  }

  /** Text an `after:` decoration renders at the end of the line containing `hasText`. */
  async decorationsOn(hasText) {
    return this.editor.locator('.view-line', { hasText }).first().locator('span')
      .evaluateAll((es) => es.map((e) => getComputedStyle(e, '::after').content).filter((c) => c && c !== 'none' && c !== 'normal'));
  }
}
