// Provider API keys live in VS Code's SecretStorage only. They reach the engine as environment
// variables of a run (never settings, never logs).
import * as vscode from 'vscode';
import { engineEnv, keyedProviders } from './model/providerEnv.js';
import { readSettings } from './settings.js';

const KEY = (id: string) => `nika.apiKey.${id}`;

export class Secrets {
  constructor(private readonly storage: vscode.SecretStorage) {}

  async keys(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    await Promise.all(keyedProviders().map(async (p) => {
      const v = await this.storage.get(KEY(p.id));
      if (v) out[p.id] = v;
    }));
    return out;
  }

  /** process.env + stored keys + base URL settings, as the engine reads them. */
  async env(): Promise<Record<string, string | undefined>> {
    return { ...process.env, ...engineEnv(await this.keys(), readSettings().baseUrls) };
  }

  async setApiKeyCommand(): Promise<void> {
    const have = await this.keys();
    const items = keyedProviders().map((p) => ({
      label: p.id,
      description: `${p.kind} · ${p.keyEnv}`,
      detail: have[p.id] ? '$(key) a key is stored — pick to replace or remove it' : undefined,
      id: p.id,
    }));
    const pick = await vscode.window.showQuickPick(items, { title: 'Nika: Set API key', placeHolder: 'Provider (keys are kept in the editor\'s secret storage)', matchOnDescription: true });
    if (!pick) return;
    if (have[pick.id]) {
      const what = await vscode.window.showQuickPick(['Replace the key', 'Remove the key'], { title: `${pick.id} API key` });
      if (!what) return;
      if (what === 'Remove the key') {
        await this.storage.delete(KEY(pick.id));
        void vscode.window.showInformationMessage(`The ${pick.id} API key was removed.`);
        return;
      }
    }
    const value = await vscode.window.showInputBox({
      title: `${pick.id} API key`, prompt: `Stored in the editor's secret storage and given to Nika runs as ${pick.description?.split(' · ')[1]}.`,
      password: true, ignoreFocusOut: true,
      validateInput: (s) => (s.trim() === '' ? 'Enter the key (or press Escape)' : /\s/.test(s.trim()) ? 'A key has no spaces' : undefined),
    });
    if (value === undefined) return;
    await this.storage.store(KEY(pick.id), value.trim());
    void vscode.window.showInformationMessage(`The ${pick.id} API key is stored. Runs in this editor will use it.`);
  }
}
