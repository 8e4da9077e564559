// The SSRF floor for nika:fetch: after DNS resolution, loopback, private, link-local (which
// holds cloud metadata at 169.254.169.254), CGNAT, multicast and IPv6 ULA/loopback addresses are
// refused unless the exact host is granted in permits.net.http.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export function isPrivateAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return privateV4(ip);
  if (v === 6) {
    const a = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
    if (mapped) return privateV4(mapped[1]);
    if (a === '::1' || a === '::') return true;
    const first = parseInt(a.split(':')[0] || '0', 16);
    if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
    if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
    if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 old site-local
    if ((first & 0xff00) === 0xff00) return true; // multicast
    return false;
  }
  return true;
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
