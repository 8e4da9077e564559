// The journeys through the extension API instead of the DOM: the same fixture workspace and the
// same expectations (../../expect.cjs), for runners where only the extension host is reachable.
const assert = require('node:assert/strict');
const vscode = require('vscode');
const X = require('../../expect.cjs');

const root = () => vscode.workspace.workspaceFolders[0].uri;
const fileUri = (name) => vscode.Uri.joinPath(root(), name);

async function until(what, fn, ms = 90_000) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function open(name) {
  const doc = await vscode.workspace.openTextDocument(fileUri(name));
  const editor = await vscode.window.showTextDocument(doc);
  return { doc, editor };
}

const lenses = (uri) => vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri);

/** Runs a task through its lens command and returns the text of the task's output document. */
async function runTaskAndReadOutput(uri, task) {
  const runLens = await until(`"${X.run.runLens}" lens`, async () => (await lenses(uri)).find((l) => l.command?.title === X.run.runLens && l.command.arguments?.[1] === task));
  await vscode.commands.executeCommand(runLens.command.command, ...runLens.command.arguments);
  const out = await until(`an "Output" lens on ${task}`, async () => (await lenses(uri)).find((l) => l.command?.title === 'Output' && l.command.arguments?.[0]?.taskId === task));
  await vscode.commands.executeCommand(out.command.command, ...out.command.arguments);
  return until('the task output document', () => {
    const d = vscode.window.activeTextEditor?.document;
    return d && d.uri.scheme !== 'file' ? d.getText() : undefined;
  });
}

suite('nika journeys (extension host)', () => {
  suiteSetup(async () => {
    const ext = vscode.extensions.getExtension('nika-community.nika-workflows');
    assert.ok(ext, 'the extension is installed');
    await ext.activate();
  });

  test('1. a diagnostic with its Nika code, and its quick fix removes it', async () => {
    const { doc } = await open(X.broken.file);
    const diag = await until(X.broken.code, () => vscode.languages.getDiagnostics(doc.uri).find((d) => String(d.code?.value ?? d.code) === X.broken.code));
    const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', doc.uri, diag.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title === X.broken.fixTitle);
    assert.ok(fix, `quick fix offered among ${JSON.stringify(actions.map((a) => a.title))}`);
    if (fix.edit) await vscode.workspace.applyEdit(fix.edit);
    if (fix.command) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    assert.ok(doc.getText().includes(X.broken.fixed));
    await until('the diagnostic to go', () => !vscode.languages.getDiagnostics(doc.uri).some((d) => String(d.code?.value ?? d.code) === X.broken.code));
    await doc.save();
  });

  test('2. "mcp:" completion offers the configured server, then its tools', async () => {
    const { doc, editor } = await open(X.complete.file);
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    await editor.edit((b) => b.insert(end, `"${X.complete.server}"`));
    const at = new vscode.Position(end.line, end.character + 1 + X.complete.server.length);
    const labels = await until('the server\'s tools in completion', async () => {
      const list = await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', doc.uri, at);
      const ls = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      return X.complete.tools.every((t) => ls.includes(t)) ? ls : undefined;
    });
    assert.ok(labels.length >= X.complete.tools.length);
    await doc.save();
  });

  test('3. "▶ Run task" runs the task on the embedded engine', async () => {
    const { doc } = await open(X.run.file);
    const text = await runTaskAndReadOutput(doc.uri, X.run.task);
    assert.ok(text.includes(X.run.output), text);
  });

  test('5. an agent on the loopback model ends with the final answer', async function () {
    if (!process.env.OPENAI_BASE_URL) this.skip();
    const { doc } = await open(X.agent.file);
    const text = await runTaskAndReadOutput(doc.uri, X.agent.task);
    for (const s of [X.agent.firstTurn, X.agent.toolResult, X.agent.finalAnswer]) assert.ok(text.includes(s), `${s} in:\n${text}`);
  });

  test('6. run lenses follow workspace trust', async () => {
    const { doc } = await open(X.run.file);
    const titles = await until('lenses', async () => {
      const l = await lenses(doc.uri);
      return l.length ? l.map((x) => x.command?.title) : undefined;
    });
    if (vscode.workspace.isTrusted) assert.ok(titles.includes(X.run.runLens), JSON.stringify(titles));
    else assert.ok(!titles.includes(X.run.runLens) && titles.some((t) => t.includes(X.untrustedLens)), JSON.stringify(titles));
  });
});
