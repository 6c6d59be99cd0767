import { Inject, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import { credentialOfToken } from '../../common/auth/credential';
import type { Credential } from '../../common/auth/credential';
import { SessionStore } from '../../common/auth/session-store';
import { bearerFrom, cookieFrom } from '../../common/auth/token';
import { bucketOf, clientAddress } from '../../common/rate-limit/rate-limit.rules';
import { trustedProxies } from '../../config/trusted-proxies.rules';
import { RateLimited, RateLimiter } from '../../common/rate-limit/rate-limiter.service';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { EventBus } from '../event-bus';
import { EventView, renderEvent } from './event.view';
import { ALL_EVENTS, cookieOriginAllowed, credentialInUrl, EventFilter, matchesFilter, parseClientMessage, socketErrorText } from '../events-socket.rules';

export const EVENTS_WS_PATH = '/ucp/v1/events/ws';
/** Close codes: 4401 unauthorized, 4403 cookie from a foreign origin, 4503 no operator token configured, 4408 too slow, 4429 rate limited. */
export const WS_CLOSE_UNAUTHORIZED = 4401;
export const WS_CLOSE_FORBIDDEN_ORIGIN = 4403;
export const WS_CLOSE_AUTH_NOT_CONFIGURED = 4503;
export const WS_CLOSE_SLOW_CONSUMER = 4408;
/** 4429: this client address made too many failed authentications (the HTTP 429 of the rate limit, issue 26). */
export const WS_CLOSE_RATE_LIMITED = 4429;
/** A client without a header or cookie token must authenticate with its first message within this time. */
export const WS_AUTH_TIMEOUT_MS = 5_000;
const KEEPALIVE_MS = 30_000;
/** The largest client frame accepted; a larger one closes the socket with 1009. */
export const WS_MAX_PAYLOAD_BYTES = 64 * 1024;
/** A client that leaves this much unread is disconnected rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Sockets still waiting for their auth message, at once, per client address and instance (issue 37); past it 4429. */
export const WS_MAX_UNAUTHENTICATED_PER_ADDRESS = 10;
/** How often the console sessions of cookie sockets are read again (a sign-out on another instance, an expiry). */
export const WS_SESSION_RECHECK_MS = 2_000;

interface Session {
  authenticated: boolean;
  /** Set on authentication (every event) and replaced by each `subscribe`. */
  filter: EventFilter | null;
  alive: boolean;
  authTimer: NodeJS.Timeout | null;
  /** The client address (behind trusted proxies only): failed authentications count against it. */
  address: string;
  /** The console session a cookie socket was opened with (its key): the socket closes when it ends (issue 37). */
  consoleSession: string | null;
}

/**
 * The event WebSocket (docs/contract/). Auth: the `Authorization: Bearer` header or the auth cookie on the
 * upgrade request (the cookie only from an allowed page origin), or a first message `{"type":"auth","token":"..."}`;
 * never a token in the URL. Once authenticated
 * the client receives every event stored afterwards (from every instance, through the EventBus, in `seq` order);
 * `subscribe` replaces the filter by kinds and/or location.
 */
@WebSocketGateway({ path: EVENTS_WS_PATH, maxPayload: WS_MAX_PAYLOAD_BYTES })
export class EventsGateway implements OnGatewayConnection, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(EventsGateway.name);
  private readonly sessions = new Map<WebSocket, Session>();
  private unsubscribe: (() => void) | null = null;
  private keepalive: NodeJS.Timeout | null = null;
  private recheck: NodeJS.Timeout | null = null;
  private stopRevoked: (() => void) | null = null;

  private readonly trusted: (addr: string) => boolean;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly bus: EventBus,
    private readonly limiter: RateLimiter,
    private readonly consoleSessions: SessionStore,
  ) {
    this.trusted = trustedProxies(config.trustedProxies);
  }

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe((e) => this.broadcast(renderEvent(e)));
    this.keepalive = setInterval(() => this.sweep(), KEEPALIVE_MS);
    this.keepalive.unref();
    // A sign-out here closes its sockets at once; one on another instance, or an expiry, at the next read of the table.
    this.stopRevoked = this.consoleSessions.onRevoked((key) => this.endSession((k) => k === key, 'the console session was signed out'));
    this.recheck = setInterval(() => void this.recheckSessions(), WS_SESSION_RECHECK_MS);
    this.recheck.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.stopRevoked?.();
    if (this.keepalive) clearInterval(this.keepalive);
    if (this.recheck) clearInterval(this.recheck);
    for (const [ws, s] of this.sessions) {
      if (s.authTimer) clearTimeout(s.authTimer);
      ws.terminate();
    }
    this.sessions.clear();
  }

  handleConnection(ws: WebSocket, req: IncomingMessage): void {
    const xff = req.headers['x-forwarded-for'];
    const address = clientAddress(req.socket.remoteAddress ?? 'unknown', Array.isArray(xff) ? xff.join(',') : xff, this.trusted);
    const s: Session = { authenticated: false, filter: null, alive: true, authTimer: null, address, consoleSession: null };
    this.sessions.set(ws, s);
    // The WsAdapter logs each socket error at error level with its stack; a client's oversized or broken frame is the
    // client's mistake, not the service's: replace that listener with one warn line (ws closes the socket itself).
    ws.removeAllListeners('error');
    ws.on('error', (err: Error & { code?: string }) => {
      this.logger.warn(socketErrorText(err, WS_MAX_PAYLOAD_BYTES));
      this.drop(ws);
    });
    ws.on('close', () => this.drop(ws));
    ws.on('pong', () => (s.alive = true));
    ws.on('message', (data: RawData, isBinary: boolean) => this.onMessage(ws, s, data, isBinary));

    const expected = this.config.authToken;
    if (!expected) {
      return this.refuse(ws, WS_CLOSE_AUTH_NOT_CONFIGURED, 'auth_not_configured', 'the deployment has no operator token configured');
    }
    if (credentialInUrl(req.url)) {
      return this.refuse(ws, WS_CLOSE_UNAUTHORIZED, 'unauthorized', 'a token in the URL is never accepted: use the Authorization header, the auth cookie or an auth message');
    }
    const bearer = bearerFrom(req.headers['authorization']);
    const cookie = bearer === null ? cookieFrom(req.headers['cookie'], `${this.config.serviceName}_auth`) : null;
    if (cookie !== null && !cookieOriginAllowed(req.headers['origin'], req.headers['host'], this.config, this.schemeOf(req))) {
      return this.refuse(ws, WS_CLOSE_FORBIDDEN_ORIGIN, 'forbidden', 'the auth cookie is not accepted from this page origin');
    }
    if (bearer !== null) return void this.tryAuthenticate(ws, s, credentialOfToken(bearer, this.config));
    if (cookie !== null) {
      // The cookie names a console session (issue 26): one read of the session table.
      this.consoleSessions.find(cookie).then(
        (found) => {
          s.consoleSession = found?.key ?? null;
          return this.tryAuthenticate(ws, s, found?.credential ?? null);
        },
        (e: Error) => this.refuse(ws, WS_CLOSE_UNAUTHORIZED, 'unauthorized', `the session could not be read (${e.name})`),
      );
      return;
    }
    // No credential on the upgrade: an attempt like a request without one (issue 37), and only a few may wait at once.
    if (this.waitingFrom(address) > WS_MAX_UNAUTHENTICATED_PER_ADDRESS) {
      return this.refuse(ws, WS_CLOSE_RATE_LIMITED, 'rate_limited', `at most ${WS_MAX_UNAUTHENTICATED_PER_ADDRESS} sockets of one address may wait for authentication`);
    }
    this.limiter.hit(this.addressBucket(s)).catch((e: Error) => {
      if (e instanceof RateLimited) this.refuse(ws, WS_CLOSE_RATE_LIMITED, 'rate_limited', e.message);
    });
    s.authTimer = setTimeout(() => {
      this.refuse(ws, WS_CLOSE_UNAUTHORIZED, 'unauthorized', `no operator token within ${WS_AUTH_TIMEOUT_MS / 1000} s`);
    }, WS_AUTH_TIMEOUT_MS);
    s.authTimer.unref();
  }

  private onMessage(ws: WebSocket, s: Session, data: RawData, isBinary: boolean): void {
    if (!this.sessions.has(ws)) return;
    const msg = isBinary ? ({ type: 'invalid', content: 'messages are JSON text frames' } as const) : parseClientMessage(rawText(data));
    if (!s.authenticated) {
      if (msg.type === 'auth' && this.config.authToken) return void this.tryAuthenticate(ws, s, credentialOfToken(msg.token, this.config));
      return this.failedAuthentication(ws, s, 'the first message must be {"type":"auth","token":"..."}');
    }
    switch (msg.type) {
      case 'auth':
        if (credentialOfToken(msg.token, this.config) === null) return this.failedAuthentication(ws, s, 'wrong operator token');
        return this.send(ws, { type: 'authenticated' });
      case 'subscribe':
        s.filter = msg.filter;
        return this.send(ws, { type: 'subscribed', kinds: msg.filter.kinds, location: msg.filter.location });
      case 'ping':
        return this.send(ws, { type: 'pong' });
      case 'invalid':
        return this.send(ws, { type: 'error', code: 'invalid', content: msg.content });
    }
  }

  /** The upgrade's scheme: X-Forwarded-Proto from a trusted proxy only, else the socket's. */
  private schemeOf(req: IncomingMessage): 'http' | 'https' {
    const proto = req.headers['x-forwarded-proto'];
    const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0].trim().toLowerCase();
    if (this.trusted(req.socket.remoteAddress ?? '') && (first === 'https' || first === 'http')) return first;
    return (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  }

  /**
   * A token presented on the socket (header, cookie or auth message): a right one counts against its credential like a
   * request and is refused while the client address is over the rate limit (the shared count, issue 37); a wrong one
   * counts against the address like a failed HTTP request.
   */
  private async tryAuthenticate(ws: WebSocket, s: Session, credential: Credential | null): Promise<void> {
    if (credential === null) return this.failedAuthentication(ws, s, 'wrong operator token');
    try {
      await this.limiter.hit(bucketOf({ signIn: false, address: s.address, credential }), 1, this.addressBucket(s));
    } catch (e) {
      if (e instanceof RateLimited) return this.refuse(ws, WS_CLOSE_RATE_LIMITED, 'rate_limited', e.message);
      throw e;
    }
    if (this.sessions.has(ws)) this.authenticate(ws, s);
  }

  private addressBucket(s: Session) {
    return bucketOf({ signIn: false, address: s.address, credential: null });
  }

  /** Sockets of this address still waiting for their auth message, the new one included. */
  private waitingFrom(address: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (!s.authenticated && s.consoleSession === null && s.address === address) n++;
    return n;
  }

  /** Closes every socket whose console session the predicate names (signed out or expired). */
  private endSession(ended: (key: string) => boolean, why: string): void {
    for (const [ws, s] of this.sessions) if (s.consoleSession !== null && ended(s.consoleSession)) this.refuse(ws, WS_CLOSE_UNAUTHORIZED, 'unauthorized', why);
  }

  /** Reads the cookie sockets' sessions in the shared table: one signed out on any instance, or expired, ends its sockets. */
  private async recheckSessions(): Promise<void> {
    const keys = [...new Set([...this.sessions.values()].flatMap((s) => (s.consoleSession ? [s.consoleSession] : [])))];
    if (!keys.length) return;
    try {
      const live = await this.consoleSessions.live(keys);
      this.endSession((k) => keys.includes(k) && !live.has(k), 'the console session was signed out or expired');
    } catch (e) {
      this.logger.warn(`console sessions of event sockets not read: ${(e as Error).message}`);
    }
  }

  private failedAuthentication(ws: WebSocket, s: Session, why: string): void {
    this.limiter.hit(this.addressBucket(s)).then(
      () => this.refuse(ws, WS_CLOSE_UNAUTHORIZED, 'unauthorized', why),
      (e: Error) => (e instanceof RateLimited ? this.refuse(ws, WS_CLOSE_RATE_LIMITED, 'rate_limited', e.message) : this.refuse(ws, WS_CLOSE_UNAUTHORIZED, 'unauthorized', why)),
    );
  }

  private authenticate(ws: WebSocket, s: Session): void {
    if (s.authTimer) clearTimeout(s.authTimer);
    s.authTimer = null;
    s.authenticated = true;
    s.filter = ALL_EVENTS;
    this.send(ws, { type: 'authenticated' });
  }

  private broadcast(event: EventView): void {
    let frame: string | null = null;
    for (const [ws, s] of this.sessions) {
      if (!s.authenticated || !s.filter || !matchesFilter(event, s.filter)) continue;
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        this.logger.warn('event socket closed: the client does not read its events');
        this.drop(ws);
        ws.close(WS_CLOSE_SLOW_CONSUMER, 'too slow');
        continue;
      }
      frame ??= JSON.stringify({ type: 'event', event });
      ws.send(frame);
    }
  }

  private refuse(ws: WebSocket, closeCode: number, code: string, content: string): void {
    const s = this.sessions.get(ws);
    if (s?.authTimer) clearTimeout(s.authTimer);
    this.sessions.delete(ws);
    this.send(ws, { type: 'error', code, content });
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(closeCode, code);
  }

  private send(ws: WebSocket, body: Record<string, unknown>): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(body));
  }

  private drop(ws: WebSocket): void {
    const s = this.sessions.get(ws);
    if (s?.authTimer) clearTimeout(s.authTimer);
    this.sessions.delete(ws);
  }

  /** Keepalive: a client that did not answer the previous ping is gone; terminate it. */
  private sweep(): void {
    for (const [ws, s] of this.sessions) {
      if (!s.alive) {
        this.drop(ws);
        ws.terminate();
        continue;
      }
      s.alive = false;
      if (ws.readyState === ws.OPEN) ws.ping();
    }
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
