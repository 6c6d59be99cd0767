import { DataSource } from 'typeorm';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, supplierApp } from '../support/money-fixtures';
import { sql } from '../support/sql';
import { BOTH_DATABASES, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/**
 * Issue 28: a keyed checkout create answered 503 idempotency_unavailable on the embedded database once the pool had
 * closed its idle connection ("prepared statement already exists"): the named statement of the keyed create outlived
 * the pool client that prepared it, because one PGlite session sits behind every client (as one server session sits
 * behind many clients of a transaction-mode pooler). The pool's idle timeout is short here instead of waiting 10 s.
 */
const LINES = [{ item: { id: `${NS}:WATER` }, quantity: 1 }];
const IDLE_MS = 150;

interface PgPool {
  totalCount: number;
  connect(): Promise<{ release(destroy?: boolean): void; processID?: number }>;
}
const poolOf = (t: TestApp): PgPool => (t.app.get(DataSource).driver as unknown as { master: PgPool }).master;

describe.each(BOTH_DATABASES)('keyed creates across idle and replaced connections (%s)', (db) => {
  let p: FakePartner;
  let a: TestApp;
  let n = 0;
  const keyedCreate = async (): Promise<void> => {
    const key = `idle-${db}-${++n}`;
    const res = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', key);
    expect({ status: res.status, body: res.status === 201 ? 'created' : res.body }).toEqual({ status: 201, body: 'created' });
    const replay = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', key);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(res.body.id);
  };
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    a = await supplierApp(p, { DATABASE_POOL_IDLE_MS: String(IDLE_MS) }, db === 'embedded' ? 'embedded' : undefined);
  });
  afterAll(async () => {
    await a.close();
    await p.close();
  });

  it('keeps answering 201 after the pool has closed its idle connections between keyed creates', async () => {
    await keyedCreate();
    await keyedCreate();
    for (let round = 0; round < 2; round++) {
      await waitUntil(() => poolOf(a).totalCount === 0, { what: 'the pool to close its idle connections' });
      await keyedCreate();
    }
  });

  it('keeps answering 201 through a connection replaced between calls', async () => {
    await keyedCreate();
    const pool = poolOf(a);
    if (db === 'postgres') {
      // The server ends the session under the idle connection (a restart, a failover, a pooler recycling it).
      await sql(a, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'vending-commerce'`);
      await waitUntil(() => pool.totalCount === 0, { what: 'the pool to drop the ended connection' });
    } else {
      // The pool discards its connection; the next one reaches the same embedded session.
      const client = await pool.connect();
      client.release(true);
    }
    await keyedCreate();
    await keyedCreate();
  });

  it('leaves no named statement in the session: nothing depends on which connection ran before', async () => {
    await keyedCreate();
    const rows = await a.app.get(DataSource).query('SELECT count(*)::int AS n FROM pg_prepared_statements');
    expect(rows[0].n).toBe(0);
  });
});
