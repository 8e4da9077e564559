// The language client: starts dist/server.js over stdio, restarts on demand, and forwards the
// MCP tool catalog (`nika/toolCatalog`) whenever it changes — also right after each (re)start.
import * as vscode from 'vscode';
import type { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import type { ToolCatalog } from '../core/catalog/mcp.js';
import { loadLanguageClient } from './lazy.js';
import { SERVER_EXEC_ARGV } from '../server/launch.js';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export class LanguageClientHost implements vscode.Disposable {
  private client?: LanguageClient;
  private catalog?: ToolCatalog;
  private disposed = false;
  private readonly emitter = new vscode.EventEmitter<ServerState>();
  readonly onDidChangeState = this.emitter.event;
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  /** Fires each time the server is up (first start and restarts). */
  readonly onReady = this.readyEmitter.event;

  constructor(private readonly context: vscode.ExtensionContext, private readonly output: vscode.OutputChannel) {}

  async start(): Promise<void> {
    this.emitter.fire('starting');
    // The client library is loaded after activate() has returned: the editor is not held up by
    // it, and the server process takes far longer to come up than this takes to load.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.disposed) return;
    const { LanguageClient, State, TransportKind } = loadLanguageClient();
    const module = this.context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.stdio, options: { execArgv: [...SERVER_EXEC_ARGV] } },
      debug: { module, transport: TransportKind.stdio, options: { execArgv: [...SERVER_EXEC_ARGV, '--nolazy', '--inspect=6019'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ language: 'nika' }],
      synchronize: { configurationSection: 'nika' },
    };
    const client = new LanguageClient('nika', 'Nika Language Server', serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((e) => {
      this.emitter.fire(e.newState === State.Running ? 'running' : e.newState === State.Starting ? 'starting' : 'stopped');
    });
    try {
      await client.start();
      this.emitter.fire('running');
      if (this.catalog) await this.send(this.catalog);
      this.readyEmitter.fire();
    } catch (e) {
      this.output.appendLine(`The Nika language server did not start: ${(e as Error).message}`);
      this.emitter.fire('failed');
    }
  }

  async restart(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    if (old) await old.stop().catch(() => undefined);
    await this.start();
  }

  /** Remembers the catalog and sends it when a server is there to hear it. */
  async setCatalog(catalog: ToolCatalog): Promise<void> {
    this.catalog = catalog;
    if (this.client && this.client.state === loadLanguageClient().State.Running) await this.send(catalog);
  }

  private async send(catalog: ToolCatalog): Promise<void> {
    try {
      await this.client?.sendNotification('nika/toolCatalog', catalog);
    } catch (e) {
      this.output.appendLine(`Could not send the MCP tool catalog: ${(e as Error).message}`);
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.emitter.dispose();
    this.readyEmitter.dispose();
    await this.client?.stop().catch(() => undefined);
  }
}
