// Entry of dist/languageClient.js: vscode-languageclient (with jsonrpc and the protocol types) is
// most of what is left of the extension's own code, so client/languageClient.ts loads it only
// once activate() has returned and the server is being started (client/lazy.ts).
export { LanguageClient, State, TransportKind } from 'vscode-languageclient/node';
