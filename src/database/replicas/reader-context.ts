import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Who is reading and writing in the request in progress (issue 38): the key under which the client's last write is
 * recorded (ReadYourWrites), kept for the request's whole async life. Outside a request (jobs) there is none, and a
 * job's reads need no read-your-writes.
 */
const storage = new AsyncLocalStorage<{ reader: () => string | null }>();

export function currentReader(): string | null {
  return storage.getStore()?.reader() ?? null;
}

/** Runs `fn` as `reader` (tests and tools without an HTTP request). */
export function runAsReader<T>(reader: string, fn: () => T): T {
  return storage.run({ reader: () => reader }, fn);
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Express middleware: the request's reader, from its authentication (worked out lazily, once). `readerOf` answers
 * the credential key, or null for an unauthenticated request. An inner request (an MCP tool call's REST request)
 * keeps the outer one's reader. `afterWrite` (with replicas only): for a request that may write, runs before its
 * answer is sent (the end of the response waits for it), so a client's next request finds its writes recorded.
 */
export function readerContext(readerOf: (req: IncomingMessage) => string | null, afterWrite: ((reader: string) => Promise<void>) | null) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (storage.getStore()) return next();
    let key: string | null | undefined;
    const reader = () => (key === undefined ? (key = readerOf(req)) : key);
    if (afterWrite && !READS.has(req.method ?? 'GET')) holdEnd(res, async () => {
      const r = reader();
      if (r !== null) await afterWrite(r);
    });
    storage.run({ reader }, next);
  };
}

/** The response's `end` runs after `before` settles (its body and status are already decided). */
function holdEnd(res: ServerResponse, before: () => Promise<void>): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let held = false;
  res.end = ((...args: unknown[]) => {
    if (held) return end(...args);
    held = true;
    before().then(
      () => end(...args),
      () => end(...args),
    );
    return res;
  }) as ServerResponse['end'];
}

/** The key of a credential: the credential's name, and for a chat credential its chat (each bot is its own client). */
export function readerKey(auth: { ok: boolean; credential?: string; chatId?: string }): string | null {
  if (!auth.ok || !auth.credential) return null;
  return auth.chatId ? `${auth.credential}:${auth.chatId}` : auth.credential;
}
