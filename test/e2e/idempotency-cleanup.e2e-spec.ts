import { Client } from 'pg';
import { jobLockKey } from '../../src/coordination/coordination.rules';
import { IDEMPOTENCY_CLEANUP_INTERVAL, IdempotencyCleanupJob } from '../../src/idempotency/idempotency-cleanup.job';
import { startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, startTwoSupplierInstances, supplierApp } from '../support/money-fixtures';
import { sql } from '../support/sql';

/**
 * Idempotency keys are kept 24 hours; the cleanup job deletes older ones, once per tick across instances (advisory
 * lock), and a key past retention starts a new request.
 */
const line = [{ item: { id: `${NS}:WATER` }, quantity: 1 }];

describe('idempotency key cleanup', () => {
  let p: FakePartner;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => ({ p, a, b, close } = await startTwoSupplierInstances()));
  afterAll(() => close());

  it('deletes keys older than 24 h, keeps younger ones, runs on one instance per tick, and frees the old key', async () => {
    for (const k of ['old-1', 'old-2', 'young-1']) {
      const res = await a.post('/ucp/v1/checkout-sessions', { id: `CLEAN-${k}`, line_items: line, fulfillment: DEST }).set('Idempotency-Key', k);
      expect(res.status).toBe(201);
    }
    const url = a.databaseUrl!;
    await sql(url, `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key LIKE 'old-%'`);
    await sql(url, `UPDATE idempotency_keys SET created_at = now() - interval '23 hours' WHERE key = 'young-1'`);

    // Another instance holds this tick's lock: this instance skips (the job runs once per tick across instances).
    const holder = new Client({ connectionString: url });
    await holder.connect();
    try {
      expect((await holder.query('SELECT pg_try_advisory_lock($1::bigint) AS ok', [jobLockKey(IDEMPOTENCY_CLEANUP_INTERVAL)])).rows[0].ok).toBe(true);
      expect(await b.app.get(IdempotencyCleanupJob).tick()).toBeNull();
      expect((await sql(url, `SELECT count(*)::int AS n FROM idempotency_keys`))[0].n).toBe(3);
    } finally {
      await holder.end();
    }

    expect(await b.app.get(IdempotencyCleanupJob).tick()).toBe(2);
    const left = await sql<{ key: string }>(url, `SELECT key FROM idempotency_keys ORDER BY key`);
    expect(left.map((r) => r.key)).toEqual(['young-1']);
    expect(await a.app.get(IdempotencyCleanupJob).tick()).toBe(0);

    // The young key still replays; the deleted one starts a new request (another body is no longer a mismatch).
    const replay = await a.post('/ucp/v1/checkout-sessions', { id: 'CLEAN-young-1', line_items: line, fulfillment: DEST }).set('Idempotency-Key', 'young-1');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const reused = await a.post('/ucp/v1/checkout-sessions', { id: 'CLEAN-new', line_items: line, fulfillment: DEST }).set('Idempotency-Key', 'old-1');
    expect(reused.status).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
  });

  it('the job is registered on the scheduler only when the scheduler is on', async () => {
    const { SchedulerRegistry } = await import('@nestjs/schedule');
    expect(a.app.get(SchedulerRegistry).doesExist('interval', IDEMPOTENCY_CLEANUP_INTERVAL)).toBe(false);
    const on = await startTestApp({ db: 'embedded', env: { SERVICE_SCHEDULER: 'on' } });
    try {
      expect(on.app.get(SchedulerRegistry).doesExist('interval', IDEMPOTENCY_CLEANUP_INTERVAL)).toBe(true);
      expect(await on.app.get(IdempotencyCleanupJob).tick()).toBe(0);
    } finally {
      await on.close();
    }
  });
});
