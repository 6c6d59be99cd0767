import request from 'supertest';
import { Client } from 'pg';
import { createTestDatabase } from '../support/pg';
import { ensureReplicaAndPooler, lockReplicaForFile, onPort, PGBOUNCER_PORT, REPLICA_PORT } from '../support/replica';
import { startTestApp, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/**
 * Issue 38: the rolling-restart soak behind the pooler. Three instances (scheduler on: jobs once per tick by
 * transaction-held advisory locks) whose DATABASE_URL is PgBouncer in transaction mode, reads on a streaming replica,
 * LISTEN straight to the primary; a round-robin balancer in front. Every period one instance is taken out of rotation,
 * drained, closed and started again. Clients: writers (operator) that read their own write back from the next
 * instance, readers (approver) on the stale-ok lists. At the end: no answer other than 200/201, nothing written lost,
 * no stale read of one's own write, and reads served by the replica.
 *
 *   SOAK38_SECONDS=300 SOAK38_PERIOD_MS=60000 node --experimental-vm-modules node_modules/jest/bin/jest.js test/e2e/pooler-rolling.soak-spec.ts
 *
 * Default 24 s with a restart every 6 s, the suite's budget. The load lasts at least SECONDS and until RESTARTS
 * restarts have completed under it: a restart's boot takes 2 to 6 s depending on the machine's load, so a fixed
 * window alone gave a loaded CI machine fewer restarts than the test is about.
 */
const SECONDS = Number(process.env.SOAK38_SECONDS ?? 24);
const PERIOD_MS = Number(process.env.SOAK38_PERIOD_MS ?? 6000);
const RESTARTS = Math.max(1, Math.floor((SECONDS * 1000) / PERIOD_MS) - 1);
const APPROVER = 'soak-approver-token-3a9d17c2';
const METRICS = 'soak-metrics-token-6e2b04f8';
// Each restart may take up to a period of its own on a loaded machine.
jest.setTimeout(60_000 + SECONDS * 1500 + RESTARTS * PERIOD_MS * 2);

interface Slot {
  app: TestApp;
  inFlight: number;
  live: boolean;
}

describe(`rolling restarts behind PgBouncer with reads on the replica (${SECONDS} s, one restart every ${PERIOD_MS} ms)`, () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let primary: Client;
  const slots: Slot[] = [];
  const env = () => ({
    DATABASE_READ_URL: onPort(db.url, REPLICA_PORT),
    DATABASE_LISTEN_URL: db.url,
    DATABASE_READ_MAX_LAG_MS: '2000',
    DATABASE_READ_PROBE_MS: '200',
    SERVICE_EVENT_PAGE_CACHE: 'off',
    SERVICE_SCHEDULER: 'on',
    SERVICE_METRICS_TOKEN: METRICS,
    SERVICE_APPROVER_TOKEN: APPROVER,
  });
  const start = () => startTestApp({ databaseUrl: onPort(db.url, PGBOUNCER_PORT), env: env() });

  let unlock: () => void = () => undefined;

  beforeAll(async () => {
    // The other replica test file may hold the replica for a minute: wait for it.
    unlock = await lockReplicaForFile();
    await ensureReplicaAndPooler();
    db = await createTestDatabase();
    primary = new Client({ connectionString: db.url });
    await primary.connect();
    // Three instances booting at once through the pooler (migrations under the transaction-held lock).
    for (const app of await Promise.all([start(), start(), start()])) slots.push({ app, inFlight: 0, live: true });
  }, 240_000);

  afterAll(async () => {
    try {
      for (const s of slots) await s.app.close().catch(() => undefined);
      await primary?.end();
      await db?.drop();
    } finally {
      unlock();
    }
  });

  it('no failed request, nothing lost, nothing stale; reads served by the replica', async () => {
    let next = 0;
    const pick = (): Slot => {
      for (;;) {
        const s = slots[next++ % slots.length];
        if (s.live) return s;
      }
    };
    const send = async (build: (app: TestApp) => request.Test): Promise<request.Response> => {
      const s = pick();
      s.inFlight++;
      try {
        return await build(s.app);
      } finally {
        s.inFlight--;
      }
    };
    const metricReads = async (app: TestApp) => {
      const text = (await app.raw.get('/metrics').set('Authorization', `Bearer ${METRICS}`)).text;
      const sum = (target: string) => text.split('\n').filter((l) => l.startsWith('db_reads_total{') && l.includes(`target="${target}"`)).reduce((n, l) => n + Number(l.split(' ').pop()), 0);
      return { replica: sum('replica'), primary: sum('primary') };
    };
    const reads = { replica: 0, primary: 0 };
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const written: string[] = [];
    const stale: string[] = [];
    const kind = `soak.${Date.now()}`;
    const t0 = Date.now();
    const until = t0 + SECONDS * 1000;
    let restarts = 0;
    const running = () => Date.now() < until || restarts < RESTARTS;

    const writer = async (w: number) => {
      for (let i = 0; running(); i++) {
        const summary = `w${w}#${i}`;
        const res = await send((t) => t.post('/ucp/v1/events', { kind: `${kind}.${w}`, summary, reasoning: 'soak' }));
        count(res.status);
        if (res.status !== 201) continue;
        written.push(summary);
        const back = await send((t) => t.get(`/ucp/v1/events?kind=${kind}.${w}&limit=1`));
        count(back.status);
        if (back.status === 200 && (back.body.events as { summary: string }[])[0]?.summary !== summary) stale.push(summary);
      }
    };
    const paths = ['/ucp/v1/fleet', '/ucp/v1/orders', '/ucp/v1/sales/daily', '/ucp/v1/events?limit=20'];
    const reader = async () => {
      for (let i = 0; running(); i++) {
        const res = await send((t) => request(t.app.getHttpServer()).get(paths[i % paths.length]).set('Authorization', `Bearer ${APPROVER}`));
        count(res.status);
      }
    };
    const restarter = async () => {
      for (let i = 0; restarts < RESTARTS; i++) {
        const at = Date.now() + PERIOD_MS;
        while (Date.now() < at) await new Promise((r) => setTimeout(r, 100));
        const s = slots[i % slots.length];
        // A rolling restart: out of rotation, drained, closed (its reads counted), started again.
        s.live = false;
        await waitUntil(() => s.inFlight === 0, { what: 'the instance drained', timeoutMs: 10_000 });
        const m = await metricReads(s.app);
        reads.replica += m.replica;
        reads.primary += m.primary;
        await s.app.close();
        s.app = await start();
        s.live = true;
        restarts++;
      }
    };
    await Promise.all([writer(1), writer(2), writer(3), reader(), reader(), restarter()]);
    const seconds = (Date.now() - t0) / 1000;
    for (const s of slots) {
      const m = await metricReads(s.app);
      reads.replica += m.replica;
      reads.primary += m.primary;
    }
    const stored = (await primary.query<{ summary: string }>('SELECT summary FROM events WHERE kind LIKE $1', [`${kind}.%`])).rows.map((r) => r.summary);
    const answers = Object.fromEntries(statuses);
    process.stdout.write(`pooler soak (${seconds.toFixed(0)} s, ${restarts} restarts): ${JSON.stringify({ answers, written: written.length, stale: stale.length, reads })}\n`);

    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(stale).toEqual([]);
    expect(stored.sort()).toEqual(written.sort());
    expect(restarts).toBe(RESTARTS);
    expect(seconds).toBeGreaterThanOrEqual(SECONDS);
    expect(written.length).toBeGreaterThan(50);
    expect(reads.replica).toBeGreaterThan(0);
  });
});
