// Hosts for `permits.net.http` and the SSRF floor (reference §1.6): exact names only, bare `*`
// the one wildcard; loopback, private, link-local (cloud metadata) and similar targets are off
// limits, and only an exact loopback grant (`localhost`, `127.x`, `::1`) declassifies one host.

/** The host of an http(s) URL, lower-cased, brackets and trailing dot removed; undefined when not a URL. */
export function hostOfUrl(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  return normalizeHost(u.hostname);
}

export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

export type FloorClass = 'loopback' | 'private' | 'link-local' | 'metadata';

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Why a host sits on the SSRF floor, judged on its literal text (names are resolved at run time). */
export function floorClass(rawHost: string): FloorClass | undefined {
  const host = normalizeHost(rawHost);
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain' || host === 'ip6-localhost') return 'loopback';
  if (METADATA_NAMES.has(host)) return 'metadata';
  if (isIPv4(host)) return v4Class(host);
  if (host.includes(':') && /^[0-9a-f:.]+$/.test(host)) {
    const embedded = embeddedV4(host);
    if (embedded) return v4Class(embedded);
    if (host === '::1') return 'loopback';
    if (host === '::') return 'private';
    if (host === 'fd00:ec2::254') return 'metadata';
    const first = parseInt(host.split(':')[0] || '0', 16);
    if ((first & 0xffc0) === 0xfe80) return 'link-local';
    if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfec0 || (first & 0xff00) === 0xff00) return 'private';
  }
  return undefined;
}

function v4Class(ip: string): FloorClass | undefined {
  const [a, b] = ip.split('.').map(Number);
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return ip === '169.254.169.254' || ip === '169.254.170.2' ? 'metadata' : 'link-local';
  if (a === 0 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) ||
    (a === 198 && (b === 18 || b === 19)) || a >= 224) return 'private';
  return undefined;
}

/** An exact loopback grant, the one kind of floor host a permit may declassify. */
export function isLoopbackGrant(host: string): boolean {
  return floorClass(host) === 'loopback' && !normalizeHost(host).includes('*');
}

/** `*.x.com`, `api.*`, `a*b`: anything with `*` except the bare `*` (NIKA-AUTH-010). */
export function isWildcardHost(entry: string): boolean {
  return entry.trim() !== '*' && entry.includes('*');
}

/** Whether a literal host passes `permits.net.http` (bare `*` or an exact, case-insensitive entry). */
export function hostGranted(http: readonly string[] | undefined, host: string): boolean {
  const h = normalizeHost(host);
  return (http ?? []).some((e) => e.trim() === '*' || normalizeHost(e) === h);
}

/** Whether a floor host is declassified by an exact loopback grant for that very host. */
export function floorLifted(http: readonly string[] | undefined, host: string): boolean {
  const h = normalizeHost(host);
  return floorClass(h) === 'loopback' && (http ?? []).some((e) => normalizeHost(e) === h);
}

function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/**
 * The IPv4 address inside an IPv6 spelling (mapped `::ffff:a.b.c.d` or `::ffff:7f00:1` as the URL
 * parser writes it, compatible `::a.b.c.d`, NAT64 `64:ff9b::…`, 6to4 `2002:AABB:CCDD::…`).
 */
function embeddedV4(host: string): string | undefined {
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  const six = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(:|$)/.exec(host);
  const m = hex ?? six;
  if (!m) return undefined;
  const a = parseInt(m[1], 16);
  const b = parseInt(m[2], 16);
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}
