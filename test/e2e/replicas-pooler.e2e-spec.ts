import { Client } from 'pg';
import request from 'supertest';
import { JobLockService } from '../../src/coordination/job-lock.service';
import { EventBus } from '../../src/events/event-bus';
import { ALL_MIGRATIONS } from '../../migrations';
import { adminQuery, createTestDatabase, urlFor } from '../support/pg';
import { ensureReplicaAndPooler, lockReplicaForFile, onPort, PGBOUNCER_PORT, REPLICA_PORT, replicaQuery, restartPgBouncer, startReplica, stopReplica } from '../support/replica';
import { startTestApp, TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/**
 * Issue 38 against the real programs: two instances whose DATABASE_URL is PgBouncer (transaction mode) in front of the
 * primary, DATABASE_READ_URL a streaming replica of it (pg_basebackup -R), DATABASE_LISTEN_URL the primary itself.
 * Faults: replay paused on the replica, the replica stopped, PgBouncer restarted mid-load. Two clients: the operator
 * (writes, then reads its writes) and the approver (reads only), each its own credential.
 */
const APPROVER = 'test-approver-token-8d1e4b7a';
const METRICS = 'test-metrics-token-5c0f3e9b';
const MAX_LAG_MS = 1500;

type Ready = { status: string; replicas?: { replica: string; state: string; lag_ms: number | null }[] };

// The whole file holds the replica and PgBouncer: another replica test file may stop or kill them (and its jobs take
// advisory locks) while any of the describes below runs. That file may hold them for a minute: wait for it.
let unlock: () => void = () => undefined;
beforeAll(async () => {
  unlock = await lockReplicaForFile();
}, 240_000);
afterAll(() => unlock());

describe('read replicas and PgBouncer (real replica, real pooler)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let primary: Client;

  beforeAll(async () => {
    await ensureReplicaAndPooler();
    db = await createTestDatabase();
    const env = {
      DATABASE_READ_URL: onPort(db.url, REPLICA_PORT),
      DATABASE_LISTEN_URL: db.url,
      DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
      DATABASE_READ_PROBE_MS: '100',
      // Events pages read a replica only without the page cache (a cached page serves every client).
      SERVICE_EVENT_PAGE_CACHE: 'off',
      SERVICE_METRICS_TOKEN: METRICS,
      SERVICE_APPROVER_TOKEN: APPROVER,
    };
    a = await startTestApp({ databaseUrl: onPort(db.url, PGBOUNCER_PORT), env });
    b = await startTestApp({ databaseUrl: onPort(db.url, PGBOUNCER_PORT), env });
    primary = new Client({ connectionString: db.url });
    await primary.connect();
    for (const t of [a, b]) await waitUntil(async () => (await ready(t)).replicas?.[0]?.state === 'up', { what: 'the replica serves reads', timeoutMs: 15_000 });
  }, 120_000);

  afterAll(async () => {
    await replicaQuery('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await primary?.end();
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  const ready = async (t: TestApp): Promise<Ready> => (await t.raw.get('/readyz')).body as Ready;
  const asApprover = (t: TestApp, path: string) => request(t.app.getHttpServer()).get(path).set('Authorization', `Bearer ${APPROVER}`);
  const replicaReads = async (t: TestApp): Promise<number> => {
    const text = (await t.raw.get('/metrics').set('Authorization', `Bearer ${METRICS}`).expect(200)).text;
    return text
      .split('\n')
      .filter((l) => l.startsWith('db_reads_total{') && l.includes('target="replica"'))
      .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  };
  const write = (t: TestApp, kind: string, summary: string) => t.post('/ucp/v1/events', { kind, summary, reasoning: 'issue 38 test' });
  const summaries = async (res: request.Response): Promise<string[]> => (res.body.events as { summary: string }[]).map((e) => e.summary);

  it('reads that may be stale go to the replica; /readyz and /metrics show its state and lag', async () => {
    const before = await replicaReads(a);
    for (const path of ['/ucp/v1/events?limit=5', '/ucp/v1/orders', '/ucp/v1/sales/daily', '/ucp/v1/fleet']) {
      expect((await asApprover(a, path)).status).toBe(200);
    }
    expect(await replicaReads(a)).toBeGreaterThanOrEqual(before + 4);
    const r = await ready(a);
    expect(r.status).toBe('ready');
    expect(r.replicas).toEqual([{ replica: `127.0.0.1:${REPLICA_PORT}/${db.name}`, state: 'up', lag_ms: expect.any(Number) }]);
    const text = (await a.raw.get('/metrics').set('Authorization', `Bearer ${METRICS}`).expect(200)).text;
    expect(text).toContain(`db_replica_state{replica="127.0.0.1:${REPLICA_PORT}/${db.name}",state="up"} 1`);
    expect(text).toMatch(/db_replica_lag_seconds\{replica="[^"]+"\} \d/);
  });

  it('replay paused: the writer reads its write at once on either instance; others read the replica until it lags past the bound', async () => {
    await replicaQuery('SELECT pg_wal_replay_pause()');
    try {
      const kind = `paused.${Date.now()}`;
      expect((await write(a, kind, 'written while replay is paused')).status).toBe(201);
      // The same client, the other instance: its write is there (the replica has not replayed it: the primary answers).
      for (const t of [a, b]) expect(await summaries(await t.get(`/ucp/v1/events?kind=${kind}`).expect(200))).toEqual(['written while replay is paused']);
      // Another client still reads the paused replica (a little stale, within the bound): not there yet.
      expect(await summaries(await asApprover(b, `/ucp/v1/events?kind=${kind}`).expect(200))).toEqual([]);
      // Past the bound the replica is skipped: every client reads the primary, no error.
      await waitUntil(async () => (await ready(b)).replicas?.[0]?.state === 'lagging', { what: 'the paused replica is lagging', timeoutMs: MAX_LAG_MS + 5000 });
      expect((await ready(b)).replicas?.[0]?.lag_ms).toBeGreaterThan(MAX_LAG_MS);
      expect(await summaries(await asApprover(b, `/ucp/v1/events?kind=${kind}`).expect(200))).toEqual(['written while replay is paused']);
    } finally {
      await replicaQuery('SELECT pg_wal_replay_resume()');
    }
    await waitUntil(async () => (await ready(b)).replicas?.[0]?.state === 'up', { what: 'the replica catches up', timeoutMs: 10_000 });
    const before = await replicaReads(b);
    await asApprover(b, '/ucp/v1/fleet').expect(200);
    expect(await replicaReads(b)).toBe(before + 1);
  });

  /** Writes and reads on both instances until `stop`: every answer's status, and every read of one's own write. */
  async function load(stop: () => boolean, label: string) {
    const statuses: number[] = [];
    const stale: string[] = [];
    const written: string[] = [];
    const kind = `load.${label}.${Date.now()}`;
    const writer = async (w: number) => {
      for (let i = 0; !stop(); i++) {
        const [wt, rt] = i % 2 ? [a, b] : [b, a];
        const summary = `${label} w${w} #${i}`;
        const res = await write(wt, `${kind}.${w}`, summary);
        statuses.push(res.status);
        if (res.status !== 201) continue;
        written.push(summary);
        const read = await rt.get(`/ucp/v1/events?kind=${kind}.${w}&limit=1`);
        statuses.push(read.status);
        if (read.status === 200 && (await summaries(read))[0] !== summary) stale.push(summary);
      }
    };
    const reader = async () => {
      for (let i = 0; !stop(); i++) {
        const res = await asApprover(i % 2 ? a : b, i % 3 ? '/ucp/v1/fleet' : '/ucp/v1/orders');
        statuses.push(res.status);
      }
    };
    await Promise.all([writer(1), writer(2), reader(), reader()]);
    const stored = await primary.query<{ summary: string }>('SELECT summary FROM events WHERE kind LIKE $1', [`${kind}.%`]);
    return { statuses, stale, written, stored: stored.rows.map((r) => r.summary) };
  }

  it('the replica stopped mid-load: no error, reads move to the primary and back once it answers again', async () => {
    let stopped = false;
    const run = load(() => stopped, 'stopped');
    await new Promise((r) => setTimeout(r, 500));
    stopReplica();
    try {
      await waitUntil(async () => (await ready(a)).replicas?.[0]?.state === 'down' && (await ready(b)).replicas?.[0]?.state === 'down', { what: 'the stopped replica is down', timeoutMs: 10_000 });
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      startReplica();
    }
    await waitUntil(async () => (await ready(a)).replicas?.[0]?.state === 'up', { what: 'the replica is back', timeoutMs: 20_000 });
    const before = await replicaReads(a);
    await new Promise((r) => setTimeout(r, 300));
    stopped = true;
    const out = await run;
    expect(out.statuses.filter((s) => s >= 500)).toEqual([]);
    expect(out.statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(out.stale).toEqual([]);
    expect(out.stored.sort()).toEqual(out.written.sort());
    expect(out.written.length).toBeGreaterThan(10);
    // Reads use the replica again.
    await asApprover(a, '/ucp/v1/fleet').expect(200);
    expect(await replicaReads(a)).toBeGreaterThan(before);
  });

  it('PgBouncer restarted mid-load (online restart): no failed request, nothing lost, nothing stale', async () => {
    let stopped = false;
    const run = load(() => stopped, 'bouncer');
    for (let i = 0; i < 2; i++) {
      await new Promise((r) => setTimeout(r, 700));
      restartPgBouncer();
    }
    await new Promise((r) => setTimeout(r, 700));
    stopped = true;
    const out = await run;
    expect(out.statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(out.stale).toEqual([]);
    expect(out.stored.sort()).toEqual(out.written.sort());
    expect(out.written.length).toBeGreaterThan(10);
  });

  it('session work behind the pooler: LISTEN on its own connection to the primary, job locks held by a transaction', async () => {
    // The listening sessions are straight on the primary (DATABASE_LISTEN_URL), none through PgBouncer.
    const listeners = await primary.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vending-commerce-events'`);
    expect(Number(listeners.rows[0].n)).toBe(2);
    const bouncer = new Client({ host: '127.0.0.1', port: PGBOUNCER_PORT, user: 'postgres', database: 'pgbouncer' });
    await bouncer.connect();
    try {
      // The admin console speaks the simple protocol only (a query without values is sent that way).
      const clients = await bouncer.query<{ database: string; application_name: string }>('SHOW CLIENTS');
      expect(clients.rows.filter((c) => c.database === db.name && c.application_name === 'vending-commerce-events')).toEqual([]);
      expect(clients.rows.filter((c) => c.database === db.name).length).toBeGreaterThan(0);
    } finally {
      await bouncer.end();
    }
    // An event written on one instance (NOTIFY through the pooler) reaches the other's listeners.
    const kind = `notify.${Date.now()}`;
    const bus = b.app.get(EventBus, { strict: false });
    const got = new Promise<string>((resolve) => bus.subscribe((e) => e.kind === kind && resolve(e.summary)));
    expect((await write(a, kind, 'fan-out')).status).toBe(201);
    expect(await got).toBe('fan-out');

    const la = a.app.get(JobLockService);
    const lb = b.app.get(JobLockService);
    const advisory = async () => Number((await primary.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")).rows[0].n);
    let during = -1;
    const job = async (who: string) => {
      during = await advisory();
      await new Promise((r) => setTimeout(r, 200));
      return who;
    };
    for (let round = 0; round < 5; round++) {
      const [ra, rb] = await Promise.all([la.runExclusive('tick.pooler', () => job('a')), lb.runExclusive('tick.pooler', () => job('b'))]);
      expect([ra.ran, rb.ran].sort()).toEqual([false, true]);
      expect(during).toBe(1);
      // Released with the transaction: no lock left behind on a pooled server session.
      expect(await advisory()).toBe(0);
    }
  });
});

describe('migrations behind the pooler', () => {
  it('three instances booting at once on an empty database through PgBouncer migrate it once, and leave no lock', async () => {
    await ensureReplicaAndPooler();
    const name = `vt_${process.pid}_empty_${Date.now().toString(36)}`;
    await adminQuery(`CREATE DATABASE "${name}"`);
    const apps: TestApp[] = [];
    try {
      const url = onPort(urlFor(name), PGBOUNCER_PORT);
      apps.push(...(await Promise.all([0, 1, 2].map(() => startTestApp({ databaseUrl: url })))));
      for (const t of apps) await t.get('/ucp/v1/events?limit=1').expect(200);
      const check = new Client({ connectionString: urlFor(name) });
      await check.connect();
      try {
        const runs = await check.query<{ name: string; n: string }>('SELECT name, count(*) AS n FROM migrations GROUP BY name HAVING count(*) > 1');
        expect(runs.rows).toEqual([]);
        expect(Number((await check.query<{ n: string }>('SELECT count(*) AS n FROM migrations')).rows[0].n)).toBe(ALL_MIGRATIONS.length);
        // This database's advisory locks only: instances of other test files hold their own job locks meanwhile.
        const locks = await check.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
        expect(Number(locks.rows[0].n)).toBe(0);
      } finally {
        await check.end();
      }
    } finally {
      for (const t of apps) await t.close();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});

describe('the embedded database has no replicas', () => {
  it('refuses DATABASE_READ_URL at boot with one line naming the variable', async () => {
    await expect(startTestApp({ db: 'embedded', env: { DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:5433/x' } })).rejects.toThrow(
      'DATABASE_READ_URL: needs DATABASE_URL (the embedded database has no replicas)',
    );
  });
});
