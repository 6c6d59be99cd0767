import { EventView } from '../../src/events/api/event.view';
import { EventsService } from '../../src/events/events.service';
import { expectEnvelope, expectError } from '../support/envelope';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const PLUS8 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+08:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(BOTH_DATABASES)('GET and POST /ucp/v1/events (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(() => t.close());

  const list = async (query = '') => {
    const res = await t.get(`/ucp/v1/events${query}`).expect(200);
    expectEnvelope(res.body, 'success');
    return res.body.events as EventView[];
  };

  describe('POST', () => {
    it('answers 201 with the stored event: id, occurred_at in +08:00, the fields given', async () => {
      const before = Date.now();
      const res = await t.post('/ucp/v1/events', { kind: 'note', summary: 'Restocked loc-1 by hand', reasoning: 'the driver found it empty', location: 'loc-1' });
      expect(res.status).toBe(201);
      expectEnvelope(res.body, 'success');
      expect(res.body.ucp.capabilities['com.example.svc.events']).toBeDefined();
      expect(res.body).toMatchObject({ kind: 'note', source: 'client', summary: 'Restocked loc-1 by hand', reasoning: 'the driver found it empty', location: 'loc-1' });
      expect(res.body.id).toMatch(UUID);
      expect(res.body.occurred_at).toMatch(PLUS8);
      const at = Date.parse(res.body.occurred_at);
      expect(at).toBeGreaterThanOrEqual(before - 5000);
      expect(at).toBeLessThanOrEqual(Date.now() + 5000);
      expect((await list('?limit=1'))[0]).toEqual({
        id: res.body.id,
        kind: 'note',
        source: 'client',
        summary: 'Restocked loc-1 by hand',
        reasoning: 'the driver found it empty',
        location: 'loc-1',
        occurred_at: res.body.occurred_at,
      });
    });

    it('accepts a free kind string and no location', async () => {
      const res = await t.post('/ucp/v1/events', { kind: 'Free Text Kind!', summary: 's', reasoning: 'r' }).expect(201);
      expect(res.body.location).toBeUndefined();
    });

    it.each(['kind', 'summary', 'reasoning'])('answers 400 missing with the path when %s is absent', async (field) => {
      const body: Record<string, unknown> = { kind: 'k', summary: 's', reasoning: 'r' };
      delete body[field];
      const res = await t.post('/ucp/v1/events', body);
      expectError(res, 400, 'missing');
      expect(res.body.messages[0].path).toBe(`$.${field}`);
    });

    it('answers 400 missing for every absent field of an empty body, and stores nothing', async () => {
      const before = (await list('?limit=500')).length;
      const res = await t.post('/ucp/v1/events', {});
      expectError(res, 400, 'missing');
      expect(res.body.messages.map((m: { path: string }) => m.path).sort()).toEqual(['$.kind', '$.reasoning', '$.summary']);
      expect((await list('?limit=500')).length).toBe(before);
    });

    it('answers 400 invalid for a field of the wrong type', async () => {
      expectError(await t.post('/ucp/v1/events', { kind: 'k', summary: ['s'], reasoning: 'r' }), 400, 'invalid');
      expectError(await t.post('/ucp/v1/events', { kind: 'k', summary: 's', reasoning: 'r', location: 7 }), 400, 'invalid');
    });

    it.each(['kind', 'summary', 'reasoning', 'location'])('answers 400 invalid for an empty %s', async (field) => {
      const res = await t.post('/ucp/v1/events', { kind: 'k', summary: 's', reasoning: 'r', [field]: '' });
      expectError(res, 400, 'invalid');
      expect(res.body.messages[0].path).toBe(`$.${field}`);
    });

    it('does not deduplicate: the same body twice stores two events', async () => {
      const body = { kind: 'dup.check', summary: 'same', reasoning: 'same' };
      const one = await t.post('/ucp/v1/events', body).expect(201);
      const two = await t.post('/ucp/v1/events', body).expect(201);
      expect(one.body.id).not.toBe(two.body.id);
      const listed = await list('?kind=dup.check');
      expect(listed.map((e) => e.id)).toEqual([two.body.id, one.body.id]);
    });

    it('needs the token', async () => {
      expectError(await t.raw.post('/ucp/v1/events').send({ kind: 'k', summary: 's', reasoning: 'r' }), 401, 'unauthorized');
      expectError(await t.raw.get('/ucp/v1/events'), 401, 'unauthorized');
    });
  });

  describe('GET', () => {
    beforeAll(async () => {
      // 60 events: 20 of each kind, locations loc-a / loc-b / none, stored in a known order.
      const svc = t.app.get(EventsService);
      for (let i = 0; i < 60; i++) {
        const kind = ['list.alpha', 'list.beta', 'list.gamma'][i % 3];
        const location = i % 4 === 0 ? 'loc-a' : i % 4 === 1 ? 'loc-b' : null;
        await svc.recordClient({ kind, summary: `#${i}`, reasoning: 'fixture', location: location ?? undefined });
      }
    });

    it('lists newest first, 50 by default', async () => {
      const events = await list();
      expect(events).toHaveLength(50);
      expect(events[0].summary).toBe('#59');
      expect(events[1].summary).toBe('#58');
      expect(events[49].summary).toBe('#10');
      for (const e of events) expect(e.occurred_at).toMatch(PLUS8);
    });

    it('takes a limit up to 500', async () => {
      expect(await list('?limit=3')).toHaveLength(3);
      const all = await list('?limit=500');
      expect(all.length).toBeGreaterThanOrEqual(60);
      expect(all.length).toBeLessThanOrEqual(500);
    });

    it.each(['501', '0', '-1', '2.5', 'abc', ''])('answers 400 invalid for limit=%s', async (limit) => {
      const res = await t.get(`/ucp/v1/events?limit=${limit}`);
      expectError(res, 400, 'invalid');
      expect(res.body.messages[0].path).toBe('$.limit');
    });

    it('filters by kind', async () => {
      const events = await list('?kind=list.beta&limit=500');
      expect(events).toHaveLength(20);
      expect(events.every((e) => e.kind === 'list.beta')).toBe(true);
      expect(events[0].summary).toBe('#58');
    });

    it('filters by location', async () => {
      const events = await list('?location=loc-b&limit=500');
      expect(events).toHaveLength(15);
      expect(events.every((e) => e.location === 'loc-b')).toBe(true);
      expect(events.map((e) => e.summary).slice(0, 2)).toEqual(['#57', '#53']);
    });

    it('filters by kind and location together, newest first', async () => {
      const events = await list('?kind=list.alpha&location=loc-a&limit=500');
      expect(events.map((e) => e.summary)).toEqual(['#48', '#36', '#24', '#12', '#0']);
    });

    it('answers an empty list for a filter that matches nothing', async () => {
      expect(await list('?kind=no.such.kind')).toEqual([]);
    });
  });
});
