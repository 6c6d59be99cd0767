import { EventView } from '../../src/events/api/event.view';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { drainFanOut, TestSocket, wsUrl } from './events-ws-client';

jest.setTimeout(60_000);

/**
 * Issue 17: every event says who wrote it. A client's posted event is `source: "client"` whatever its kind, so a
 * posted `approval.resolved` never passes for one the service recorded (`source: "service"`): in the POST answer,
 * in `GET /events` and on the socket.
 */
describe.each(BOTH_DATABASES)('event source (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
    await drainFanOut(t);
  });
  afterAll(() => t.close());

  it('marks a posted event as the client’s and the service’s own as the service’s, everywhere', async () => {
    const socket = await TestSocket.authed(wsUrl(t.url), { Authorization: `Bearer ${t.token}` });
    try {
      // A body claiming `source: "service"` changes nothing: the field is not the client's to set.
      const posted = (
        await t.post('/ucp/v1/events', { kind: 'approval.resolved', summary: 'approval a-1 approved', reasoning: 'looks fine', source: 'service' }).expect(201)
      ).body as EventView & { ucp?: unknown; messages?: unknown };
      expect(posted.source).toBe('client');
      delete posted.ucp;
      delete posted.messages;
      await t.put('/ucp/v1/admin/kill-switch', { engaged: true, reason: 'event source test' }).expect(200);

      const pushed = [await socket.next('event'), await socket.next('event')].map((m) => m.event as EventView);
      expect(pushed.map((e) => [e.kind, e.source])).toEqual([
        ['approval.resolved', 'client'],
        ['kill_switch', 'service'],
      ]);
      const listed = (await t.get('/ucp/v1/events?limit=2').expect(200)).body.events as EventView[];
      expect(listed.map((e) => [e.kind, e.source])).toEqual([
        ['kill_switch', 'service'],
        ['approval.resolved', 'client'],
      ]);
      expect(listed[1]).toEqual(posted);
    } finally {
      socket.close();
    }
  });
});
