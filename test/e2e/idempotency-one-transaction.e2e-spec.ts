import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, startTwoSupplierInstances, supplierApp } from '../support/money-fixtures';
import { countQueries } from '../support/query-counter';
import { sql } from '../support/sql';
import { BOTH_DATABASES, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/**
 * Issue 21: an idempotent checkout create writes its Idempotency-Key and stored answer in the create's own transaction
 * (the create calls no money-moving partner), so the key costs one statement and no commit of its own.
 */
const LINES = [{ item: { id: `${NS}:WATER` }, quantity: 1 }];
const sessionCount = async (t: TestApp): Promise<number> => Number((await sql<{ n: string }>(t, 'SELECT count(*) AS n FROM checkout_sessions'))[0].n);

describe.each(BOTH_DATABASES)('idempotent create in one transaction (%s)', (db) => {
  let p: FakePartner;
  let a: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    a = await supplierApp(p, {}, db === 'embedded' ? 'embedded' : undefined);
    await a.post('/ucp/v1/checkout-sessions', { line_items: LINES }).expect(201); // the supplier catalog is cached
  });
  afterAll(async () => {
    await a.close();
    await p.close();
  });

  it('the key and its answer cost no statement: the session insert carries them, inside the create transaction', async () => {
    const plain = countQueries();
    await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).expect(201);
    plain.stop();
    const keyed = countQueries();
    const res = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'one-tx-1');
    keyed.stop();
    expect(res.status).toBe(201);
    const statements = keyed.statements();
    expect(keyed.transactions()).toBe(1);
    expect(statements.length).toBe(plain.statements().length);
    const begin = statements.findIndex((q) => /^\s*(START TRANSACTION|BEGIN)\b/i.test(q));
    const commit = statements.findIndex((q) => /^\s*COMMIT\b/i.test(q));
    const keyStatements = statements.map((q, i) => ({ q, i })).filter(({ q }) => /idempotency_keys/i.test(q));
    expect(keyStatements).toHaveLength(1);
    expect(keyStatements[0].q).toMatch(/INSERT INTO "checkout_sessions"/);
    expect(keyStatements[0].i).toBeGreaterThan(begin);
    expect(keyStatements[0].i).toBeLessThan(commit);

    const replay = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'one-tx-1');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(res.body);
    const other = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES }).set('Idempotency-Key', 'one-tx-1');
    expect(other.status).toBe(409);
    expect(other.body.messages[0].code).toBe('idempotency_key_mismatch');
  });

  it('a chosen id that exists under a replayed key answers the replay; a refusal under a new key stores nothing', async () => {
    const first = await a.post('/ucp/v1/checkout-sessions', { id: 'ONE-TX-ID', line_items: LINES }).set('Idempotency-Key', 'one-tx-2');
    expect(first.status).toBe(201);
    const replay = await a.post('/ucp/v1/checkout-sessions', { id: 'ONE-TX-ID', line_items: LINES }).set('Idempotency-Key', 'one-tx-2');
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    const taken = await a.post('/ucp/v1/checkout-sessions', { id: 'ONE-TX-ID', line_items: LINES }).set('Idempotency-Key', 'one-tx-3');
    expect(taken.status).toBe(409);
    expect(taken.body.messages[0].code).toBe('already_exists');
    // The refusal was not stored: the key is free for the corrected request.
    const fixed = await a.post('/ucp/v1/checkout-sessions', { id: 'ONE-TX-ID-2', line_items: LINES }).set('Idempotency-Key', 'one-tx-3');
    expect(fixed.status).toBe(201);
    expect(fixed.body.id).toBe('ONE-TX-ID-2');
  });
});

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
