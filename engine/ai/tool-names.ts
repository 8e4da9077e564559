// Providers accept function names matching ^[a-zA-Z0-9_-]{1,64}$, Nika tool ids don't
// (`mcp:everything/echo`). The agent offers sanitized names and maps calls back through this table.
import { createHash } from 'node:crypto';

export const DONE_TOOL_ID = 'nika:done';
/** The name `nika:done` is offered under; the mock provider looks for it. */
export const DONE_TOOL_NAME = 'nika__done';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

function base(id: string): string {
  const s = id.replace(/[:/]/g, '__').replace(/[^a-zA-Z0-9_-]/g, '_');
  return s.length > 0 ? s : 'tool';
}

export class ToolNameMap {
  private readonly toId = new Map<string, string>();
  private readonly toName = new Map<string, string>();

  /** Returns the provider-safe name for `id`, stable for the life of the map and unique within it. */
  add(id: string): string {
    const known = this.toName.get(id);
    if (known) return known;
    let name = base(id);
    if (name.length > 64 || this.toId.has(name)) {
      const h = createHash('sha256').update(id).digest('hex').slice(0, 8);
      name = `${name.slice(0, 55)}_${h}`;
    }
    if (!VALID.test(name)) throw new Error(`cannot sanitize tool id ${id}`);
    this.toId.set(name, id);
    this.toName.set(id, name);
    return name;
  }

  id(name: string): string | undefined {
    return this.toId.get(name);
  }

  name(id: string): string | undefined {
    return this.toName.get(id);
  }
}
