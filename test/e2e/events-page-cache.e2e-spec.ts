import { Client } from 'pg';
import { EventsService } from '../../src/events/events.service';
import { EventBus } from '../../src/events/event-bus';
import { EVENTS_LISTENER_APP, PgNotifyEventBus } from '../../src/events/pg-event-bus';
import { Tx } from '../../src/database/tx';
import { countQueries } from '../support/query-counter';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

type Page = { events: { id: string; kind: string }[] };
const list = async (t: TestApp, query = 'limit=20') => ((await t.get(`/ucp/v1/events?${query}`).expect(200)).body as Page).events.map((e) => e.id);
/** Reads of a list page (the socket fan-out also reads the table, oldest first, after each notification). */
const pageReads = (c: ReturnType<typeof countQueries>) => c.statements().filter((q) => /FROM events\b[\s\S]*ORDER BY seq DESC/i.test(q)).length;
const post = async (t: TestApp, kind = 'cache.test') => ((await t.post('/ucp/v1/events', { kind, summary: 's', reasoning: 'r' }).expect(201)).body as { id: string }).id;

/** Issue 21: rendered GET /events pages are reused until an event commits, on any instance. */
describe.each(BOTH_DATABASES)('event pages cache (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(() => t?.close());

  it('a repeated page is answered without reading the events table; a new event is on the next read', async () => {
    await post(t);
    const first = await list(t);
    const counter = countQueries();
    try {
      expect(await list(t)).toEqual(first);
      expect(await list(t)).toEqual(first);
      expect(pageReads(counter)).toBe(0);
      const id = await post(t);
      const after = await list(t);
      expect(after[0]).toBe(id);
      expect(after.slice(1)).toEqual(first.slice(0, 19));
      expect(pageReads(counter)).toBe(1);
    } finally {
      counter.stop();
    }
  });

  it('each filter and limit is its own page, and an event of any kind renews them all', async () => {
    const a = await post(t, 'kind.a');
    const b = await post(t, 'kind.b');
    expect(await list(t, 'kind=kind.a&limit=5')).toEqual([a]);
    expect((await list(t, 'limit=1'))).toEqual([b]);
    const c = await post(t, 'kind.b');
    expect(await list(t, 'kind=kind.a&limit=5')).toEqual([a]);
    expect(await list(t, 'limit=1')).toEqual([c]);
    expect(await list(t, 'kind=kind.b&limit=5')).toEqual([c, b]);
  });

  it('an event recorded inside a transaction that rolls back never appears, and one that commits does at once', async () => {
    const events = t.app.get(EventsService);
    const tx = t.app.get(Tx);
    const before = await list(t);
    await expect(
      tx.run(async () => {
        await events.record({ kind: 'sync.completed', summary: 'rolled back', reasoning: 'r' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await list(t)).toEqual(before);
    const kept = await tx.run(() => events.record({ kind: 'sync.completed', summary: 'kept', reasoning: 'r' }));
    expect((await list(t))[0]).toBe(kept.id);
  });
});

describe('event pages cache turned off (SERVICE_EVENT_PAGE_CACHE=off)', () => {
  it('reads the events table on every request', async () => {
    const t = await startTestApp({ env: { SERVICE_EVENT_PAGE_CACHE: 'off' } });
    try {
      await post(t);
      await list(t);
      const counter = countQueries();
      await list(t);
      await list(t);
      expect(pageReads(counter)).toBe(2);
      counter.stop();
    } finally {
      await t.close();
    }
  });
});

describe('event pages cache, two instances on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.databaseUrl! });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a read on A that starts after a write on B has answered sees the write, every time', async () => {
    for (let i = 0; i < 40; i++) {
      await list(a); // A holds the page
      const id = await post(b, `cross.${i % 3}`);
      expect((await list(a))[0]).toBe(id);
    }
  });

  it('while the listening connections are cut and reconnecting, reads stay right (the database is read)', async () => {
    await list(a);
    const admin = new Client({ connectionString: a.databaseUrl! });
    await admin.connect();
    try {
      for (let i = 0; i < 5; i++) {
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [EVENTS_LISTENER_APP]);
        const id = await post(b, 'cut.listener');
        expect((await list(a))[0]).toBe(id);
        await new Promise((r) => setTimeout(r, 50 * i));
      }
    } finally {
      await admin.end();
    }
    // Once reconnected, the cache serves again and still sees B's writes.
    const bus = a.app.get(EventBus) as PgNotifyEventBus;
    const until = Date.now() + 15_000;
    while (!bus.listening && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(bus.listening).toBe(true);
    await list(a);
    const counter = countQueries();
    try {
      await list(a);
      expect(pageReads(counter)).toBe(0);
    } finally {
      counter.stop();
    }
    const id = await post(b, 'after.reconnect');
    expect((await list(a))[0]).toBe(id);
  });
});
