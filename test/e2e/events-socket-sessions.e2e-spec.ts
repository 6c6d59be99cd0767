/**
 * Issue 37 item 3: an event socket opened with the console's cookie lives only as long as its session (signed out or
 * expired, on any instance); sockets that carry no credential count as attempts and only a few may wait at once.
 */
import { DataSource } from 'typeorm';
import { expectError } from '../support/envelope';
import { waitUntil } from '../support/wait-until';
import { signedInCookie } from '../support/session-cookie';
import { BOTH_DATABASES, startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';
import { WS_MAX_UNAUTHENTICATED_PER_ADDRESS, WS_SESSION_RECHECK_MS } from '../../src/events/api/events.gateway';
import { TestSocket, wsUrl } from './events-ws-client';

const from = (address: string) => ({ 'X-Forwarded-For': address });

/** Posts a client event; answers its id. */
async function postEvent(t: TestApp, summary: string): Promise<string> {
  return ((await t.post('/ucp/v1/events', { kind: 'test.session', summary, reasoning: 'issue 37' }).expect(201)).body as { id: string }).id;
}

describe.each(BOTH_DATABASES)('event sockets end with their console session (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db, env: { SERVICE_TRUSTED_PROXIES: '127.0.0.1, ::1' } });
  });
  afterAll(() => t?.close());

  it('signing out closes the socket opened with that cookie at once; no event reaches it afterwards', async () => {
    const cookie = await signedInCookie(t);
    const s = await TestSocket.authed(wsUrl(t.url), { Cookie: cookie });
    const before = await postEvent(t, 'before sign-out');
    expect((await s.next('event')).event!.id).toBe(before);
    // Another console session and a bearer socket are not affected.
    const other = await TestSocket.authed(wsUrl(t.url), { Cookie: await signedInCookie(t) });
    const bearer = await TestSocket.authed(wsUrl(t.url), { Authorization: `Bearer ${TEST_TOKEN}` });
    await t.raw.delete('/ucp/v1/auth/session').set('Cookie', cookie).expect(200);
    const closed = await s.waitClose(1000); // the same instance: at once, not at the next read of the table
    expect(closed.code).toBe(4401);
    await postEvent(t, 'after sign-out');
    expect((await other.next('event')).event!.summary).toBe('after sign-out');
    expect((await bearer.next('event')).event!.summary).toBe('after sign-out');
    expect(s.pending().filter((m) => m.type === 'event').map((m) => m.event!.summary)).not.toContain('after sign-out');
    // The cookie no longer opens a socket either.
    const again = await TestSocket.open(wsUrl(t.url), { Cookie: cookie });
    expect((await again.waitClose()).code).toBe(4401);
    other.close();
    bearer.close();
  });

  it('a session that expires closes its sockets', async () => {
    const cookie = await signedInCookie(t);
    const s = await TestSocket.authed(wsUrl(t.url), { Cookie: cookie });
    await t.app.get(DataSource).query(`UPDATE console_sessions SET expires_at = now() - interval '1 second'`);
    const closed = await s.waitClose(WS_SESSION_RECHECK_MS * 3);
    expect(closed.code).toBe(4401);
    expectError(await t.raw.get('/ucp/v1/fleet').set('Cookie', cookie), 401, 'unauthorized');
  });

  it(`at most ${WS_MAX_UNAUTHENTICATED_PER_ADDRESS} sockets of one address wait for authentication at once`, async () => {
    const addr = '203.0.113.90';
    const waiting: TestSocket[] = [];
    for (let i = 0; i < WS_MAX_UNAUTHENTICATED_PER_ADDRESS; i++) waiting.push(await TestSocket.open(wsUrl(t.url), from(addr)));
    const over = await TestSocket.open(wsUrl(t.url), from(addr));
    expect((await over.waitClose(1000)).code).toBe(4429);
    expect(waiting.every((w) => w.closed === null)).toBe(true);
    // Another address is not affected, and a waiting socket still authenticates with its first message.
    const elsewhere = await TestSocket.open(wsUrl(t.url), from('203.0.113.91'));
    waiting[0].send({ type: 'auth', token: TEST_TOKEN });
    expect((await waiting[0].next()).type).toBe('authenticated');
    // Once it is authenticated it no longer waits: one more may.
    const next = await TestSocket.open(wsUrl(t.url), from(addr));
    next.send({ type: 'ping' }); // a first message that is not auth: refused as unauthorized, not as over the cap
    expect((await next.waitClose()).code).toBe(4401);
    for (const w of [...waiting, elsewhere]) w.close();
  });
});

describe.each(BOTH_DATABASES)('sockets without a credential count as attempts (%s)', (db) => {
  it('each socket opened without a credential counts against its address; past the limit the right token is refused', async () => {
    const t = await startTestApp({ db, env: { SERVICE_RATE_LIMIT: '4', SERVICE_RATE_LIMIT_WINDOW_MS: '600000', SERVICE_TRUSTED_PROXIES: '127.0.0.1, ::1' } });
    try {
      const addr = '203.0.113.95';
      // Five sockets, each counted as it opens; the counts race, so whichever is counted fifth is the one refused.
      const held: TestSocket[] = [];
      for (let i = 0; i < 5; i++) held.push(await TestSocket.open(wsUrl(t.url), from(addr)));
      await waitUntil(() => held.some((h) => h.closed !== null), { what: 'a socket over the limit closed' });
      expect(held.filter((h) => h.closed !== null).map((h) => h.closed!.code)).toEqual([4429]);
      expectError(await t.raw.get('/ucp/v1/fleet').set(from(addr)).set('Authorization', `Bearer ${TEST_TOKEN}`), 429, 'rate_limited');
      held.forEach((h) => h.close());
    } finally {
      await t.close();
    }
  });
});

describe('a sign-out on one instance closes the sockets of that session on every instance (PostgreSQL)', () => {
  it('the other instance closes its socket once it reads the shared table', async () => {
    const a = await startTestApp();
    const b = await startTestApp({ databaseUrl: a.databaseUrl! });
    try {
      const cookie = await signedInCookie(a);
      const onB = await TestSocket.authed(wsUrl(b.url), { Cookie: cookie });
      await a.raw.delete('/ucp/v1/auth/session').set('Cookie', cookie).expect(200);
      expect((await onB.waitClose(WS_SESSION_RECHECK_MS * 3)).code).toBe(4401);
      const again = await TestSocket.open(wsUrl(b.url), { Cookie: cookie });
      expect((await again.waitClose()).code).toBe(4401);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
