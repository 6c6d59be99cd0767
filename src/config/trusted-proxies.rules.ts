/** Which proxies' X-Forwarded-For is believed (issue 26). Pure: read with the configuration, used by the rate limit. */
import { BlockList, isIP } from 'node:net';

/**
 * SERVICE_TRUSTED_PROXIES: comma-separated IP addresses and CIDR ranges (IPv4 or IPv6), or `loopback`. Returns a
 * predicate on a peer address, or throws with the entry that is not one.
 */
export function trustedProxies(entries: string[]): (addr: string) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const raw of entries) {
    const e = raw.trim();
    if (e === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [ip, bits, extra] = e.split('/');
    const family = isIP(ip);
    if (!family || extra !== undefined) throw new Error(e);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(ip, type);
    else {
      const n = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
      if (n < 0 || n > (family === 4 ? 32 : 128)) throw new Error(e);
      list.addSubnet(ip, n, type);
    }
  }
  return (addr: string) => {
    const a = addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4 ? addr.slice(7) : addr;
    const family = isIP(a);
    return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
  };
}
