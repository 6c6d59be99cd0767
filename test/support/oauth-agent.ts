import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from './test-app';

/** A tiny cookie jar for the authorization server's browser cookies (the flow without a browser). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface ConnectedTestAgent {
  clientId: string;
  accessToken: string;
  refreshToken: string;
  scope: string;
  redirectUri: string;
}

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

export async function registerClient(base: string, name = 'test agent', redirectUri = REDIRECT_URI): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/oauth/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A registered client's authorization request, pending the person's decision: its id (the consent page's). */
export async function pendingAuthorization(base: string): Promise<string> {
  const reg = await registerClient(base, 'pending agent');
  const q = new URLSearchParams({ response_type: 'code', client_id: reg.body.client_id as string, redirect_uri: REDIRECT_URI, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', scope: 'read' });
  const res = await fetch(`${base}/oauth/auth?${q}`, { redirect: 'manual' });
  const uid = /#\/connect\/([^/?]+)/.exec(res.headers.get('location') ?? '')?.[1];
  if (!uid) throw new Error(`the authorization answered ${res.status}`);
  return uid;
}

/**
 * Connects an agent without a browser, as the console would: registration (RFC 7591), the authorization request with
 * PKCE S256 and the resource, the person's decision through the consent API (the operator token), the resume with the
 * authorization server's cookies, and the code exchanged for tokens.
 */
export async function connectAgent(t: TestApp, opts: { scope: 'read' | 'operate'; name?: string; base?: string; resource?: string; approve?: boolean }): Promise<ConnectedTestAgent> {
  const base = opts.base ?? t.url;
  const reg = await registerClient(base, opts.name ?? 'test agent');
  if (reg.status !== 201) throw new Error(`registration answered ${reg.status}: ${JSON.stringify(reg.body)}`);
  const clientId = reg.body.client_id as string;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const resource = opts.resource ?? `${base}/`;
  const q = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', scope: 'read operate', resource, state: 'st-1' });
  const jar = new Jar();
  let res = await fetch(`${base}/oauth/auth?${q}`, { redirect: 'manual' });
  jar.take(res);
  const consent = res.headers.get('location') ?? '';
  const uid = /#\/connect\/([^/?]+)/.exec(consent)?.[1];
  if (!uid) throw new Error(`the authorization answered ${res.status} to ${consent}: ${await res.text()}`);
  const decided = await fetch(`${base}/ucp/v1/agents/requests/${uid}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ approve: opts.approve ?? true, scope: opts.scope }),
  });
  const d = (await decided.json()) as { redirect_to: string };
  if (decided.status !== 200) throw new Error(`the decision answered ${decided.status}: ${JSON.stringify(d)}`);
  let next = d.redirect_to;
  for (let i = 0; i < 5 && !next.startsWith(REDIRECT_URI); i++) {
    res = await fetch(new URL(next, base), { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    next = res.headers.get('location') ?? '';
    if (!next) throw new Error(`the resume answered ${res.status}: ${await res.text()}`);
  }
  const back = new URL(next);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`the authorization came back without a code: ${next}`);
  const tok = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId, resource }),
  });
  const tokens = (await tok.json()) as Record<string, string>;
  if (tok.status !== 200) throw new Error(`the token endpoint answered ${tok.status}: ${JSON.stringify(tokens)}`);
  return { clientId, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, scope: tokens.scope, redirectUri: REDIRECT_URI };
}

export async function tokenRequest(base: string, params: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}
