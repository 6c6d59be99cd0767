import { Client } from 'pg';
import { isErrorCode } from '../../src/common/errors/error-codes';
import request from 'supertest';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS } from '../support/money-fixtures';
import { createTestDatabase } from '../support/pg';
import { ensureReplicaAndPooler, hardRestartPgBouncer, lockReplicaForFile, onPort, PGBOUNCER_PORT, REPLICA_PORT } from '../support/replica';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 38, a hard restart of PgBouncer under load: its process killed (SIGTERM, then SIGKILL) and started again with
 * the same config, while two instances behind it serve keyed writes (checkout creates with an Idempotency-Key) and
 * reads (lists on the replica, a session just created on the primary). Statements in flight are cut. A client sees
 * its answers or a 503 envelope with Retry-After, never a 500; a keyed write sent again with its key ends with exactly
 * one session; a read after a write's answer finds the write. Takes the replica lock like the other replica files.
 */
const APPROVER = 'test-approver-token-3f9a1c6e';
const LINES = [{ item: { id: `${NS}:WATER` }, quantity: 1 }];

type Answer = { status: number; code?: string; retryAfter?: string; path: string };

describe('PgBouncer hard-restarted mid-load (real pooler, real replica)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let p: FakePartner;
  let a: TestApp;
  let b: TestApp;
  let primary: Client;
  let unlock: () => void = () => undefined;

  beforeAll(async () => {
    unlock = await lockReplicaForFile();
    await ensureReplicaAndPooler();
    db = await createTestDatabase();
    p = await startFakePartner({ token: 'sup-token' });
    p.state.catalog = [{ vendorSku: 'WATER', title: 'Water 550ml', packSize: 1, packPriceFen: 100, eachPriceFen: 100, stock: 100_000 }];
    const env = {
      SERVICE_ENV: 'production',
      SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: p.url, token: p.token, capabilities: ['catalog', 'orders'] }]),
      SERVICE_DEFAULT_SUPPLY_NAMESPACE: NS,
      DATABASE_READ_URL: onPort(db.url, REPLICA_PORT),
      DATABASE_LISTEN_URL: db.url,
      DATABASE_READ_PROBE_MS: '200',
      SERVICE_EVENT_PAGE_CACHE: 'off',
      SERVICE_APPROVER_TOKEN: APPROVER,
    };
    a = await startTestApp({ databaseUrl: onPort(db.url, PGBOUNCER_PORT), env });
    b = await startTestApp({ databaseUrl: onPort(db.url, PGBOUNCER_PORT), env });
    primary = new Client({ connectionString: db.url });
    await primary.connect();
    // The supplier catalog is cached before the load (a create then reads no partner).
    await a.post('/ucp/v1/checkout-sessions', { line_items: LINES }).expect(201);
  }, 240_000);

  afterAll(async () => {
    try {
      // A restart that failed half-way leaves no pooler: the instances close through it.
      await ensureReplicaAndPooler().catch(() => undefined);
      await primary?.end();
      await a?.close();
      await b?.close();
      await p?.close();
      await db?.drop();
    } finally {
      unlock();
    }
  });

  const answers: Answer[] = [];
  const note = (res: request.Response, path: string): request.Response => {
    answers.push({ status: res.status, code: res.body?.messages?.[0]?.code, retryAfter: res.headers['retry-after'], path });
    return res;
  };
  /** What a client does with a 503 or a key still in use: waits as told (at most 1 s here), sends it again. */
  const pause = (res: request.Response) => new Promise((r) => setTimeout(r, Math.min(1000, 1000 * Number(res.headers['retry-after'] ?? 1))));

  it('no 500; every 503 is the envelope with Retry-After; each keyed write has exactly one effect; reads see the writes', async () => {
    const sessionsBefore = Number((await primary.query<{ n: string }>('SELECT count(*) AS n FROM checkout_sessions')).rows[0].n);
    let stop = false;
    const created = new Map<string, string>();
    const stale: string[] = [];

    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const key = `hard-restart-${w}-${i}`;
        let res: request.Response;
        for (let attempt = 0; ; attempt++) {
          const t = (i + attempt) % 2 ? a : b;
          res = note(await t.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', key), 'create');
          const again = res.status === 503 || (res.status === 409 && res.body.messages[0].code === 'idempotency_key_in_use');
          if (!again || attempt >= 20) break;
          await pause(res);
        }
        expect(res.status).toBe(201);
        created.set(key, res.body.id as string);
        // The same client reads its write on the other instance right after the answer.
        for (let attempt = 0; ; attempt++) {
          const read = note(await ((i % 2 ? b : a).get(`/ucp/v1/checkout-sessions/${res.body.id}`)), 'session');
          if (read.status === 503 && attempt < 20) {
            await pause(read);
            continue;
          }
          if (read.status !== 200 || read.body.id !== res.body.id) stale.push(`${key}: ${read.status}`);
          break;
        }
      }
    };
    const reader = async (r: number) => {
      const paths = ['/ucp/v1/fleet', '/ucp/v1/orders', '/ucp/v1/events?limit=5', '/ucp/v1/sales/daily'];
      for (let i = 0; !stop; i++) {
        const path = paths[(i + r) % paths.length];
        note(await request((i % 2 ? a : b).app.getHttpServer()).get(path).set('Authorization', `Bearer ${APPROVER}`), path);
      }
    };

    const load = Promise.all([writer(1), writer(2), writer(3), reader(0), reader(1)]);
    await new Promise((r) => setTimeout(r, 1500));
    await hardRestartPgBouncer('SIGTERM');
    await new Promise((r) => setTimeout(r, 2000));
    await hardRestartPgBouncer('SIGKILL');
    await new Promise((r) => setTimeout(r, 2000));
    stop = true;
    await load;

    const byStatus: Record<string, number> = {};
    for (const x of answers) byStatus[x.status] = (byStatus[x.status] ?? 0) + 1;
    // The figures of the run (docs/operations.md quotes a run).
    const codes = answers.filter((x) => x.status >= 400).map((x) => `${x.status} ${x.code} (${x.path})`);
    console.log(`hard restart of PgBouncer under load: ${answers.length} answers ${JSON.stringify(byStatus)}, ${created.size} keyed creates; refusals: ${codes.join(', ') || 'none'}`);

    expect(answers.filter((x) => x.status >= 500 && x.status !== 503)).toEqual([]);
    const unavailable = answers.filter((x) => x.status === 503);
    // A 503 is `not_ready` (the connection died under the request), `idempotency_unavailable` (under the key's
    // store) or `guard_unverifiable` (under a guard's read: guards fail closed), each with Retry-After.
    expect(unavailable.filter((x) => !x.code || !isErrorCode(x.code) || !/^\d+$/.test(x.retryAfter ?? ''))).toEqual([]);
    expect(answers.filter((x) => ![200, 201, 409, 503].includes(x.status))).toEqual([]);
    expect(stale).toEqual([]);
    // Exactly one session per key, and no other.
    expect(created.size).toBeGreaterThan(20);
    expect(new Set(created.values()).size).toBe(created.size);
    const rows = await primary.query<{ id: string }>('SELECT id FROM checkout_sessions WHERE id = ANY($1)', [[...created.values()]]);
    expect(rows.rows.length).toBe(created.size);
    const sessionsAfter = Number((await primary.query<{ n: string }>('SELECT count(*) AS n FROM checkout_sessions')).rows[0].n);
    expect(sessionsAfter - sessionsBefore).toBe(created.size);
    const keys = await primary.query<{ n: string }>("SELECT count(*) AS n FROM idempotency_keys WHERE key LIKE 'hard-restart-%' AND state = 'done'");
    expect(Number(keys.rows[0].n)).toBe(created.size);
  }, 90_000);
});
