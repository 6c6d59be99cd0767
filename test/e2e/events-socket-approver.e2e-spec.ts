import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { TestSocket, wsUrl } from './events-ws-client';

const APPROVER = 'owner-approver-token-7c1e9d2a';

/**
 * Issue 17's owner credential on the live feed: with SERVICE_APPROVER_TOKEN set, the owner (approver token) and the
 * operator both read events over the socket, by header or by the first message; any other token is refused.
 */
describe.each(BOTH_DATABASES)('event socket with an approver credential (%s)', (db) => {
  let t: TestApp;
  const open: TestSocket[] = [];
  beforeAll(async () => {
    t = await startTestApp({ db, env: { SERVICE_APPROVER_TOKEN: APPROVER } });
  });
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  afterAll(() => t?.close());

  const post = (summary: string) => t.post('/ucp/v1/events', { kind: 'approver.socket', summary, reasoning: 'r' }).expect(201);
  /** The event with this id on the socket: an event the service recorded itself meanwhile (a scheduled sync) may come first. */
  const eventWithId = async (s: TestSocket, id: string): Promise<string | undefined> => {
    for (;;) {
      const m = await s.next('event');
      if (m.event?.id === id) return m.event.id;
    }
  };

  it('the approver token by header reads the feed', async () => {
    const s = await TestSocket.authed(wsUrl(t.url), { Authorization: `Bearer ${APPROVER}` });
    open.push(s);
    const stored = (await post('seen by the owner')).body as { id: string };
    expect(await eventWithId(s, stored.id)).toBe(stored.id);
  });

  it('the approver token as the first message reads the feed; the operator token too', async () => {
    const owner = await TestSocket.open(wsUrl(t.url));
    open.push(owner);
    owner.send({ type: 'auth', token: APPROVER });
    expect((await owner.next()).type).toBe('authenticated');
    const operator = await TestSocket.authed(wsUrl(t.url), { Authorization: `Bearer ${t.token}` });
    open.push(operator);
    const stored = (await post('seen by both')).body as { id: string };
    expect(await eventWithId(owner, stored.id)).toBe(stored.id);
    expect(await eventWithId(operator, stored.id)).toBe(stored.id);
  });

  it('any other token is refused with 4401, by header or by message', async () => {
    const byHeader = await TestSocket.open(wsUrl(t.url), { Authorization: `Bearer ${APPROVER}x` });
    open.push(byHeader);
    expect((await byHeader.waitClose()).code).toBe(4401);
    const byMessage = await TestSocket.open(wsUrl(t.url));
    open.push(byMessage);
    byMessage.send({ type: 'auth', token: APPROVER.slice(0, -1) });
    expect((await byMessage.waitClose()).code).toBe(4401);
  });
});
