// The SSRF floor for nika:fetch: after DNS resolution, loopback, private, link-local (which
// holds cloud metadata at 169.254.169.254), CGNAT, multicast and IPv6 ULA/loopback addresses are
// refused unless the exact host is granted in permits.net.http.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export function isPrivateAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return privateV4(ip);
  if (v === 6) {
    const g = expandV6(ip);
    if (!g) return true;
    const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
    const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
    // IPv4 inside IPv6 reaches the IPv4 address: mapped ::ffff:a.b.c.d (the URL parser writes it
    // as ::ffff:7f00:1, which an earlier check missed), compatible ::a.b.c.d, NAT64 64:ff9b::/96,
    // and 6to4 2002:aabb:ccdd::.
    if (zeros(0, 5) && g[5] === 0xffff) return privateV4(v4(g[6]!, g[7]!));
    if (zeros(0, 6)) return g[6] === 0 && g[7]! <= 1 ? true : privateV4(v4(g[6]!, g[7]!));
    if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return privateV4(v4(g[6]!, g[7]!));
    if (g[0] === 0x2002) return privateV4(v4(g[1]!, g[2]!));
    const first = g[0]!;
    if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
    if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
    if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 old site-local
    if ((first & 0xff00) === 0xff00) return true; // multicast
    return false;
  }
  return true;
}

/** The eight 16-bit groups of an IPv6 address (zone dropped, embedded dotted quad converted). */
function expandV6(ip: string): number[] | undefined {
  let a = ip.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (quad) {
    const [w, x, y, z] = quad.slice(1).map(Number) as [number, number, number, number];
    a = a.slice(0, quad.index) + `${((w << 8) | x).toString(16)}:${((y << 8) | z).toString(16)}`;
  }
  const [head, tail] = a.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = a.includes('::') ? 8 - h.length - t.length : 0;
  const groups = [...h, ...Array(Math.max(0, fill)).fill('0'), ...t].map((x) => parseInt(x, 16));
  return groups.length === 8 && groups.every((x) => x >= 0 && x <= 0xffff) ? groups : undefined;
}

function privateV4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 198 && (b === 18 || b === 19)) || a >= 224;
}

/** Addresses the host resolves to (the host itself when it is an IP literal). */
export async function resolveHost(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return [bare];
  const all = await lookup(bare, { all: true, verbatim: true });
  return all.map((a) => a.address);
}
