// Entry of dist/engine.js: everything the extension takes from engine/ at run time, in one
// bundle that is required on the first run or first MCP use (client/engineLoader.ts). Keeping it
// out of dist/extension.js is what makes activation cheap: the engine pulls in the MCP SDK, the
// provider SDKs and jq-wasm. NikaError comes from here too, so the one class the engine
// checks with instanceof is the one the extension throws.
export * as run from '../engine/index.js';
export * as mcp from '../engine/mcp/index.js';
export { NikaError } from '../engine/contracts.js';
