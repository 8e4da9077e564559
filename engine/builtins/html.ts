// A small HTML reader for nika:fetch: enough to turn ordinary pages into markdown or text and to
// pull out links and metadata. Not a browser; malformed markup degrades to text.
const DROP = /<(script|style|noscript|template|svg|iframe|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', copy: '©', reg: '®', laquo: '«', raquo: '»', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : all;
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

export function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '') : undefined;
}

function inner(html: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)<\\/${tag}\\s*>`, 'i').exec(html);
  return m?.[1];
}

export function htmlToText(html: string): string {
  const body = (inner(html, 'body') ?? html).replace(DROP, '').replace(/<!--[\s\S]*?-->/g, '');
  return decodeEntities(
    body
      .replace(/<(br|hr)\b[^>]*>/gi, '\n')
      .replace(/<\/(p|div|section|article|li|h[1-6]|tr|blockquote|pre|ul|ol|table|header|footer)\s*>/gi, '\n')
      .replace(/<[^>]+>/g, ''),
  )
    .split('\n').map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim()).join('\n')
    .replace(/\n{3,}/g, '\n\n').trim();
}

export function htmlToMarkdown(html: string, base?: string, scope?: 'article'): string {
  let src = html.replace(/<!--[\s\S]*?-->/g, '');
  if (scope === 'article') src = inner(src, 'article') ?? inner(src, 'main') ?? inner(src, 'body') ?? src;
  else src = inner(src, 'body') ?? src;
  src = src.replace(DROP, '');
  const pre: string[] = [];
  src = src.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, code: string) => {
    pre.push('```\n' + decodeEntities(code.replace(/<[^>]+>/g, '')).replace(/\n+$/, '') + '\n```');
    return `\n\n\u0000${pre.length - 1}\u0000\n\n`;
  });
  const abs = (u: string) => { try { return base ? new URL(u, base).href : u; } catch { return u; } };
  let md = src
    .replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_, n: string, t: string) => `\n\n${'#'.repeat(+n)} ${flat(t)}\n\n`)
    .replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_, a: string, t: string) => {
      const href = attr(`<a ${a}>`, 'href');
      const text = flat(t);
      return href && !href.startsWith('javascript:') ? `[${text || href}](${abs(href)})` : text;
    })
    .replace(/<img\b[^>]*>/gi, (tag) => { const s = attr(tag, 'src'); return s ? `![${attr(tag, 'alt') ?? ''}](${abs(s)})` : ''; })
    .replace(/<(strong|b)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, (_, __, t: string) => `**${t.trim()}**`)
    .replace(/<(em|i)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, (_, __, t: string) => `*${t.trim()}*`)
    .replace(/<code\b[^>]*>([\s\S]*?)<\/code\s*>/gi, (_, t: string) => `\`${t}\``)
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<blockquote\b[^>]*>([\s\S]*?)<\/blockquote\s*>/gi, (_, t: string) => '\n\n' + htmlToText(t).split('\n').map((l) => `> ${l}`).join('\n') + '\n\n')
    .replace(/<hr\b[^>]*>/gi, '\n\n---\n\n')
    .replace(/<br\b[^>]*>/gi, '  \n')
    .replace(/<\/(p|div|section|article|ul|ol|table|header|footer|main|tr)\s*>/gi, '\n\n')
    .replace(/<[^>]+>/g, '');
  md = decodeEntities(md)
    .split('\n').map((l) => l.replace(/[ \t\u00a0]+/g, ' ').replace(/^ (?=\S)/, '')).join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => pre[+i]);
  return md.trim();
}

function flat(s: string): string {
  return decodeEntities(s.replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim();
}

export function extractLinks(html: string, base: string): Array<{ text: string; url: string }> {
  const seen = new Set<string>();
  const out: Array<{ text: string; url: string }> = [];
  for (const m of html.replace(DROP, '').matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi)) {
    const href = attr(`<a ${m[1]}>`, 'href');
    if (!href || href.startsWith('#') || /^(javascript|mailto|tel):/i.test(href)) continue;
    let url: string;
    try { url = new URL(href, base).href; } catch { continue; }
    if (seen.has(url)) continue;
    seen.add(url);
    out.push({ text: flat(m[2]), url });
  }
  return out;
}

export function extractMetadata(html: string, base: string): Record<string, unknown> {
  const head = inner(html, 'head') ?? html;
  const meta: Record<string, string> = {};
  const og: Record<string, string> = {};
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const key = attr(m[0], 'property') ?? attr(m[0], 'name');
    const content = attr(m[0], 'content');
    if (!key || content === undefined) continue;
    if (key.startsWith('og:')) og[key.slice(3)] = content;
    else meta[key.toLowerCase()] = content;
  }
  const canonical = [...head.matchAll(/<link\b[^>]*>/gi)].map((m) => m[0]).find((t) => /rel\s*=\s*["']?canonical/i.test(t));
  const htmlTag = /<html\b[^>]*>/i.exec(html)?.[0];
  const title = inner(head, 'title');
  return {
    title: title !== undefined ? flat(title) : og.title ?? null,
    description: meta.description ?? og.description ?? null,
    canonical: canonical ? new URL(attr(canonical, 'href') ?? '', base).href : null,
    lang: htmlTag ? attr(htmlTag, 'lang') ?? null : null,
    author: meta.author ?? null,
    keywords: meta.keywords ? meta.keywords.split(',').map((k) => k.trim()).filter(Boolean) : [],
    og,
  };
}

export function extractFeed(xml: string): Array<Record<string, string | null>> {
  const text = (block: string, tag: string) => {
    const m = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)<\\/${tag}\\s*>`, 'i').exec(block);
    if (!m) return null;
    return decodeEntities(m[1].replace(/^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/, '$1')).trim();
  };
  const items = [...xml.matchAll(/<(item|entry)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi)];
  return items.map((m) => {
    const b = m[2];
    const atomLink = /<link\b[^>]*href\s*=\s*["']([^"']+)["'][^>]*>/i.exec(b)?.[1];
    return {
      title: text(b, 'title'),
      link: text(b, 'link') || (atomLink ? decodeEntities(atomLink) : null),
      published: text(b, 'pubDate') ?? text(b, 'published') ?? text(b, 'updated'),
      summary: text(b, 'description') ?? text(b, 'summary'),
    };
  });
}

export function extractSitemap(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([\s\S]*?)\s*<\/loc>/gi)].map((m) => decodeEntities(m[1]));
}
