// Entry of dist/server.js: `node dist/server.js --stdio` (also --node-ipc / --socket=N, which
// vscode-languageserver reads from argv).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './connection.js';
import { tuneHeap } from './heap.js';

tuneHeap();
startServer(createConnection(ProposedFeatures.all));
