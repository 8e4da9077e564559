// nika:fetch. Redirects are followed by hand so every hop passes the permits and the SSRF floor.
import { NikaError } from '../contracts.js';
import { jqAll, JqError } from '../jq.js';
import { argError, builtinError } from './errors.js';
import { extractFeed, extractLinks, extractMetadata, extractSitemap, htmlToMarkdown, htmlToText } from './html.js';
import { isPrivateAddress, resolveHost } from './ssrf.js';
import type { Builtin, BuiltinContext } from './types.js';

const MAX_REDIRECTS = 5;
const CODE_BEARING = /\.(pkl|pickle|pt|pth|joblib|exe|dll|so|dylib|msi|sh|bash|zsh|ps1|bat|cmd|jar|whl|apk|deb|rpm)$/i;

export const fetchBuiltin: Builtin = async (args, ctx) => {
  const mode = String(args.mode ?? 'markdown');
  if (args.jq !== undefined && mode !== 'jq') throw argError('fetch', 'jq is only valid with mode: jq');
  if (mode === 'jq' && typeof args.jq !== 'string') throw argError('fetch', 'mode: jq needs a jq: program');
  if (mode === 'selector') throw builtinError('fetch', 2, 'mode selector is not supported by this engine yet (use mode: markdown or jq)');
  if (args.traverse !== undefined) throw builtinError('fetch', 2, 'traverse is not supported by this engine yet');
  const method = String(args.method ?? 'GET').toUpperCase();
  if ((args.form || args.multipart) && !['POST', 'PUT', 'PATCH'].includes(method)) throw argError('fetch', 'form and multipart need POST, PUT or PATCH');

  const headers = new Headers();
  for (const [k, v] of Object.entries((args.headers as Record<string, unknown>) ?? {})) headers.set(k, String(v));
  let body: string | URLSearchParams | FormData | undefined;
  if (args.body !== undefined && args.body !== null) {
    if (typeof args.body === 'string') body = args.body;
    else { body = JSON.stringify(args.body); if (!headers.has('content-type')) headers.set('content-type', 'application/json'); }
  } else if (args.form) {
    body = new URLSearchParams(Object.entries(args.form as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]));
  } else if (args.multipart) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(args.multipart as Record<string, unknown>)) fd.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    body = fd;
  }

  let url = parseUrl(String(args.url));
  let res: Response;
  let m = method;
  for (let hop = 0; ; hop++) {
    await guard(url, ctx);
    try {
      res = await fetch(url, { method: m, headers, body: m === 'GET' || m === 'HEAD' ? undefined : body, redirect: 'manual', signal: ctx.signal });
    } catch (e) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw builtinError('fetch', 1, `request to ${url.host} failed: ${cause?.code ?? cause?.message ?? (e as Error).message}`, { transient: true });
    }
    const loc = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && loc) {
      if (hop >= MAX_REDIRECTS) throw builtinError('fetch', 1, `too many redirects from ${args.url}`);
      url = parseUrl(new URL(loc, url).href);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && m === 'POST')) m = 'GET';
      await res.body?.cancel();
      continue;
    }
    break;
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    throw builtinError('fetch', 1, `${m} ${url.href} answered ${res.status} ${res.statusText}${text ? `: ${text}` : ''}`, {
      transient: res.status >= 500 || res.status === 429 || res.status === 408,
      details: { status: res.status },
    });
  }
  if (m === 'HEAD') return { status: res.status, headers: Object.fromEntries(res.headers) };
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const isHtml = /html/i.test(type) || /^\s*<(!doctype html|html)/i.test(text);
  switch (mode) {
    case 'raw': return text;
    case 'text': return isHtml ? htmlToText(text) : text;
    case 'markdown': return isHtml ? htmlToMarkdown(text, url.href) : text;
    case 'article': return isHtml ? htmlToMarkdown(text, url.href, 'article') : text;
    case 'links': return extractLinks(text, url.href);
    case 'metadata': return { url: url.href, status: res.status, content_type: type, ...extractMetadata(text, url.href) };
    case 'feed': return extractFeed(text);
    case 'sitemap': return extractSitemap(text);
    case 'jq': {
      let data: unknown;
      try { data = JSON.parse(text); } catch { throw builtinError('fetch', 3, `mode jq: ${url.href} did not return JSON`); }
      try {
        const all = await jqAll(data, String(args.jq));
        return all.length === 1 ? all[0] : all;
      } catch (e) {
        if (e instanceof JqError && e.kind !== 'runtime') throw new NikaError('NIKA-VAR-005', `nika:fetch jq: ${e.message}`);
        throw builtinError('fetch', 3, `jq: ${(e as Error).message}`);
      }
    }
    default:
      throw argError('fetch', `unknown mode '${mode}'`);
  }
};

function parseUrl(s: string): URL {
  let u: URL;
  try { u = new URL(s); } catch { throw argError('fetch', `'${s}' is not a URL`); }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw argError('fetch', `only http and https URLs can be fetched (got ${u.protocol})`);
  return u;
}

async function guard(url: URL, ctx: BuiltinContext): Promise<void> {
  if (CODE_BEARING.test(url.pathname)) {
    throw new NikaError('NIKA-SEC-008', `nika:fetch refuses ${url.href}: a code-bearing artifact (it would need lift: data-as-code)`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  ctx.boundary.host(host);
  if (ctx.boundary.hostGranted(host)) return;
  let addrs: string[];
  try { addrs = await resolveHost(host); } catch (e) {
    throw builtinError('fetch', 1, `cannot resolve ${host}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { transient: true });
  }
  const bad = addrs.find(isPrivateAddress);
  if (bad) {
    throw new NikaError('NIKA-SEC-005', `nika:fetch refuses ${host} (${bad}): loopback, private, link-local and metadata addresses are off limits unless the exact host is in permits.net.http`);
  }
}
