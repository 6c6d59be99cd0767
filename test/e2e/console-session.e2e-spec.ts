/**
 * Issue 19, server side of the operator console: sign-in answers the HttpOnly auth cookie, sign-out clears it, the
 * console's files are public under /console/ (the API stays authenticated), and GET /fleet summarises every machine.
 */
import { startFakePartner, FakePartner } from '../partners/fake-partner-server';
import { buildConsole } from '../support/console-build';
import { expectEnvelope, expectError } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';

const COOKIE = 'vending_auth';

describe.each(BOTH_DATABASES)('console sign-in, static files and fleet on %s database', (db) => {
  let t: TestApp;
  let p: FakePartner;
  const now = Date.now();
  beforeAll(async () => {
    p = await startFakePartner({ token: 'console-partner-secret' });
    p.state.inventory['m-1'] = [
      { vendorSku: 'COLA', title: 'Cola 330ml', priceFen: 350, stock: 4, capacity: 10 },
      { vendorSku: 'TEA', title: 'Green tea', priceFen: 400, stock: 0, capacity: 10 },
    ];
    p.state.ledger = [
      { orderNo: 'S-1', locationId: 'm-1', totalFen: 700, createdAt: now - 60_000, takenAt: now - 60_000, settledAt: now - 50_000, updatedAt: now - 50_000, finalized: true, state: 'settled', lines: [{ vendorSku: 'COLA', quantity: 2, priceFen: 350, status: 'paid', costFen: 200 }] },
      { orderNo: 'S-2', locationId: 'm-1', totalFen: 400, createdAt: now - 30_000, lines: [{ vendorSku: 'TEA', quantity: 1, priceFen: 400, status: 'refunded', costFen: null }] },
      { orderNo: 'S-3', locationId: 'm-1', totalFen: 350, createdAt: now - 3 * 86_400_000, takenAt: now - 3 * 86_400_000, settledAt: now - 3 * 86_400_000, updatedAt: now - 3 * 86_400_000, finalized: true, state: 'settled', lines: [{ vendorSku: 'COLA', quantity: 1, priceFen: 350, status: 'paid', costFen: 200 }] },
    ];
    t = await startTestApp({
      db,
      env: {
        SERVICE_CONSOLE_DIR: buildConsole(),
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: 'acme-machine', baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger'] }]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
        // X-Forwarded-Proto is believed from a named proxy only (issue 26): the test client is that proxy.
        SERVICE_TRUSTED_PROXIES: 'loopback',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await p?.close();
  });

  it('signs in with the operator token in a body and answers an HttpOnly, SameSite=Strict cookie that authenticates', async () => {
    const res = await t.raw.post('/ucp/v1/auth/session').send({ token: TEST_TOKEN }).expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body.signed_in).toBe(true);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${COOKIE}=`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure'); // plain http on loopback
    expect(res.headers['cache-control']).toBe('no-store');
    const pair = cookie.split(';')[0];
    await t.raw.get('/ucp/v1/admin/guards').set('Cookie', pair).expect(200);
    // Issue 26: the cookie holds a random session id, never the token; each sign-in gets its own.
    expect(pair).not.toContain(TEST_TOKEN);
    expect(pair).toMatch(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{43}$`));
    const second = String((await t.raw.post('/ucp/v1/auth/session').send({ token: TEST_TOKEN }).expect(200)).headers['set-cookie']).split(';')[0];
    expect(second).not.toBe(pair);
  });

  it('sign-out revokes the session server-side: the same cookie, replayed, authenticates nothing (REST and MCP)', async () => {
    const pair = String((await t.raw.post('/ucp/v1/auth/session').send({ token: TEST_TOKEN }).expect(200)).headers['set-cookie']).split(';')[0];
    await t.raw.get('/ucp/v1/admin/guards').set('Cookie', pair).expect(200);
    await t.raw.delete('/ucp/v1/auth/session').set('Cookie', pair).expect(200);
    expectError(await t.raw.get('/ucp/v1/admin/guards').set('Cookie', pair), 401, 'unauthorized');
    const mcp = await t.raw.post('/ucp/mcp').set('Cookie', pair).set('Accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(mcp.status).toBe(401);
    // A made-up session id is nothing either.
    expectError(await t.raw.get('/ucp/v1/admin/guards').set('Cookie', `${COOKIE}=${'A'.repeat(43)}`), 401, 'unauthorized');
  });

  it('refuses a wrong token with the 401 envelope and sets no cookie', async () => {
    const res = await t.raw.post('/ucp/v1/auth/session').send({ token: 'not-the-token' });
    expectError(res, 401, 'unauthorized');
    expect(res.headers['set-cookie']).toBeUndefined();
    expectError(await t.raw.post('/ucp/v1/auth/session').send({}), 400, 'missing');
  });

  it('parses an anonymous sign-in body of at most 4 KiB (the token comes before the body everywhere else)', async () => {
    expectError(await t.raw.post('/ucp/v1/auth/session').send({ token: 'x'.repeat(5000) }), 400, 'request_too_large');
  });

  it('marks the cookie Secure when a trusted proxy says the browser used https', async () => {
    const res = await t.raw.post('/ucp/v1/auth/session').set('X-Forwarded-Proto', 'https').send({ token: TEST_TOKEN }).expect(200);
    expect(String(res.headers['set-cookie'])).toContain('Secure');
  });

  it('refuses sign-in and sign-out from a page on another origin', async () => {
    expectError(await t.raw.post('/ucp/v1/auth/session').set('Origin', 'https://evil.example').send({ token: TEST_TOKEN }), 403, 'forbidden');
    expectError(await t.raw.delete('/ucp/v1/auth/session').set('Origin', 'https://evil.example'), 403, 'forbidden');
  });

  it('signs out by expiring the cookie', async () => {
    const res = await t.raw.delete('/ucp/v1/auth/session').expect(200);
    expect(res.body.signed_in).toBe(false);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${COOKIE}=;`));
    expect(cookie).toContain('Max-Age=0');
  });

  it('serves the console as public files with external scripts only, while the API stays authenticated', async () => {
    await t.raw.get('/console').expect(301).expect('Location', '/console/');
    const page = await t.raw.get('/console/').expect(200).expect('Content-Type', /text\/html/);
    expect(page.text).toContain('<div id="app">');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script: a strict CSP can hold
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page.text)![1];
    const js = await t.raw.get(`/console/${script}`).expect(200);
    expect(js.headers['cache-control']).toContain('immutable');
    expectError(await t.raw.get('/ucp/v1/fleet'), 401, 'unauthorized');
    expectError(await t.raw.get('/console/no-such-file.js'), 404, 'not_found');
  });

  it('summarises every machine: slots, sold out, fill, last sync and settled sales today and over 7 days', async () => {
    await t.put('/ucp/v1/locations/m-1', { name: 'Lobby' }).expect(200);
    await t.put('/ucp/v1/locations/m-2', { name: 'Gym' }).expect(200);
    const before = (await t.get('/ucp/v1/fleet').expect(200)).body;
    expect(before.machines.map((m: { id: string; last_synced_at: string | null }) => [m.id, m.last_synced_at])).toEqual([
      ['m-1', null],
      ['m-2', null],
    ]);
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
    const res = await t.get('/ucp/v1/fleet').expect(200);
    expectEnvelope(res.body, 'success');
    const m1 = res.body.machines.find((m: { id: string }) => m.id === 'm-1');
    expect(m1).toMatchObject({
      name: 'Lobby',
      namespace: 'acme-machine',
      slots: 2,
      sold_out_slots: 1,
      stock: 4,
      capacity: 20,
      fill_percent: 20,
      sales_7d: { orders: 2, total: { amount: 1050, currency: 'CNY' } },
    });
    // Today on the +08:00 calendar: S-1 (a minute ago) unless midnight passed in between; the refund never counts.
    expect([1, 0]).toContain(m1.sales_today.orders);
    expect(Date.now() - new Date(m1.last_synced_at).getTime()).toBeLessThan(120_000);
    expect(res.body.machines.find((m: { id: string }) => m.id === 'm-2')).toMatchObject({ slots: 0, fill_percent: null, last_synced_at: null });
  });
});
