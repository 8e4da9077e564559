// "Call tool…" from the explorer: arguments from the tool's inputSchema (a quick input per
// property for flat schemas, else a JSON document the user edits and sends), then the result in
// a read-only JSON document.
import * as vscode from 'vscode';
import { coerceField, missingRequired, parseArgsDocument, planToolForm, type FormField } from '../model/toolForm.js';
import type { ToolView } from '../model/mcpTree.js';
import { safeJson } from '../model/format.js';
import { errorMessage } from '../util.js';

export interface CallDeps {
  call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  show(name: string, text: string): Promise<void>;
  draftsDir: vscode.Uri;
}

/** Last arguments per tool, so a second call starts from the first one's values. */
const lastArgs = new Map<string, Record<string, unknown>>();

export async function callToolFlow(server: string, tool: ToolView, deps: CallDeps): Promise<void> {
  const id = `mcp:${server}/${tool.name}`;
  const plan = planToolForm(tool.inputSchema);
  let args: Record<string, unknown> | undefined;
  if (plan.kind === 'form') args = await askFields(id, plan.fields, lastArgs.get(id) ?? {});
  else args = await editJson(id, lastArgs.get(id) ? JSON.stringify(lastArgs.get(id), null, 2) : plan.skeleton, plan.reason, tool.inputSchema, deps.draftsDir);
  if (!args) return;
  lastArgs.set(id, args);
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Calling ${id}…`, cancellable: true }, async (_p, token) => {
    const ctl = new AbortController();
    token.onCancellationRequested(() => ctl.abort());
    const started = Date.now();
    try {
      const result = await deps.call(server, tool.name, args!, ctl.signal);
      await deps.show(`${server}-${tool.name}.result.json`, safeJson({ tool: id, arguments: args, duration_ms: Date.now() - started, result }) + '\n');
    } catch (e) {
      const message = errorMessage(e);
      await deps.show(`${server}-${tool.name}.error.json`, safeJson({ tool: id, arguments: args, error: message }) + '\n');
      void vscode.window.showErrorMessage(`${id} failed: ${message}`);
    }
  });
}

async function askFields(id: string, fields: FormField[], previous: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const out: Record<string, unknown> = {};
  for (const [i, f] of fields.entries()) {
    const title = `${id} — ${f.name} (${i + 1}/${fields.length})`;
    const hint = `${f.title ?? f.name}${f.required ? ' (required)' : ' (optional — leave empty to omit)'}${f.description ? ` — ${f.description}` : ''}`;
    const prior = f.name in previous ? previous[f.name] : f.hasDefault ? f.default : undefined;
    if (f.kind === 'enum' || f.kind === 'boolean') {
      const options = f.kind === 'boolean' ? [true, false] : f.options ?? [];
      const items: Array<vscode.QuickPickItem & { value?: unknown; omit?: boolean }> = options.map((o) => ({ label: String(o), value: o, description: o === prior ? 'last / default' : undefined }));
      if (!f.required) items.push({ label: '(omit)', omit: true });
      const pick = await vscode.window.showQuickPick(items, { title, placeHolder: hint, ignoreFocusOut: true });
      if (!pick) return undefined;
      if (!pick.omit) out[f.name] = pick.value;
      continue;
    }
    if (f.kind === 'multi-enum') {
      const picked = new Set(Array.isArray(prior) ? prior.map(String) : []);
      const items = (f.options ?? []).map((o) => ({ label: String(o), picked: picked.has(String(o)) }));
      const pick = await vscode.window.showQuickPick(items, { title, placeHolder: hint, canPickMany: true, ignoreFocusOut: true });
      if (!pick) return undefined;
      if (pick.length || f.required) out[f.name] = pick.map((p) => p.label);
      continue;
    }
    const raw = await vscode.window.showInputBox({
      title, prompt: hint, ignoreFocusOut: true,
      value: prior === undefined ? '' : f.kind === 'string' ? String(prior) : JSON.stringify(prior),
      placeHolder: f.kind === 'json' ? 'JSON, e.g. ["a", "b"]' : f.kind,
      validateInput: (s) => {
        const v = coerceField(f, s);
        return v.ok ? undefined : v.error;
      },
    });
    if (raw === undefined) return undefined;
    const v = coerceField(f, raw);
    if (!v.ok) return undefined;
    if (!v.omit) out[f.name] = v.value;
  }
  return out;
}

/** Opens the arguments as a JSON file; saving it (or pressing Send) sends them. */
async function editJson(id: string, skeleton: string, reason: string, schema: unknown, dir: vscode.Uri): Promise<Record<string, unknown> | undefined> {
  await vscode.workspace.fs.createDirectory(dir);
  const file = vscode.Uri.joinPath(dir, `${id.replace(/[^A-Za-z0-9_-]+/g, '_')}.args.json`);
  await vscode.workspace.fs.writeFile(file, Buffer.from(skeleton + '\n', 'utf8'));
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc, { preview: false });
  return new Promise((resolve) => {
    let done = false;
    const subs: vscode.Disposable[] = [];
    const finish = (v: Record<string, unknown> | undefined) => {
      if (done) return;
      done = true;
      subs.forEach((s) => s.dispose());
      resolve(v);
    };
    const attempt = (text: string): boolean => {
      const parsed = parseArgsDocument(text);
      if (!parsed.ok) {
        void vscode.window.showErrorMessage(parsed.error);
        return false;
      }
      const missing = missingRequired(schema, parsed.value);
      if (missing.length) {
        void vscode.window.showErrorMessage(`${id}: missing required argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
        return false;
      }
      finish(parsed.value);
      return true;
    };
    subs.push(vscode.workspace.onDidSaveTextDocument((d) => { if (d.uri.toString() === file.toString()) attempt(d.getText()); }));
    subs.push(vscode.workspace.onDidCloseTextDocument((d) => { if (d.uri.toString() === file.toString()) finish(undefined); }));
    const ask = () => {
      void vscode.window.showInformationMessage(`Edit the arguments of ${id} (${reason}), then save the file or press Send.`, 'Send', 'Cancel').then((pick) => {
        if (done) return;
        if (pick === 'Send') {
          if (!attempt(doc.getText())) ask();
        } else if (pick === 'Cancel') {
          finish(undefined);
        }
      });
    };
    ask();
  });
}
