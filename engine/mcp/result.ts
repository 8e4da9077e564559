// What an MCP tool result or resource becomes as a Nika value: structured content when the
// server gives it, else the text (parsed when it is JSON, so `.output.field` works), else the raw
// content blocks (images, embedded resources).

interface Block { type: string; text?: string; [k: string]: unknown }

function parseMaybe(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return text;
  try {
    return JSON.parse(t);
  } catch {
    return text;
  }
}

export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return (content as Block[]).filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('\n');
}

export function toolValue(res: { structuredContent?: unknown; content?: unknown; toolResult?: unknown }): unknown {
  if (res.structuredContent !== undefined && res.structuredContent !== null) return res.structuredContent;
  // Servers on the 2024-10-07 protocol answer with `toolResult`.
  if (res.content === undefined && res.toolResult !== undefined) return res.toolResult;
  const blocks = Array.isArray(res.content) ? (res.content as Block[]) : [];
  if (blocks.length === 0) return null;
  if (blocks.some((b) => b?.type === 'text')) return parseMaybe(contentText(blocks));
  return blocks;
}

export function resourceValue(res: { contents?: unknown }): unknown {
  const contents = Array.isArray(res.contents) ? (res.contents as Array<{ text?: unknown; blob?: unknown; mimeType?: string }>) : [];
  if (contents.length > 0 && contents.every((c) => typeof c.text === 'string')) {
    const text = contents.map((c) => c.text as string).join('\n');
    return contents.every((c) => c.mimeType === 'application/json') ? parseMaybe(text) : text;
  }
  return contents;
}
