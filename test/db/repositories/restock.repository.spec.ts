import { RestockRepository } from '../../../src/restock/restock.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('RestockRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: RestockRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([RestockRepository]);
    repo = h.get(RestockRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM restock_orders; DELETE FROM locations'));

  const request = (reference: string, more: { namespace?: string; binding?: boolean } = {}) => ({
    namespace: more.namespace ?? 'vm',
    reference,
    locationId: 'm1',
    binding: more.binding ?? true,
    lines: [{ vendorSku: 'v1', quantity: 2 }],
    fingerprint: `f-${reference}`,
  });
  const order = async (reference: string, status: string, more: { createdAt?: string; checkedAt?: string | null; binding?: boolean } = {}) => {
    const [{ id }] = await h.sql<{ id: string }>(
      `INSERT INTO restock_orders (namespace, reference, location_id, binding, lines, fingerprint, status, created_at, checked_at)
       VALUES ('vm', $1, 'm1', $3, '[]', 'f', $2, COALESCE($4::timestamptz, now()), $5::timestamptz) RETURNING id`,
      [reference, status, more.binding ?? true, more.createdAt ?? null, more.checkedAt ?? null],
    );
    return id;
  };
  const claimedAgo = (id: string, seconds: number | null) =>
    h.sql(`UPDATE restock_orders SET claimed_at = CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(secs => $2::int) END WHERE id = $1`, [id, seconds]);
  const statusOf = async (id: string) => (await h.sql<{ status: string }>(`SELECT status FROM restock_orders WHERE id = $1`, [id]))[0].status;

  it('reads the location\'s synced slots of the goods asked, and no others (issue 37: the room of a binding order)', async () => {
    await h.sql('DELETE FROM slots');
    for (const [id, loc, sku, cap] of [['m1-v1', 'm1', 'v1', 12], ['m1-v1b', 'm1', 'v1', null], ['m2-v1', 'm2', 'v1', 5], ['m1-v2', 'm1', 'v2', 3]] as const) {
      await h.sql(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity) VALUES ($1, $2, 'vm', $3, $4, 't', 100, 1, $5)`, [id, loc, sku, `vm:${sku}`, cap]);
    }
    expect((await repo.slotsOf('m1', ['vm:v1', 'vm:v1'])).map((s) => [s.id, s.capacity])).toEqual([['m1-v1', 12], ['m1-v1b', null]]);
    expect(await repo.slotsOf('m1', [])).toEqual([]);
  });

  it('claims a reference once, stamping the database clock to the millisecond', async () => {
    const [{ now }] = await h.sql<{ now: Date }>('SELECT now() AS now');
    const claimed = await repo.claim(request('ref-1'));
    expect(claimed).toMatchObject({ namespace: 'vm', reference: 'ref-1', status: 'sending', fingerprint: 'f-ref-1' });
    expect(claimed!.claimedAt).toBeInstanceOf(Date);
    expect(Math.abs(claimed!.claimedAt!.getTime() - now.getTime())).toBeLessThan(60_000);
    const [{ micros }] = await h.sql<{ micros: number }>(`SELECT extract(microseconds FROM claimed_at)::int % 1000 AS micros FROM restock_orders WHERE id = $1`, [claimed!.id]);
    expect(micros).toBe(0);
    expect(await repo.claim({ ...request('ref-1'), fingerprint: 'other' })).toBeNull();
    expect(await repo.claim(request('ref-1', { namespace: 'other' }))).toMatchObject({ namespace: 'other', reference: 'ref-1' });
    expect((await repo.find('vm', 'ref-1'))?.fingerprint).toBe('f-ref-1');
  });

  it('claims a failed request again for a resend, once, with a new claim time', async () => {
    const id = await order('ref-1', 'failed');
    await h.sql(`UPDATE restock_orders SET recovered = 'unconfirmed' WHERE id = $1`, [id]);
    const again = await repo.reclaimFailed(id);
    expect(again).toMatchObject({ id, status: 'sending', recovered: null });
    expect(again!.claimedAt).toBeInstanceOf(Date);
    expect(await repo.reclaimFailed(id)).toBeNull();
    expect(await repo.reclaimFailed(await order('ref-2', 'sent'))).toBeNull();
  });

  it('settles a send only with the claim time that holds it', async () => {
    const claimed = (await repo.claim(request('ref-1')))!;
    const at = claimed.claimedAt!;
    expect(await repo.settleClaim(claimed.id, new Date(at.getTime() - 1), 'sent')).toBe(false);
    expect(await repo.settleClaim(claimed.id, null, 'sent')).toBe(false);
    expect(await repo.settleClaim(claimed.id, at, 'pending', { accepted: 2, externalRef: 'ext-1' })).toBe(true);
    expect(await repo.find('vm', 'ref-1')).toMatchObject({ status: 'pending', accepted: 2, externalRef: 'ext-1' });
    expect(await repo.settleClaim(claimed.id, at, 'failed')).toBe(false); // no longer sending
    await expect(repo.settleClaim(claimed.id, at, 'completed')).rejects.toThrow(); // not a move of the machine
  });

  it('releases a live claim (no claim time, still sending), then settles it with a null claim time', async () => {
    const claimed = (await repo.claim(request('ref-1')))!;
    expect(await repo.releaseClaim(claimed.id, new Date(claimed.claimedAt!.getTime() + 1))).toBe(false);
    expect(await repo.releaseClaim(claimed.id, claimed.claimedAt)).toBe(true);
    expect(await repo.find('vm', 'ref-1')).toMatchObject({ status: 'sending', claimedAt: null });
    expect(await repo.settleClaim(claimed.id, claimed.claimedAt, 'failed')).toBe(false);
    expect(await repo.settleClaim(claimed.id, null, 'failed')).toBe(true);
    expect(await statusOf(claimed.id)).toBe('failed');
  });

  it('lists expired sends: no claim time first (oldest request first), then oldest claim, within the limit', async () => {
    const fresh = await order('ref-fresh', 'sending');
    const old = await order('ref-old', 'sending');
    const nullNew = await order('ref-null-new', 'sending', { createdAt: '2026-01-02T00:00:00Z' });
    const nullOld = await order('ref-null-old', 'sending', { createdAt: '2026-01-01T00:00:00Z' });
    const failed = await order('ref-failed', 'failed');
    await claimedAgo(fresh, 5);
    await claimedAgo(old, 600);
    await claimedAgo(nullNew, null);
    await claimedAgo(nullOld, null);
    await claimedAgo(failed, 900);
    const refs = async (leaseMs: number, limit: number) => (await repo.expiredSending(leaseMs, limit)).map((r) => r.reference);
    expect(await refs(60_000, 10)).toEqual(['ref-null-old', 'ref-null-new', 'ref-old']);
    expect(await refs(60_000, 1)).toEqual(['ref-null-old']);
    expect(await refs(1_000, 10)).toEqual(['ref-null-old', 'ref-null-new', 'ref-old', 'ref-fresh']);
  });

  it('lists binding orders the platform has not finished, least recently checked first', async () => {
    await order('ref-checked', 'pending', { checkedAt: '2026-01-02T00:00:00Z' });
    await order('ref-never', 'in_progress', { createdAt: '2026-01-03T00:00:00Z' });
    await order('ref-never-older', 'pending', { createdAt: '2026-01-01T00:00:00Z' });
    await order('ref-done', 'completed');
    await order('ref-loose', 'pending', { binding: false });
    expect((await repo.open(10)).map((r) => r.reference)).toEqual(['ref-never-older', 'ref-never', 'ref-checked']);
    expect((await repo.open(1)).map((r) => r.reference)).toEqual(['ref-never-older']);
  });

  it('updates a request and reads the roster location it names', async () => {
    const id = await order('ref-1', 'pending');
    await repo.update(id, { status: 'completed', delivered: [{ vendorSku: 'v1', quantity: 2 }] });
    expect(await repo.find('vm', 'ref-1')).toMatchObject({ status: 'completed', delivered: [{ vendorSku: 'v1', quantity: 2 }] });
    expect(await repo.find('vm', 'ref-none')).toBeNull();
    await h.sql(`INSERT INTO locations (id, name, namespace) VALUES ('m1', 'Lobby', 'vm')`);
    expect(await repo.location('m1')).toMatchObject({ id: 'm1', name: 'Lobby', namespace: 'vm' });
    expect(await repo.location('m-none')).toBeNull();
  });
});
