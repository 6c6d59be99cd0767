import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { expectError } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const NS = 'acme-machine';
const MACHINES = ['c-1', 'c-2', 'c-3'];

function env(url: string) {
  return {
    SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: url, token: 't', capabilities: ['inventory', 'ledger'] }]),
    SERVICE_DEFAULT_MACHINE_NAMESPACE: NS,
  };
}

/** Partner calls of one sync pass: one inventory read per machine, and the ledger pages. */
function partnerCalls(p: FakePartner) {
  return { inventory: p.requestsTo('GET /inventory').length, ledger: p.requestsTo('GET /ledger').length };
}

function since(p: FakePartner, before: ReturnType<typeof partnerCalls>) {
  const now = partnerCalls(p);
  return { inventory: now.inventory - before.inventory, ledger: now.ledger - before.ledger };
}

async function roster(t: TestApp, p: FakePartner) {
  for (const id of MACHINES) {
    await t.put(`/ucp/v1/locations/${id}`, { name: id }).expect(200);
    p.state.inventory[id] = [{ vendorSku: 'COLA', title: 'Cola', priceFen: 300, stock: 3 }];
  }
}

/**
 * Issue 17: concurrent `POST /locations/sync` (20 at once took 5.6 s each and doubled the memory). One sync runs at
 * a time per deployment: requests over the same window join the running one (one partner pass, one answer), another
 * window or another instance's running sync is 409 `sync_in_progress`.
 */
describe.each(BOTH_DATABASES)('concurrent POST /locations/sync (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 't' });
    t = await startTestApp({ db, env: env(p.url) });
    await roster(t, p);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  it('20 requests at once share one partner pass and one answer', async () => {
    const alone = partnerCalls(p);
    const single = (await t.post('/ucp/v1/locations/sync', {}).expect(200)).body;
    const onePass = since(p, alone);
    expect(onePass.inventory).toBe(MACHINES.length);

    p.fault('GET /inventory', { delayMs: 400 });
    const before = partnerCalls(p);
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.post('/ucp/v1/locations/sync', {})));
    p.clearFaults();
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(since(p, before)).toEqual(onePass);
    const bodies = answers.map((r) => JSON.stringify(r.body));
    expect(new Set(bodies).size).toBe(1);
    expect(answers[0].body).toMatchObject({ locations: single.locations, slots: single.slots });
  });

  it('a request for another window while one runs is 409 sync_in_progress; after it ends a sync runs again', async () => {
    p.fault('GET /inventory', { delayMs: 400 });
    const running = t.post('/ucp/v1/locations/sync', { sales_window_days: 30 }).then((r) => r); // sent now (supertest is lazy)
    await new Promise((r) => setTimeout(r, 150));
    const other = await t.post('/ucp/v1/locations/sync', { sales_window_days: 60 });
    expectError(other, 409, 'sync_in_progress');
    expect(other.body.messages[0].content).toMatch(/30 day/);
    expect((await running).status).toBe(200);
    p.clearFaults();
    const before = partnerCalls(p);
    await t.post('/ucp/v1/locations/sync', { sales_window_days: 60 }).expect(200);
    expect(since(p, before).inventory).toBe(MACHINES.length);
  });

  it('a failed sync is answered to every request that joined it, and does not stay running', async () => {
    p.fault('GET /inventory', { delayMs: 300, status: 503 });
    p.fault('GET /ledger', { delayMs: 300, status: 503 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.post('/ucp/v1/locations/sync', {})));
    p.clearFaults();
    for (const a of answers) expectError(a, 502, 'upstream_unreachable');
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
  });
});

describe('POST /locations/sync on two instances sharing one PostgreSQL database', () => {
  let p: FakePartner;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 't' });
    a = await startTestApp({ env: env(p.url) });
    b = await startTestApp({ databaseUrl: a.databaseUrl!, env: env(p.url) });
    await roster(a, p);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await p.close();
  });

  it('runs one sync across both: the other instance answers 409 sync_in_progress while it runs', async () => {
    p.fault('GET /inventory', { delayMs: 600 });
    const before = partnerCalls(p);
    const onA = a.post('/ucp/v1/locations/sync', {}).then((r) => r); // sent now (supertest is lazy)
    await new Promise((r) => setTimeout(r, 250));
    const onB = await b.post('/ucp/v1/locations/sync', {});
    expectError(onB, 409, 'sync_in_progress');
    expect(onB.body.messages[0].content).toMatch(/another instance/);
    expect((await onA).status).toBe(200);
    p.clearFaults();
    expect(since(p, before).inventory).toBe(MACHINES.length);
    await b.post('/ucp/v1/locations/sync', {}).expect(200);
  });
});
