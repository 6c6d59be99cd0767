/**
 * Pure rules of the rate limit (decisions.md, issue 26): which bucket a request counts against, what it costs, and
 * which proxies' X-Forwarded-For is believed. No Nest, no Express.
 */
import { BlockList, isIP } from 'node:net';

/** Never limited: a container health check that gets 429 restarts a healthy service. */
export const UNLIMITED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The most JSON-RPC messages one MCP request may carry; each counts one unit of the limit. */
export const MCP_MAX_BATCH = 20;

export type Bucket = { key: string; limit: 'requests' | 'sign_in' };

/**
 * The bucket a request counts against: sign-in attempts per client address in a bucket of their own; an
 * authenticated request per credential (a chat credential per chat); everything else, failed authentication included,
 * per client address.
 */
export function bucketOf(r: { signIn: boolean; address: string; credential: string | null; chatId?: string | null }): Bucket {
  if (r.signIn) return { key: `sign_in:${r.address}`, limit: 'sign_in' };
  if (r.credential !== null) return { key: r.credential === 'chat' ? `credential:chat:${r.chatId ?? ''}` : `credential:${r.credential}`, limit: 'requests' };
  return { key: `address:${r.address}`, limit: 'requests' };
}

/** Units a request costs: one, or one per message of a JSON-RPC batch (an array body on the MCP endpoint). */
export function costOf(body: unknown, isMcp: boolean): number {
  return isMcp && Array.isArray(body) ? Math.max(1, body.length) : 1;
}

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

/**
 * The client address behind trusted proxies (what Express's `req.ip` computes with the same predicate, for the event
 * socket's upgrade request): from the peer, each hop of X-Forwarded-For is believed only while the hop that reported
 * it is a trusted proxy.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: (addr: string) => boolean): string {
  let addr = peer;
  const hops = (forwardedFor ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  while (trusted(addr) && hops.length) addr = hops.pop()!;
  return addr;
}
