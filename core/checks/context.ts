import type { NikaDocument } from '../document.js';
import type { DialectInfo } from '../dialect.js';
import type { Workflow } from '../ir.js';
import type { ToolCatalog } from '../catalog/mcp.js';
import type { TaskMemo } from './memo.js';

/** Everything a check may read. Built once per document version. */
export interface CheckContext {
  doc: NikaDocument;
  dialect: DialectInfo;
  workflow: Workflow;
  /** Live MCP servers and their tools, as the client last reported (`nika/toolCatalog`). */
  catalog: ToolCatalog;
  /** Per-task memo tables kept across edits by the incremental analyzer (see memo.ts). */
  memo?: TaskMemo;
}
