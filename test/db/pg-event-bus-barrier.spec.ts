import { Client } from 'pg';
import type { EventEntity } from '../../src/events/event.entity';
import { EVENTS_CHANNEL, PgNotifyEventBus } from '../../src/events/pg-event-bus';
import { createTestDatabase } from '../support/pg';

/**
 * The barrier the event pages cache relies on (issue 21), on the real server: once `barrier()` resolves true, every
 * NOTIFY committed before it was called has been signalled to `onCommitted` listeners, on this connection.
 */
describe('PgNotifyEventBus barrier on PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> };
  let other: Client;
  let bus: PgNotifyEventBus;
  let signals = 0;
  const feed = { maxSeq: async () => '0', listAfterSeq: async () => [], findById: async () => null };

  beforeAll(async () => {
    db = await createTestDatabase();
    other = new Client({ connectionString: db.url });
    await other.connect();
    bus = new PgNotifyEventBus({ url: db.url, notify: async (ch, p) => void (await other.query('SELECT pg_notify($1, $2)', [ch, p])), feed });
    bus.onCommitted(() => signals++);
    await bus.start();
  });
  afterAll(async () => {
    await bus?.close();
    await other?.end();
    await db?.drop();
  });

  it('every NOTIFY committed by another session before the call is signalled when the barrier resolves', async () => {
    for (let i = 0; i < 300; i++) {
      const before = signals;
      // Another instance's commit: its NOTIFY has returned (committed) before this instance's request arrives.
      await other.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, 'not-an-id']);
      expect(await bus.barrier()).toBe(true);
      expect(signals).toBeGreaterThan(before);
    }
  });

  it('concurrent callers share round trips, and each is answered after a round trip that started after its call', async () => {
    const before = signals;
    await other.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, 'x']);
    const seen = await Promise.all(Array.from({ length: 50 }, () => bus.barrier().then((ok) => ({ ok, signalled: signals > before }))));
    expect(seen.every((s) => s.ok && s.signalled)).toBe(true);
  });

  it('a publish on this instance is signalled at once, before its NOTIFY is sent', async () => {
    const before = signals;
    const sent = bus.publish({ id: '00000000-0000-4000-8000-000000000000', kind: 'k', source: 'client', summary: '', reasoning: '' } as EventEntity);
    expect(signals).toBe(before + 1);
    await sent;
  });

  it('answers false while the listening connection is busy past the timeout, and when it is gone', async () => {
    const slow = new PgNotifyEventBus({ url: db.url, notify: async () => undefined, feed, barrierTimeoutMs: 100 });
    await slow.start();
    try {
      expect(await slow.barrier()).toBe(true);
      // A stalled network: the listening connection's answers stop arriving. The barrier gives up rather than keep
      // requests waiting, and gives none while that round trip is still out.
      const stream = (slow as unknown as { client: { connection: { stream: NodeJS.ReadableStream } } }).client.connection.stream;
      stream.pause();
      const started = Date.now();
      expect(await slow.barrier()).toBe(false);
      expect(Date.now() - started).toBeLessThan(2000); // its timeout (100 ms here), never the query timeout (10 s)
      expect(await slow.barrier()).toBe(false);
      stream.resume();
      const until0 = Date.now() + 2000;
      let back = false;
      while (!back && Date.now() < until0) back = await new Promise((r) => setTimeout(r, 10)).then(() => slow.barrier());
      expect(back).toBe(true);
      // The server ends the listening connection: no barrier until it is back.
      let lost = 0;
      slow.onCommitted(() => lost++);
      const admin = new Client({ connectionString: db.url });
      await admin.connect();
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vending-commerce-events' AND pid <> pg_backend_pid()`);
      await admin.end();
      const until = Date.now() + 5000;
      while (slow.listening && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect(slow.listening).toBe(false);
      expect(lost).toBeGreaterThan(0); // a lost connection is signalled (pages dropped)
      expect(await slow.barrier()).toBe(false);
    } finally {
      await slow.close();
    }
  });
});
