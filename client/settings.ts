// Reading the extension's settings (documented in package.json `contributes.configuration`).
import * as vscode from 'vscode';

export type OfficialBinaryMode = 'off' | 'auto' | 'on';
export type InlineOutputMode = 'agent+infer' | 'agent' | 'off';

export interface NikaSettings {
  defaultModel: string;
  maxParallel: number;
  mcpServers: Record<string, unknown>;
  mcpAutoStart: boolean;
  baseUrls: Record<string, unknown>;
  useOfficialBinary: OfficialBinaryMode;
  officialBinaryPath: string;
  runDecorations: boolean;
  inlineOutput: InlineOutputMode;
  keepRuns: number;
}

export function readSettings(scope?: vscode.Uri): NikaSettings {
  const c = vscode.workspace.getConfiguration('nika', scope);
  return {
    defaultModel: c.get<string>('defaultModel', '').trim(),
    maxParallel: Math.max(0, Math.floor(c.get<number>('maxParallel', 0))),
    mcpServers: c.get<Record<string, unknown>>('mcp.servers', {}) ?? {},
    mcpAutoStart: c.get<boolean>('mcp.autoStart', true),
    baseUrls: c.get<Record<string, unknown>>('providers.baseUrls', {}) ?? {},
    useOfficialBinary: c.get<OfficialBinaryMode>('useOfficialBinary', 'off'),
    officialBinaryPath: c.get<string>('officialBinaryPath', 'nika') || 'nika',
    runDecorations: c.get<boolean>('editor.runDecorations', true),
    inlineOutput: c.get<InlineOutputMode>('editor.inlineOutput', 'agent+infer'),
    keepRuns: Math.max(1, Math.floor(c.get<number>('runs.keep', 20))),
  };
}
