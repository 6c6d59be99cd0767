import { LocationsRepository } from '../../../src/locations/locations.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('LocationsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: LocationsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([LocationsRepository]);
    repo = h.get(LocationsRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM locations; DELETE FROM slots'));

  const upsert = (id: string, more: { name?: string; namespace?: string; profile?: Record<string, unknown> | null; amenities?: string[] | null } = {}) =>
    repo.upsert({ id, namespace: more.namespace ?? 'vm', name: more.name ?? `machine ${id}`, profile: more.profile ?? null, amenities: more.amenities ?? null });
  const slot = (id: string, location: string, sku: string) =>
    h.sql(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, $2, 'vm', 'v', $3, 't', 100, 1)`, [id, location, sku]);

  it('registers, then updates: a null profile or amenities keeps what is stored', async () => {
    const first = await upsert('m1', { profile: { site: 'Lobby' }, amenities: ['wifi'] });
    expect(first.created).toBe(true);
    expect(first.location).toMatchObject({ id: 'm1', profile: { site: 'Lobby' }, context: { amenities: ['wifi'] } });
    const second = await upsert('m1', { name: 'renamed' });
    expect(second.created).toBe(false);
    expect(second.location).toMatchObject({ name: 'renamed', profile: { site: 'Lobby' }, context: { amenities: ['wifi'] } });
    const third = await upsert('m1', { profile: {}, amenities: ['ac'] });
    expect(third.location).toMatchObject({ profile: {}, context: { amenities: ['ac'] } });
    expect(await repo.find('m1')).toEqual(third.location);
  });

  it('deletes and answers what the row held, or null when there was none', async () => {
    await upsert('m1', { profile: { site: 'Lobby' } });
    expect(await repo.deleteReturning('m1')).toMatchObject({ id: 'm1', profile: { site: 'Lobby' } });
    expect(await repo.find('m1')).toBeNull();
    expect(await repo.deleteReturning('m1')).toBeNull();
  });

  it('lists all (or one namespace) by id and maps ids to names', async () => {
    await upsert('m2', { namespace: 'other' });
    await upsert('m1');
    await upsert('m3');
    expect((await repo.all()).map((l) => l.id)).toEqual(['m1', 'm2', 'm3']);
    expect((await repo.all('vm')).map((l) => l.id)).toEqual(['m1', 'm3']);
    expect(await repo.names([])).toEqual(new Map());
    expect(await repo.names(['m1', 'm9'])).toEqual(new Map([['m1', 'machine m1']]));
  });

  it('searches names and profile values, machines carrying every sku, amenities, with an id keyset', async () => {
    await upsert('m1', { name: 'Station North', amenities: ['wifi', 'ac'] });
    await upsert('m2', { name: 'Plaza', profile: { site: 'north gate' }, amenities: ['wifi'] });
    await upsert('m3', { name: 'Depot' });
    await slot('m1:1', 'm1', 'vm:cola');
    await slot('m1:2', 'm1', 'vm:chips');
    await slot('m2:1', 'm2', 'vm:cola');
    const ids = async (q: Parameters<LocationsRepository['search']>[0]) => (await repo.search(q)).map((l) => l.id);
    expect(await ids({ pattern: '%north%', limit: 10 })).toEqual(['m1', 'm2']);
    expect(await ids({ skuIds: ['vm:cola'], limit: 10 })).toEqual(['m1', 'm2']);
    expect(await ids({ skuIds: ['vm:cola', 'vm:chips', 'vm:cola'], limit: 10 })).toEqual(['m1']);
    expect(await ids({ amenities: ['wifi'], limit: 10 })).toEqual(['m1', 'm2']);
    expect(await ids({ amenities: ['wifi', 'ac'], limit: 10 })).toEqual(['m1']);
    expect(await ids({ limit: 2 })).toEqual(['m1', 'm2']);
    expect(await ids({ afterId: 'm2', limit: 2 })).toEqual(['m3']);
  });
});
