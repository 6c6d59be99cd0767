/**
 * Pure rules of the rate limit (docs/adr/0043-rate-limit.md): which bucket a request counts against, what it costs, and
 * the client address behind trusted proxies (which proxies are trusted: config/trusted-proxies.rules.ts). No Nest, no Express.
 */

/** Never limited: a container health check that gets 429 restarts a healthy service. */
export const UNLIMITED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The most JSON-RPC messages one MCP request may carry; each counts one unit of the limit. */
export const MCP_MAX_BATCH = 20;

export type Bucket = { key: string; limit: 'requests' | 'sign_in' };

/**
 * The bucket a request counts against: sign-in attempts per client address in a bucket of their own; an
 * authenticated request per credential (a chat credential per chat, an agent's OAuth token per client: issue 36); everything else, failed authentication included,
 * per client address.
 */
export function bucketOf(r: { signIn: boolean; address: string; credential: string | null; chatId?: string | null; clientId?: string | null }): Bucket {
  if (r.signIn) return { key: `sign_in:${r.address}`, limit: 'sign_in' };
  if (r.credential === 'agent') return { key: `credential:agent:${r.clientId ?? ''}`, limit: 'requests' };
  if (r.credential !== null) return { key: r.credential === 'chat' ? `credential:chat:${r.chatId ?? ''}` : `credential:${r.credential}`, limit: 'requests' };
  return { key: `address:${r.address}`, limit: 'requests' };
}

/** Units a request costs: one, or one per message of a JSON-RPC batch (an array body on the MCP endpoint). */
export function costOf(body: unknown, isMcp: boolean): number {
  return isMcp && Array.isArray(body) ? Math.max(1, body.length) : 1;
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
