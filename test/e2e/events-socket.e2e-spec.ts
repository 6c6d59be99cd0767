import { Tx } from '../../src/database/tx';
import { EventView } from '../../src/events/api/event.view';
import { EventsService } from '../../src/events/events.service';
import { startTestApp, TestApp } from '../support/test-app';
import { signedInCookie } from '../support/session-cookie';
import { drainFanOut, TestSocket, wsUrl } from './events-ws-client';

const PLUS8 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+08:00$/;
jest.setTimeout(30_000);


function suite(t: () => TestApp) {
  const open: TestSocket[] = [];
  const track = async (p: Promise<TestSocket>) => {
    const s = await p;
    open.push(s);
    return s;
  };
  const bearer = () => ({ Authorization: `Bearer ${t().token}` });
  const authed = () => track(TestSocket.authed(wsUrl(t().url), bearer()));
  const post = async (body: Record<string, unknown>) => (await t().post('/ucp/v1/events', body).expect(201)).body as EventView;
  const svc = () => t().app.get(EventsService);
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  return { track, bearer, authed, post, svc };
}

describe('event socket on PostgreSQL (one instance)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await drainFanOut(t);
  });
  afterAll(() => t.close());
  const { track, bearer, authed, post, svc } = suite(() => t);

  describe('authentication', () => {
    it('accepts the Authorization header and pushes an event posted over HTTP', async () => {
      const s = await authed();
      const stored = await post({ kind: 'note.added', summary: 's1', reasoning: 'r1', location: 'loc-1' });
      const msg = await s.next('event');
      expect(msg).toEqual({
        type: 'event',
        event: { id: stored.id, kind: 'note.added', source: 'client', summary: 's1', reasoning: 'r1', location: 'loc-1', occurred_at: stored.occurred_at },
      });
      expect(msg.event!.occurred_at).toMatch(PLUS8);
    });

    it('accepts the auth cookie', async () => {
      const s = await track(TestSocket.authed(wsUrl(t.url), { Cookie: `other=1; ${await signedInCookie(t)}` }));
      const stored = await post({ kind: 'cookie.check', summary: 's', reasoning: 'r' });
      expect((await s.next('event')).event!.id).toBe(stored.id);
    });

    it('accepts the cookie only from the service’s own page origin; the header from anywhere', async () => {
      const host = new URL(t.url).host;
      const cookie = await signedInCookie(t);
      const same = await track(TestSocket.open(wsUrl(t.url), { Cookie: cookie, Origin: `http://${host}` }));
      expect(await same.next()).toEqual({ type: 'authenticated' });
      const foreign = await track(TestSocket.open(wsUrl(t.url), { Cookie: cookie, Origin: 'https://evil.example' }));
      expect(await foreign.next()).toMatchObject({ type: 'error', code: 'forbidden' });
      expect((await foreign.waitClose()).code).toBe(4403);
      const header = await track(TestSocket.open(wsUrl(t.url), { ...bearer(), Origin: 'https://evil.example' }));
      expect(await header.next()).toEqual({ type: 'authenticated' });
    });

    it('accepts a first message {"type":"auth","token":...}', async () => {
      const s = await track(TestSocket.open(wsUrl(t.url)));
      s.send({ type: 'auth', token: t.token });
      expect(await s.next()).toEqual({ type: 'authenticated' });
      const stored = await post({ kind: 'message.auth', summary: 's', reasoning: 'r' });
      expect((await s.next('event')).event!.id).toBe(stored.id);
    });

    it('refuses a wrong header token with an error and close code 4401', async () => {
      const s = await track(TestSocket.open(wsUrl(t.url), { Authorization: `Bearer ${t.token}x` }));
      expect(await s.next()).toMatchObject({ type: 'error', code: 'unauthorized' });
      expect((await s.waitClose()).code).toBe(4401);
    });

    it('refuses a wrong token in the first message', async () => {
      const s = await track(TestSocket.open(wsUrl(t.url)));
      s.send({ type: 'auth', token: 'nope' });
      expect(await s.next()).toMatchObject({ type: 'error', code: 'unauthorized' });
      expect((await s.waitClose()).code).toBe(4401);
    });

    it('refuses a first message that is not auth, and a cookie of another name', async () => {
      const s = await track(TestSocket.open(wsUrl(t.url), { Cookie: `other_auth=${t.token}` }));
      s.send({ type: 'subscribe' });
      expect(await s.next()).toMatchObject({ type: 'error', code: 'unauthorized' });
      expect((await s.waitClose()).code).toBe(4401);
    });

    it('never accepts a token in the URL, even beside a valid header', async () => {
      for (const q of [`?token=${t.token}`, `?access_token=${t.token}`, `?vending_auth=${t.token}`]) {
        const s = await track(TestSocket.open(wsUrl(t.url, q)));
        expect(await s.next()).toMatchObject({ type: 'error', code: 'unauthorized' });
        expect((await s.waitClose()).code).toBe(4401);
      }
      const withHeader = await track(TestSocket.open(wsUrl(t.url, `?token=${t.token}`), bearer()));
      expect(await withHeader.next()).toMatchObject({ type: 'error', code: 'unauthorized' });
      expect((await withHeader.waitClose()).code).toBe(4401);
      expect(t.logs.join('')).not.toContain(t.token);
    });

    it('closes a client that sends no token within 5 s', async () => {
      const started = Date.now();
      const s = await track(TestSocket.open(wsUrl(t.url)));
      expect(await s.next(undefined, 8000)).toMatchObject({ type: 'error', code: 'unauthorized' });
      expect((await s.waitClose()).code).toBe(4401);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(4500);
      expect(elapsed).toBeLessThan(8000);
    });
  });

  describe('protocol', () => {
    it('answers malformed messages with error invalid and keeps the connection', async () => {
      const s = await authed();
      for (const bad of ['not json', '[1]', '{"type":"subscribe","kinds":"x"}', '{"type":"nope"}', '{"type":"auth"}']) {
        s.send(bad);
        expect(await s.next()).toMatchObject({ type: 'error', code: 'invalid' });
      }
      s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect(await s.next()).toMatchObject({ type: 'error', code: 'invalid' });
      s.send({ type: 'ping' });
      expect(await s.next()).toEqual({ type: 'pong' });
      const stored = await post({ kind: 'after.garbage', summary: 's', reasoning: 'r' });
      expect((await s.next('event')).event!.id).toBe(stored.id);
      expect(s.closed).toBeNull();
    });

    it('filters by kind', async () => {
      const s = await authed();
      s.send({ type: 'subscribe', kinds: ['wanted.kind'] });
      expect(await s.next()).toEqual({ type: 'subscribed', kinds: ['wanted.kind'], location: null });
      await post({ kind: 'other.kind', summary: 's', reasoning: 'r' });
      const wanted = await post({ kind: 'wanted.kind', summary: 's', reasoning: 'r' });
      const got = await s.next('event');
      expect(got.event!.id).toBe(wanted.id);
      expect(s.pending()).toEqual([]);
    });

    it('filters by location, and a later subscribe replaces the filters', async () => {
      const s = await authed();
      s.send({ type: 'subscribe', location: 'loc-7' });
      expect(await s.next()).toEqual({ type: 'subscribed', kinds: null, location: 'loc-7' });
      await post({ kind: 'k', summary: 'elsewhere', reasoning: 'r', location: 'loc-8' });
      await post({ kind: 'k', summary: 'nowhere', reasoning: 'r' });
      const here = await post({ kind: 'k', summary: 'here', reasoning: 'r', location: 'loc-7' });
      expect((await s.next('event')).event!.id).toBe(here.id);

      s.send({ type: 'subscribe', kinds: ['only.this'], location: 'loc-7' });
      expect(await s.next()).toEqual({ type: 'subscribed', kinds: ['only.this'], location: 'loc-7' });
      await post({ kind: 'k', summary: 'wrong kind', reasoning: 'r', location: 'loc-7' });
      await post({ kind: 'only.this', summary: 'wrong place', reasoning: 'r', location: 'loc-8' });
      const both = await post({ kind: 'only.this', summary: 'both', reasoning: 'r', location: 'loc-7' });
      expect((await s.next('event')).event!.id).toBe(both.id);

      s.send({ type: 'subscribe', location: 'loc-8' });
      expect(await s.next()).toEqual({ type: 'subscribed', kinds: null, location: 'loc-8' });
      const replaced = await post({ kind: 'k', summary: 'any kind at loc-8', reasoning: 'r', location: 'loc-8' });
      expect((await s.next('event')).event!.id).toBe(replaced.id);
      expect(s.pending()).toEqual([]);
    });

    it('pushes only events stored after the subscription', async () => {
      const witness = await authed();
      const before = await post({ kind: 'before', summary: 's', reasoning: 'r' });
      expect((await witness.next('event')).event!.id).toBe(before.id); // fanned out before the next socket opens
      const s = await authed();
      const after = await post({ kind: 'after', summary: 's', reasoning: 'r' });
      const got = await s.next('event');
      expect(got.event!.id).toBe(after.id);
      expect(got.event!.id).not.toBe(before.id);
    });
  });

  describe('ordering', () => {
    it('delivers events from POST /events and from EventsService in process in the order they were stored', async () => {
      const s = await authed();
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        if (i % 2 === 0) ids.push((await post({ kind: 'seq.http', summary: `#${i}`, reasoning: 'r' })).id);
        else ids.push((await svc().recordClient({ kind: 'seq.service', summary: `#${i}`, reasoning: 'r' })).id);
      }
      const got = await s.events(6);
      expect(got.map((e) => e.id)).toEqual(ids);
      expect(got[1].kind).toBe('seq.service');
    });

    it('delivers a concurrent burst in stored (seq) order', async () => {
      const s = await authed();
      await Promise.all([
        ...Array.from({ length: 16 }, (_, i) => post({ kind: 'burst', summary: `http ${i}`, reasoning: 'r' })),
        ...Array.from({ length: 8 }, (_, i) => svc().recordClient({ kind: 'burst', summary: `service ${i}`, reasoning: 'r' })),
      ]);
      const got = await s.events(24);
      const listed = (await t.get('/ucp/v1/events?kind=burst&limit=24').expect(200)).body.events as EventView[];
      expect(got.map((e) => e.id)).toEqual(listed.map((e) => e.id).reverse());
    });

    it('delivers an event recorded in a transaction (Tx) once that transaction commits', async () => {
      const s = await authed();
      let stored: { id: string } | null = null;
      await t.app.get(Tx).run(async () => {
        stored = await svc().recordClient({ kind: 'in.tx', summary: 's', reasoning: 'r' });
      });
      expect((await s.next('event')).event!.id).toBe(stored!.id);
    });
  });
});

describe('event socket without a configured token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded', env: { SERVICE_AUTH_TOKEN: '' } });
  });
  afterAll(() => t.close());

  it('closes every connection with 4503', async () => {
    const s = await TestSocket.open(wsUrl(t.url), { Authorization: 'Bearer anything' });
    expect(await s.next()).toMatchObject({ type: 'error', code: 'auth_not_configured' });
    expect((await s.waitClose()).code).toBe(4503);
  });
});

describe('event socket on the embedded database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded' });
    await drainFanOut(t);
  });
  afterAll(() => t.close());
  const { track, authed, post, svc } = suite(() => t);

  it('authenticates, filters and delivers HTTP and service events in order to its own sockets', async () => {
    const all = await authed();
    const filtered = await authed();
    filtered.send({ type: 'subscribe', kinds: ['emb.wanted'] });
    expect(await filtered.next()).toEqual({ type: 'subscribed', kinds: ['emb.wanted'], location: null });
    const byMessage = await track(TestSocket.open(wsUrl(t.url)));
    byMessage.send({ type: 'auth', token: t.token });
    expect(await byMessage.next()).toEqual({ type: 'authenticated' });

    const a = await post({ kind: 'emb.other', summary: 's', reasoning: 'r' });
    const b = await svc().recordClient({ kind: 'emb.wanted', summary: 's', reasoning: 'r' });
    const c = await post({ kind: 'emb.wanted', summary: 's', reasoning: 'r', location: 'loc-1' });

    expect((await all.events(3)).map((e) => e.id)).toEqual([a.id, b.id, c.id]);
    expect((await byMessage.events(3)).map((e) => e.id)).toEqual([a.id, b.id, c.id]);
    expect((await filtered.events(2)).map((e) => e.id)).toEqual([b.id, c.id]);
    expect(filtered.pending()).toEqual([]);
  });

  it('delivers a concurrent burst in stored order', async () => {
    const s = await authed();
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => post({ kind: 'emb.burst', summary: `http ${i}`, reasoning: 'r' })),
      ...Array.from({ length: 6 }, (_, i) => svc().recordClient({ kind: 'emb.burst', summary: `service ${i}`, reasoning: 'r' })),
    ]);
    const got = await s.events(18);
    const listed = (await t.get('/ucp/v1/events?kind=emb.burst&limit=18').expect(200)).body.events as EventView[];
    expect(got.map((e) => e.id)).toEqual(listed.map((e) => e.id).reverse());
  });
});
