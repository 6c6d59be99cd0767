import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../../config/app-config';
import { cookieRequestRefusal } from './cookie-origin.rules';
import { bearerFrom, cookieFrom, tokenMatches } from './token';

/**
 * Which credential a request carries (docs/adr/0039-owner-and-chat-credentials.md): `operator` is SERVICE_AUTH_TOKEN, `approver` the
 * optional owner credential SERVICE_APPROVER_TOKEN, valid on every route and the only one allowed to resolve a
 * dashboard approval, release the kill switch or replace guard rules when it is configured.
 */
export type Credential = 'operator' | 'approver' | 'chat' | 'agent';

/**
 * An agent's OAuth access token (issue 36): the client a person connected and the scope they granted. `read` reads
 * only; `operate` does what the operator token does, never what only the approver may.
 */
export interface AgentGrant {
  clientId: string;
  scope: 'read' | 'operate';
}

/**
 * Who is calling: the credential, and for a chat credential (SERVICE_CHAT_TOKENS, issue 26) the registered admin chat
 * whose bot holds it. A chat credential is accepted only on the routes marked `@AcceptsChatCredential()`.
 */
export interface Caller {
  credential: Credential;
  chatId: string | null;
  /** For an `agent` credential: its client and granted scope. */
  agent?: AgentGrant;
}

/** How a request was authenticated, or why not. Computed once per request (`requestAuth`). */
export type RequestAuth =
  | { ok: true; credential: Credential; via: 'bearer' | 'cookie'; chatId?: string; agent?: AgentGrant }
  | { ok: false; refusal: 'not_configured' | 'unauthorized' | 'forbidden_origin'; reason: string };

type AuthConfig = Pick<AppConfig, 'authToken' | 'approverToken' | 'chatTokens' | 'serviceName' | 'corsOrigins' | 'publicUrl'>;

/** The credential a token is, or null. Both comparisons always run (constant time whichever matches). */
export function credentialOfToken(token: string | null | undefined, config: Pick<AppConfig, 'authToken' | 'approverToken'>): Credential | null {
  const operator = config.authToken !== null && tokenMatches(token, config.authToken);
  const approver = config.approverToken !== null && tokenMatches(token, config.approverToken);
  return approver ? 'approver' : operator ? 'operator' : null;
}

/** The registered chat whose integration token this is, or null. Every configured chat token is compared (constant time). */
export function chatOfToken(token: string | null | undefined, config: Pick<AppConfig, 'chatTokens'>): string | null {
  let found: string | null = null;
  for (const c of config.chatTokens) if (tokenMatches(token, c.token)) found = c.chat_id;
  return found;
}

/** Reads the request's headers only (never its body): the bearer header, else the `<SERVICE_NAME>_auth` cookie. */
export function authenticate(req: IncomingMessage, config: AuthConfig): RequestAuth {
  if (!config.authToken) {
    return { ok: false, refusal: 'not_configured', reason: 'the deployment has no operator token configured (SERVICE_AUTH_TOKEN)' };
  }
  const h = req.headers;
  const bearer = bearerFrom(h['authorization']);
  if (bearer !== null) {
    const credential = credentialOfToken(bearer, config);
    if (credential !== null) return { ok: true, credential, via: 'bearer' };
    const chatId = chatOfToken(bearer, config); // a chat bot's token: a bearer credential only
    if (chatId !== null) return { ok: true, credential: 'chat', via: 'bearer', chatId };
    const agent = (req as WithAgent)[AGENT]; // an OAuth access token, resolved ahead by `resolveAgentToken`
    if (agent) return { ok: true, credential: 'agent', via: 'bearer', agent };
    return { ok: false, refusal: 'unauthorized', reason: 'missing or wrong operator token' };
  }
  // The cookie holds a console session id (issue 26), resolved ahead of this by `resolveCookieSession`.
  const credential = (req as WithSession)[SESSION] ?? null;
  if (credential === null) return { ok: false, refusal: 'unauthorized', reason: 'missing or wrong operator token' };
  const refusal = cookieRequestRefusal(
    { method: req.method ?? 'GET', origin: one(h['origin']), host: one(h['host']), secFetchSite: one(h['sec-fetch-site']), scheme: schemeOf(req) },
    config,
  );
  if (refusal) return { ok: false, refusal: 'forbidden_origin', reason: refusal };
  return { ok: true, credential, via: 'cookie' };
}

const SESSION = Symbol('cookieSession');
type WithSession = IncomingMessage & { [SESSION]?: Credential | null };

/** Reads a session id the way the store does: `lookup(id)` answers the credential of a live session, or null. */
export interface SessionLookup {
  lookup(id: string): Promise<Credential | null>;
}

/**
 * Resolves the `<SERVICE_NAME>_auth` cookie's session (one read of the session table) and keeps it on the request,
 * before `requestAuth` runs; a request with a bearer header or without the cookie reads nothing.
 */
export async function resolveCookieSession(req: IncomingMessage, config: Pick<AppConfig, 'serviceName'>, sessions: SessionLookup): Promise<void> {
  const r = req as WithSession;
  if (r[SESSION] !== undefined || bearerFrom(req.headers['authorization']) !== null) return;
  const id = cookieFrom(req.headers['cookie'], `${config.serviceName}_auth`);
  r[SESSION] = id ? await sessions.lookup(id) : null;
}

const AGENT = Symbol('agentToken');
type WithAgent = IncomingMessage & { [AGENT]?: AgentGrant | null };

/** Checks an OAuth access token (issue 36): the grant it carries when it is live and for this service, else null. */
export interface AgentTokenLookup {
  verify(req: IncomingMessage, token: string): Promise<AgentGrant | null>;
}

/**
 * Resolves a bearer token that is none of the configured ones as an agent's OAuth access token (one read of the
 * token's record) and keeps the answer on the request, before `requestAuth` runs. The static tokens read nothing.
 */
export async function resolveAgentToken(req: IncomingMessage, config: Pick<AppConfig, 'authToken' | 'approverToken' | 'chatTokens'>, agents: AgentTokenLookup): Promise<void> {
  const r = req as WithAgent;
  if (r[AGENT] !== undefined) return;
  const bearer = bearerFrom(req.headers['authorization']);
  if (bearer === null || credentialOfToken(bearer, config) !== null || chatOfToken(bearer, config) !== null) return;
  r[AGENT] = await agents.verify(req, bearer);
}

const AUTH = Symbol('requestAuth');
type WithAuth = IncomingMessage & { [AUTH]?: RequestAuth };

/**
 * The request's authentication, computed on first use and kept on the request: the middleware ahead of the body
 * parser, the guard and the rate limiter share one answer, and a transport that dispatches through the Nest pipeline
 * without the middleware still gets it.
 */
export function requestAuth(req: IncomingMessage, config: AuthConfig): RequestAuth {
  const r = req as WithAuth;
  return (r[AUTH] ??= authenticate(req, config));
}

/** The credential a request was authenticated with, or null (not authenticated yet, or refused). */
export function credentialOf(req: IncomingMessage): Credential | null {
  const auth = (req as WithAuth)[AUTH];
  return auth?.ok ? auth.credential : null;
}

/** The OAuth client of a request authenticated with an agent's access token, or null (the request log names it). */
export function agentClientOf(req: IncomingMessage): string | null {
  const auth = (req as WithAuth)[AUTH];
  return auth?.ok && auth.agent ? auth.agent.clientId : null;
}

/** The caller of an authenticated request (AuthGuard has run). */
export function callerOf(req: IncomingMessage): Caller {
  const auth = (req as WithAuth)[AUTH];
  if (!auth?.ok) return { credential: 'operator', chatId: null };
  return { credential: auth.credential, chatId: auth.chatId ?? null, ...(auth.agent ? { agent: auth.agent } : {}) };
}

/** Express's `req.protocol` (X-Forwarded-Proto believed only from SERVICE_TRUSTED_PROXIES), else the socket's. */
export function schemeOf(req: IncomingMessage): 'http' | 'https' {
  const p = (req as IncomingMessage & { protocol?: string }).protocol;
  if (p === 'https' || p === 'http') return p;
  return (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http';
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
