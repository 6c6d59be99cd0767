import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { RESTOCK_RECOVERY_INTERVAL, RestockRecoveryScheduler } from '../../src/restock/restock-recovery.scheduler';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectError } from '../support/envelope';
import { createTestDatabase } from '../support/pg';
import { startTestApp, TestApp } from '../support/test-app';
import { ACME, BETA, env, order, platformRef, postsFor, readsOf, rowOf, seed } from './restock-recovery.suite';

jest.setTimeout(120_000);

/**
 * Restock recovery (restock-recovery.suite.ts) after a real kill: two instances on one PostgreSQL database, the
 * first destroyed while the platform holds its answers, and the recovery job's registration. The same recovery per
 * database is restock-recovery.e2e-spec.ts (PostgreSQL) and restock-recovery-embedded.e2e-spec.ts.
 */
describe('a real kill: the process dies while the platform holds its answer (PostgreSQL, two instances)', () => {
  let acme: FakePartner;
  let beta: FakePartner;
  let dead: TestApp;
  let live: TestApp;
  let drop: () => Promise<void>;
  const send = (app: TestApp, ref: string) => app.post('/ucp/v1/locations/M-1/restock', order(ref));

  beforeAll(async () => {
    acme = await startFakePartner({ token: ACME });
    beta = await startFakePartner({ token: BETA });
    const created = await createTestDatabase();
    drop = created.drop;
    dead = await startTestApp({ databaseUrl: created.url, env: { ...env(acme, beta), SERVICE_PARTNER_TIMEOUT_MS: '10000' } });
    live = await startTestApp({ databaseUrl: created.url, env: env(acme, beta) });
    await seed(live.app.get(DataSource));
  });
  afterAll(async () => {
    await live.close();
    await dead.close().catch(() => undefined);
    await drop();
    await acme.close();
    await beta.close();
  });

  it('after the lease, the resend on the surviving instance answers the platform external_ref and the tick settles the other; one POST each', async () => {
    acme.fault('POST /restock', { holdMs: 1500, times: 2 });
    const inFlight = [send(dead, 'kill-1'), send(dead, 'kill-2')].map((r) => r.then((res) => res.status));
    for (let i = 0; i < 300 && !(acme.state.restocks['kill-1'] && acme.state.restocks['kill-2']); i++) await new Promise((r) => setTimeout(r, 10));
    expect(Object.keys(acme.state.restocks).sort()).toEqual(['kill-1', 'kill-2']);
    // kill -9: from here on nothing of that process reaches the database; the platform still holds its answers.
    await dead.app.get(DataSource).destroy();
    await Promise.all(inFlight);

    const ds = live.app.get(DataSource);
    expect((await rowOf(ds, 'kill-1')).status).toBe('sending');
    expectError(await send(live, 'kill-1'), 409, 'restock_in_progress');
    expect(await live.app.get(RestockRecoveryScheduler).tick()).toEqual({ checked: 0, placed: 0, released: 0, left: 0, unconfirmed: 0 });

    await ds.query(`UPDATE restock_orders SET claimed_at = claimed_at - interval '10 minutes' WHERE reference = 'kill-2'`);
    expect(await live.app.get(RestockRecoveryScheduler).tick()).toEqual({ checked: 1, placed: 1, released: 0, left: 0, unconfirmed: 0 });
    expect(await rowOf(ds, 'kill-2')).toMatchObject({ status: 'pending', external_ref: platformRef(acme, 'kill-2') });

    await ds.query(`UPDATE restock_orders SET claimed_at = claimed_at - interval '10 minutes' WHERE reference = 'kill-1'`);
    const res = await send(live, 'kill-1').expect(200);
    expect(res.body.external_ref).toBe(platformRef(acme, 'kill-1'));
    expect([postsFor(acme, 'kill-1'), postsFor(acme, 'kill-2')]).toEqual([1, 1]);
    expect([readsOf(acme, 'kill-1'), readsOf(acme, 'kill-2')]).toEqual([1, 1]);
  });

  it('the job is registered only when the scheduler is on', async () => {
    expect(live.app.get(SchedulerRegistry).getIntervals()).not.toContain(RESTOCK_RECOVERY_INTERVAL);
    const on = await startTestApp({ db: 'embedded', env: { ...env(acme, beta), SERVICE_SCHEDULER: 'on' } });
    try {
      expect(on.app.get(SchedulerRegistry).getIntervals()).toContain(RESTOCK_RECOVERY_INTERVAL);
    } finally {
      await on.close();
    }
  });
});
