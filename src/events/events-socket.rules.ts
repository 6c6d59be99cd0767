/**
 * Pure rules of the event WebSocket protocol (docs/contract/), no Nest, no `ws`.
 *
 * Client → server: `{"type":"auth","token":"..."}`, `{"type":"subscribe","kinds":[...]?,"location":"..."?}`,
 * `{"type":"ping"}`. Server → client: `authenticated`, `subscribed`, `event`, `pong`, `error` (`{type, code, content}`).
 */

export interface EventFilter {
  /** null: every kind. */
  kinds: string[] | null;
  /** null: every location (and events without one). */
  location: string | null;
}

export const ALL_EVENTS: EventFilter = { kinds: null, location: null };

export type ClientMessage =
  | { type: 'auth'; token: string }
  | { type: 'subscribe'; filter: EventFilter }
  | { type: 'ping' }
  | { type: 'invalid'; content: string };

export const MAX_FILTER_KINDS = 100;
const MAX_KIND_LENGTH = 200;
const MAX_LOCATION_LENGTH = 64;
const MAX_TOKEN_LENGTH = 4096;

function invalid(content: string): ClientMessage {
  return { type: 'invalid', content };
}

/** Parses one text frame. Never throws: anything unusable is `invalid` with a reason (no echo of the input). */
export function parseClientMessage(text: string): ClientMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return invalid('a message must be a JSON object');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return invalid('a message must be a JSON object');
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'auth': {
      if (typeof m.token !== 'string' || m.token.length === 0 || m.token.length > MAX_TOKEN_LENGTH) {
        return invalid('$.token must be a non-empty string');
      }
      return { type: 'auth', token: m.token };
    }
    case 'subscribe':
      return parseSubscribe(m);
    case 'ping':
      return { type: 'ping' };
    case undefined:
      return invalid('$.type is required: auth, subscribe or ping');
    default:
      return invalid('$.type must be auth, subscribe or ping');
  }
}

function parseSubscribe(m: Record<string, unknown>): ClientMessage {
  let kinds: string[] | null = null;
  if (m.kinds !== undefined && m.kinds !== null) {
    if (!Array.isArray(m.kinds)) return invalid('$.kinds must be an array of strings');
    if (m.kinds.length === 0) return invalid('$.kinds must list at least one kind (omit it for every kind)');
    if (m.kinds.length > MAX_FILTER_KINDS) return invalid(`$.kinds lists at most ${MAX_FILTER_KINDS} kinds`);
    for (let i = 0; i < m.kinds.length; i++) {
      const k = m.kinds[i] as unknown;
      if (typeof k !== 'string' || k.length === 0 || k.length > MAX_KIND_LENGTH) {
        return invalid(`$.kinds[${i}] must be a non-empty string`);
      }
    }
    kinds = [...new Set(m.kinds as string[])];
  }
  let location: string | null = null;
  if (m.location !== undefined && m.location !== null) {
    if (typeof m.location !== 'string' || m.location.length === 0 || m.location.length > MAX_LOCATION_LENGTH) {
      return invalid('$.location must be a non-empty string');
    }
    location = m.location;
  }
  return { type: 'subscribe', filter: { kinds, location } };
}

export function matchesFilter(event: { kind: string; location?: string | null }, f: EventFilter): boolean {
  if (f.kinds !== null && !f.kinds.includes(event.kind)) return false;
  if (f.location !== null && event.location !== f.location) return false;
  return true;
}

/**
 * True when the upgrade URL's query carries something that looks like a credential (`?token=`, `?access_token=`,
 * `?vending_auth=`, `?authorization=` ...). Such a connection is refused even with a valid header: a token in a URL
 * leaks into proxy and access logs, so it is never accepted and never silently ignored.
 */
export function credentialInUrl(url: string | undefined): boolean {
  if (!url) return false;
  const q = url.indexOf('?');
  if (q < 0) return false;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of params.keys()) {
    const k = key.toLowerCase();
    if (k.includes('token') || k.includes('auth') || k === 'key' || k === 'apikey' || k === 'api_key' || k === 'bearer') {
      return true;
    }
  }
  return false;
}

/** The cookie's origin rule is shared with the HTTP routes (src/common/auth/cookie-origin.rules.ts). */
export { cookieOriginAllowed } from '../common/auth/cookie-origin.rules';

/** The one log line of a client socket's protocol error (ws closes the socket itself): no stack, no frame content. */
export function socketErrorText(err: { code?: string; message: string }, maxPayloadBytes: number): string {
  if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return `event socket closed (1009): a client frame was larger than the ${maxPayloadBytes / 1024} KiB limit`;
  }
  return `event socket closed after a client protocol error (${err.code ?? 'no code'}): ${err.message}`;
}
