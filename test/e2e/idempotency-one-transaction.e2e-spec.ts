import { FakePartner } from '../partners/fake-partner-server';
import { DEST, startTwoSupplierInstances } from '../support/money-fixtures';
import { sql } from '../support/sql';
import type { TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { LINES, oneTransaction } from './idempotency-one-transaction.suite';

/** Issue 21 (idempotency-one-transaction.suite.ts) on PostgreSQL, and across instances; the embedded database is idempotency-one-transaction-embedded.e2e-spec.ts. */
oneTransaction('postgres');

const sessionCount = async (t: TestApp): Promise<number> => Number((await sql<{ n: string }>(t, 'SELECT count(*) AS n FROM checkout_sessions'))[0].n);

describe('idempotent create in one transaction across instances (postgres)', () => {
  let p: FakePartner;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ p, a, b, close } = await startTwoSupplierInstances());
  });
  afterAll(() => close());

  it('concurrent creates with one key on two instances: one session; the others replay it or answer 409 in use', async () => {
    const before = await sessionCount(a);
    const shots = Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'race-create'));
    const res = await Promise.all(shots);
    expect(await sessionCount(a)).toBe(before + 1);
    const created = res.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of res) {
      if (r.status !== 201) {
        expect(r.status).toBe(409);
        expect(r.body.messages[0].code).toBe('idempotency_key_in_use');
      }
    }
  });

  it('a second request while the first still holds the key: 409 in use at once (never a wait, never a second session); then the replay', async () => {
    // The first create's transaction stays open for 2 s after writing its key (a trigger sleeps in it).
    await sql(
      a,
      `CREATE OR REPLACE FUNCTION slow_key() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(2); RETURN NEW; END $$;
       CREATE TRIGGER slow_key AFTER INSERT ON idempotency_keys FOR EACH ROW WHEN (NEW.key = 'slow-1') EXECUTE FUNCTION slow_key();`,
    );
    try {
      const before = await sessionCount(a);
      const first = a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'slow-1').then((r) => r);
      await waitUntil(async () => (await sql(a, `SELECT 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%idempotency_keys%'`)).length > 0, {
        what: 'the first create to hold its key',
      });
      const started = Date.now();
      const second = await b.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'slow-1');
      expect(second.status).toBe(409);
      expect(second.body.messages[0].code).toBe('idempotency_key_in_use');
      expect(Date.now() - started).toBeLessThan(1500); // answered while the first still sleeps, not after it
      const done = await first;
      expect(done.status).toBe(201);
      expect(await sessionCount(a)).toBe(before + 1);
      const replay = await b.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'slow-1');
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.id).toBe(done.body.id);
    } finally {
      await sql(a, 'DROP TRIGGER slow_key ON idempotency_keys; DROP FUNCTION slow_key()');
    }
  });

  it('an answer that cannot be stored leaves no session: the create rolls back with its key (503)', async () => {
    await sql(
      a,
      `CREATE OR REPLACE FUNCTION refuse_boom_key() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'answer store refused'; END $$;
       CREATE TRIGGER refuse_boom_key BEFORE INSERT OR UPDATE ON idempotency_keys FOR EACH ROW WHEN (NEW.key LIKE 'boom-%' AND NEW.state = 'done') EXECUTE FUNCTION refuse_boom_key();`,
    );
    try {
      const before = await sessionCount(a);
      const res = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'boom-1');
      expect(res.status).toBe(503);
      expect(res.body.messages[0].code).toBe('idempotency_unavailable');
      expect(await sessionCount(a)).toBe(before);
      expect(await sql(a, `SELECT key FROM idempotency_keys WHERE key = 'boom-1'`)).toEqual([]);
    } finally {
      await sql(a, 'DROP TRIGGER refuse_boom_key ON idempotency_keys; DROP FUNCTION refuse_boom_key()');
    }
  });
});
