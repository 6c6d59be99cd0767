import { EventsRepository } from '../../../src/events/events.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('EventsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: EventsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([EventsRepository]);
    repo = h.get(EventsRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM events'));

  const record = (kind: string, location?: string) => repo.insert({ kind, summary: `${kind} happened`, reasoning: 'because', location, data: { kind }, source: 'service' });

  it('inserts and answers the stored event, with its sequence number and time', async () => {
    const e = await record('checkout.completed', 'm1');
    expect(e).toMatchObject({ kind: 'checkout.completed', location: 'm1', data: { kind: 'checkout.completed' }, source: 'service' });
    expect(e.occurredAt).toBeInstanceOf(Date);
    expect(Number(e.seq)).toBeGreaterThan(0);
    expect(await repo.findById(e.id)).toMatchObject({ id: e.id, seq: e.seq, summary: 'checkout.completed happened' });
  });

  it('lists newest first, by location and kind, within the limit', async () => {
    const a = await record('a', 'm1');
    const b = await record('b', 'm2');
    const c = await record('a', 'm2');
    expect((await repo.list({ limit: 10 })).map((e) => e.id)).toEqual([c.id, b.id, a.id]);
    expect((await repo.list({ limit: 2 })).map((e) => e.id)).toEqual([c.id, b.id]);
    expect((await repo.list({ limit: 10, location: 'm2' })).map((e) => e.id)).toEqual([c.id, b.id]);
    expect((await repo.list({ limit: 10, location: 'm2', kind: 'a' })).map((e) => e.id)).toEqual([c.id]);
  });

  it('feeds the events after a sequence number, oldest first, within the limit; knows the last number', async () => {
    expect(await repo.maxSeq()).toBe('0');
    const a = await record('a');
    const b = await record('b');
    const c = await record('c');
    expect(await repo.maxSeq()).toBe(c.seq);
    expect((await repo.listAfterSeq(a.seq, 10)).map((e) => e.id)).toEqual([b.id, c.id]);
    expect((await repo.listAfterSeq('0', 2)).map((e) => e.id)).toEqual([a.id, b.id]);
  });

  it('writes in the current transaction: a rollback leaves no event', async () => {
    await expect(
      h.tx.run(async () => {
        await record('lost');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await repo.list({ limit: 10 })).toEqual([]);
  });
});
