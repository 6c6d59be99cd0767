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

/**
 * Express middleware: the request's reader, from its authentication (worked out lazily, once). `readerOf` answers
 * the credential key, or null for an unauthenticated request. An inner request (an MCP tool call's REST request)
 * keeps the outer one's reader.
 */
export function readerContext(readerOf: (req: IncomingMessage) => string | null) {
  return (req: IncomingMessage, _res: ServerResponse, next: () => void): void => {
    if (storage.getStore()) return next();
    let key: string | null | undefined;
    storage.run({ reader: () => (key === undefined ? (key = readerOf(req)) : key) }, next);
  };
}

/** The key of a credential: the credential's name, and for a chat credential its chat (each bot is its own client). */
export function readerKey(auth: { ok: boolean; credential?: string; chatId?: string }): string | null {
  if (!auth.ok || !auth.credential) return null;
  return auth.chatId ? `${auth.credential}:${auth.chatId}` : auth.credential;
}
