import { Client } from 'pg';
import { ClsService } from 'nestjs-cls';
import { Tx } from '../../src/database/tx';
import { JobLockService } from '../../src/coordination/job-lock.service';
import { EventView, renderEvent } from '../../src/events/api/event.view';
import { EventsService } from '../../src/events/events.service';
import { EVENTS_LISTENER_APP, SEQ_GAP_GRACE_MS } from '../../src/events/pg-event-bus';
import { startTestApp, TestApp } from '../support/test-app';
import { drainFanOut, TestSocket, wsUrl } from './events-ws-client';

jest.setTimeout(30_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two instances of the service on one PostgreSQL database, as in a scaled deployment. */
describe('two instances on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  const open: TestSocket[] = [];
  const socketOn = async (t: TestApp) => {
    const s = await TestSocket.authed(wsUrl(t.url), { Authorization: `Bearer ${t.token}` });
    open.push(s);
    return s;
  };
  /** POST /events; returns the stored event without the envelope. */
  const post = async (t: TestApp, body: Record<string, unknown>): Promise<EventView> => {
    const { ucp: _ucp, messages: _messages, ...event } = (await t.post('/ucp/v1/events', body).expect(201)).body as EventView & {
      ucp: unknown;
      messages: unknown;
    };
    return event;
  };

  // Both instances run in this one process: a request to B sent from inside A's transaction must not inherit A's
  // async context (its Tx), as it never could between two real processes.
  const elsewhere = <T>(fn: () => Promise<T>): Promise<T> => a.app.get(ClsService).exit(fn);

  async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    const c = new Client({ connectionString: a.databaseUrl! });
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end();
    }
  }

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.databaseUrl! });
    await drainFanOut(a, b);
  });
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  describe('event fan-out', () => {
    // An instance may fan out the previous test's last events a little after the test saw them on the other one.
    beforeEach(() => drainFanOut(a, b));

    it('a socket on instance B receives an event posted over HTTP on instance A', async () => {
      const onB = await socketOn(b);
      const stored = await post(a, { kind: 'cross.instance', summary: 'from A', reasoning: 'r', location: 'loc-1' });
      const got = await onB.next('event');
      expect(got.event).toEqual(stored);
    });

    it('an event recorded by a service on A reaches B, filtered by B’s subscription', async () => {
      const onB = await socketOn(b);
      onB.send({ type: 'subscribe', kinds: ['sale.settled'] });
      expect((await onB.next()).type).toBe('subscribed');
      await a.app.get(EventsService).record({ kind: 'sync.completed', summary: 's', reasoning: 'r' });
      const sale = await a.app.get(EventsService).record({ kind: 'sale.settled', summary: 's', reasoning: 'r', data: { totalFen: 350 } });
      expect((await onB.next('event')).event).toEqual(renderEvent(sale));
    });

    it('sockets on both instances see one and the same order (seq order) for events posted on both', async () => {
      const onA = await socketOn(a);
      const onB = await socketOn(b);
      // Only the burst: an event of an earlier test that an instance fans out a little late must not count here.
      for (const s of [onA, onB]) {
        s.send({ type: 'subscribe', kinds: ['both.burst'] });
        expect((await s.next()).type).toBe('subscribed');
      }
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(i % 2 ? a : b, { kind: 'both.burst', summary: `#${i}`, reasoning: 'r' })),
      );
      const seenA = (await onA.events(20)).map((e) => e.id);
      const seenB = (await onB.events(20)).map((e) => e.id);
      const listed = ((await a.get('/ucp/v1/events?kind=both.burst&limit=20').expect(200)).body.events as EventView[]).map((e) => e.id);
      expect(seenA).toEqual([...listed].reverse());
      expect(seenB).toEqual(seenA);
    });

    it('keeps seq order when an earlier event commits after a later one (waits at the hole)', async () => {
      const onB = await socketOn(b);
      const svcA = a.app.get(EventsService);
      let first: { id: string } | null = null;
      let second: { id: string } | null = null;
      // Recorded in a transaction (Tx): published once it commits, after the later event.
      await a.app.get(Tx).run(async () => {
        first = await svcA.recordClient({ kind: 'hole.first', summary: 'committed second', reasoning: 'r' });
        second = await elsewhere(() => post(b, { kind: 'hole.second', summary: 'committed first', reasoning: 'r' }));
        await sleep(150);
      });
      expect((await onB.events(2)).map((e) => e.id)).toEqual([first!.id, second!.id]);
    });

    it('passes a hole left by a rolled-back event, and delivers a very late commit late rather than never', async () => {
      const onA = await socketOn(a);
      const svcB = b.app.get(EventsService);
      await expect(
        b.app.get(Tx).run(async () => {
          await svcB.recordClient({ kind: 'rolled.back', summary: 's', reasoning: 'r' });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      const afterHole = await post(a, { kind: 'after.hole', summary: 's', reasoning: 'r' });
      const started = Date.now();
      expect((await onA.next('event', 3000)).event!.id).toBe(afterHole.id);
      expect(Date.now() - started).toBeLessThan(SEQ_GAP_GRACE_MS + 1500);

      let late: { id: string } | null = null;
      let meanwhile: { id: string } | null = null;
      await a.app.get(Tx).run(async () => {
        late = await a.app.get(EventsService).recordClient({ kind: 'very.late', summary: 's', reasoning: 'r' });
        meanwhile = await elsewhere(() => post(b, { kind: 'meanwhile', summary: 's', reasoning: 'r' }));
        await sleep(SEQ_GAP_GRACE_MS + 400);
      });
      expect((await onA.events(2)).map((e) => e.id)).toEqual([meanwhile!.id, late!.id]);
    });

    it('reconnects its listening connection after it drops and catches up on what was stored meanwhile', async () => {
      const onB = await socketOn(b);
      const killed = await sql<{ ok: boolean }>(
        'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [EVENTS_LISTENER_APP],
      );
      expect(killed.length).toBe(2); // one listener per instance
      const duringOutage = await post(a, { kind: 'during.outage', summary: 's', reasoning: 'r' });
      expect((await onB.next('event', 10_000)).event!.id).toBe(duringOutage.id);
      const afterwards = await post(a, { kind: 'after.reconnect', summary: 's', reasoning: 'r' });
      expect((await onB.next('event')).event!.id).toBe(afterwards.id);
      // B's reconnect is proven by the delivery above; A reconnects on its own backoff, so wait for it (bounded).
      const listenerCount = async () =>
        (await sql('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [EVENTS_LISTENER_APP]))
          .length;
      const deadline = Date.now() + 10_000;
      while ((await listenerCount()) < 2 && Date.now() < deadline) await sleep(50);
      expect(await listenerCount()).toBe(2);
    });
  });

  describe('JobLockService', () => {
    it('runs a job on exactly one instance per tick, and the lock is free again afterwards', async () => {
      const la = a.app.get(JobLockService);
      const lb = b.app.get(JobLockService);
      let runs = 0;
      let advisoryLocksDuringRun = -1;
      const slowJob = async (who: string) => {
        runs++;
        // The job's own queries use other pooled connections while the lock's connection is held.
        advisoryLocksDuringRun = Number((await sql<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"))[0].n);
        await sleep(300);
        return who;
      };
      const [ra, rb] = await Promise.all([la.runExclusive('tick.sync', () => slowJob('a')), lb.runExclusive('tick.sync', () => slowJob('b'))]);
      expect(runs).toBe(1);
      expect([ra.ran, rb.ran].sort()).toEqual([false, true]);
      expect(advisoryLocksDuringRun).toBe(1);
      const winner = ra.ran ? ra : rb;
      expect(winner).toEqual({ ran: true, result: ra.ran ? 'a' : 'b' });

      const after = await sql<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
      expect(Number(after[0].n)).toBe(0);
      expect(await lb.runExclusive('tick.sync', async () => 'b again')).toEqual({ ran: true, result: 'b again' });
      expect(await la.runExclusive('tick.sync', async () => 'a again')).toEqual({ ran: true, result: 'a again' });
    });

    it('excludes by name only, and frees the lock when the job fails', async () => {
      const la = a.app.get(JobLockService);
      const lb = b.app.get(JobLockService);
      const [x, y] = await Promise.all([
        la.runExclusive('tick.one', () => sleep(100).then(() => 1)),
        lb.runExclusive('tick.two', () => sleep(100).then(() => 2)),
      ]);
      expect(x).toEqual({ ran: true, result: 1 });
      expect(y).toEqual({ ran: true, result: 2 });
      await expect(la.runExclusive('tick.fails', () => Promise.reject(new Error('job failed')))).rejects.toThrow('job failed');
      expect(await lb.runExclusive('tick.fails', async () => 'ok')).toEqual({ ran: true, result: 'ok' });
    });

    it('skips a second call in the same instance while the first runs', async () => {
      const la = a.app.get(JobLockService);
      const [p, q] = await Promise.all([la.runExclusive('tick.local', () => sleep(100).then(() => 'p')), la.runExclusive('tick.local', async () => 'q')]);
      expect([p.ran, q.ran].sort()).toEqual([false, true]);
    });
  });
});
