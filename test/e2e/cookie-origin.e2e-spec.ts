import { expectError } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';
import { signedInCookie } from '../support/session-cookie';

/**
 * Issue 17 item 4: a request authenticated by the `vending_auth` cookie must come from the service's own origin or
 * one in SERVICE_CORS_ORIGINS (the socket's rule); a state-changing cookie request without Origin is refused; a
 * bearer token is unaffected.
 */
describe.each(BOTH_DATABASES)('the auth cookie on HTTP routes (%s)', (db) => {
  let t: TestApp;
  let own: string;
  beforeAll(async () => {
    t = await startTestApp({ db, env: { SERVICE_CORS_ORIGINS: 'https://dash.example' } });
    own = t.url; // http://127.0.0.1:PORT: the Host the requests carry
    cookie = await signedInCookie(t); // a console session (issue 26: the cookie never holds the token)
  });
  afterAll(() => t.close());

  let cookie: string;
  const event = (n: string) => ({ kind: 'note', summary: `cookie ${n}`, reasoning: 'issue 17' });
  const stored = async (n: string) =>
    ((await t.get('/ucp/v1/events?kind=note&limit=500')).body.events as { summary: string }[]).filter((e) => e.summary === `cookie ${n}`).length;

  it('a page on another site cannot write through the cookie: 403 forbidden, nothing recorded', async () => {
    const res = await t.raw.post('/ucp/v1/events').set('Cookie', cookie).set('Origin', 'https://evil.example').send(event('evil'));
    expectError(res, 403, 'forbidden');
    expect(await stored('evil')).toBe(0);
    expectError(await t.raw.post('/ucp/v1/replenishment/runs').set('Cookie', cookie).set('Origin', 'https://evil.example'), 403, 'forbidden');
    expectError(await t.raw.post('/ucp/v1/locations/sync').set('Cookie', cookie).set('Origin', 'null'), 403, 'forbidden');
    expectError(await t.raw.get('/ucp/v1/approvals').set('Cookie', cookie).set('Origin', 'https://evil.example'), 403, 'forbidden');
  });

  it('a state-changing cookie request without Origin is refused; a read without Origin is served unless another site caused it', async () => {
    expectError(await t.raw.post('/ucp/v1/events').set('Cookie', cookie).send(event('no-origin')), 403, 'forbidden');
    expect(await stored('no-origin')).toBe(0);
    expect((await t.raw.get('/ucp/v1/approvals').set('Cookie', cookie)).status).toBe(200);
    expectError(await t.raw.get('/ucp/v1/approvals').set('Cookie', cookie).set('Sec-Fetch-Site', 'cross-site'), 403, 'forbidden');
  });

  it('the own origin and a configured dashboard origin write through the cookie', async () => {
    expect((await t.raw.post('/ucp/v1/events').set('Cookie', cookie).set('Origin', own).send(event('own'))).status).toBe(201);
    expect((await t.raw.post('/ucp/v1/events').set('Cookie', cookie).set('Origin', 'https://dash.example').set('Sec-Fetch-Site', 'cross-site').send(event('dash'))).status).toBe(201);
    expect(await stored('own')).toBe(1);
    expect(await stored('dash')).toBe(1);
  });

  it('the own host over another scheme is another origin (issue 26): https://<host> on this http service is refused', async () => {
    const otherScheme = own.replace(/^http:/, 'https:');
    expect(otherScheme).not.toBe(own);
    expectError(await t.raw.post('/ucp/v1/events').set('Cookie', cookie).set('Origin', otherScheme).send(event('scheme')), 403, 'forbidden');
    expectError(await t.raw.get('/ucp/v1/approvals').set('Cookie', cookie).set('Origin', otherScheme), 403, 'forbidden');
    expect(await stored('scheme')).toBe(0);
  });

  it('a bearer token is unaffected by Origin; a wrong cookie is still 401', async () => {
    expect((await t.post('/ucp/v1/events', event('bearer')).set('Origin', 'https://evil.example')).status).toBe(201);
    expectError(await t.raw.post('/ucp/v1/events').set('Cookie', 'vending_auth=wrong').set('Origin', own).send(event('x')), 401, 'unauthorized');
  });

  it('the OpenAPI document route applies the same rule', async () => {
    expectError(await t.raw.get('/ucp/v1/openapi.json').set('Cookie', cookie).set('Origin', 'https://evil.example'), 403, 'forbidden');
    expect((await t.raw.get('/ucp/v1/openapi.json').set('Cookie', cookie).set('Origin', own)).status).toBe(200);
  });
});
