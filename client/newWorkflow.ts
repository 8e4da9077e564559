// "Nika: New workflow from template": the same templates as `nika-run init`, as a single file
// next to the active one (or at the workspace root), named by the user.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TEMPLATES, templateFiles, type TemplateName } from '../cli/templates.js';

const ABOUT: Record<TemplateName, string> = {
  basic: 'One infer task with an input and an output — runs offline on mock/echo',
  agent: 'An agent with an MCP tool (server-everything) and nika:done',
  pipeline: 'Several tasks wired with with:, exec and a jq step',
};

export async function newWorkflowCommand(): Promise<void> {
  const pick = await vscode.window.showQuickPick(TEMPLATES.map((t) => ({ label: t, detail: ABOUT[t], t })), { title: 'New Nika workflow', placeHolder: 'Template' });
  if (!pick) return;
  const files = templateFiles(pick.t, 'nika-project');
  const [wfPath, body] = Object.entries(files).find(([p]) => p.endsWith('.nika.yaml'))!;
  const folder = targetFolder();
  if (!folder) {
    const doc = await vscode.workspace.openTextDocument({ language: 'nika', content: body });
    await vscode.window.showTextDocument(doc);
    return;
  }
  const name = await vscode.window.showInputBox({
    title: 'New Nika workflow', prompt: `File name (in ${vscode.workspace.asRelativePath(folder)})`, value: path.basename(wfPath),
    validateInput: async (s) => {
      if (!/^[a-z][a-z0-9-]*\.nika\.ya?ml$/.test(s)) return 'Use a kebab-case name ending in .nika.yaml, e.g. summarize.nika.yaml';
      try {
        await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, s));
        return `${s} already exists`;
      } catch {
        return undefined;
      }
    },
  });
  if (!name) return;
  // The `nika:` key carries the workflow's name; templates set it to the file's own stem.
  const stem = name.replace(/\.nika\.ya?ml$/, '');
  const text = body.replace(/^nika: .*$/m, `nika: ${stem}`);
  const uri = vscode.Uri.joinPath(folder, name);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  if (pick.t === 'agent') await ensureMcpConfig(files['.mcp.json']);
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
}

function targetFolder(): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file' && vscode.workspace.getWorkspaceFolder(active)) return vscode.Uri.joinPath(active, '..');
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** The agent template calls `mcp:everything/echo`: make sure some config defines that server. */
async function ensureMcpConfig(dotMcpJson: string | undefined): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root || !dotMcpJson) return;
  for (const rel of ['.vscode/mcp.json', '.mcp.json']) {
    try {
      const text = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, rel))).toString('utf8');
      if (/"everything"\s*:/.test(text)) return;
      if (rel === '.mcp.json') {
        void vscode.window.showInformationMessage('The agent template uses the MCP server "everything"; add it to your .mcp.json or .vscode/mcp.json to run it.');
        return;
      }
    } catch { /* not there */ }
  }
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, '.mcp.json'), Buffer.from(dotMcpJson, 'utf8'));
  void vscode.window.showInformationMessage('Created .mcp.json with the "everything" MCP server the agent template uses (started with npx on first use).');
}
