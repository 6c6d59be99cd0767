import { IdempotencyKeysRepository } from '../../../src/idempotency/idempotency-keys.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('IdempotencyKeysRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: IdempotencyKeysRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([IdempotencyKeysRepository]);
    repo = h.get(IdempotencyKeysRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM idempotency_keys'));

  const claim = (key: string, claimId = 'c1', fingerprint = 'fp') => repo.claim({ key, fingerprint, operation: 'checkout.complete', resourceId: 'cs-1', claimId });
  const age = (key: string, column: 'claimed_at' | 'created_at', seconds: number) =>
    h.sql(`UPDATE idempotency_keys SET ${column} = now() - make_interval(secs => $2) WHERE key = $1`, [key, seconds]);

  it('claims an unused key once', async () => {
    expect(await claim('k1')).toBe(true);
    expect(await claim('k1', 'c2')).toBe(false);
    expect(await repo.find('k1')).toEqual({ fingerprint: 'fp', state: 'in_flight', response_status: null, response_body: null, claimed_at: expect.any(Date) });
    expect(await repo.find('k-none')).toBeUndefined();
  });

  it('takes over a stale in-flight claim of the same request only, once', async () => {
    await claim('k1');
    expect(await repo.takeOverStale('k1', 'fp', 'c2', 60)).toBeNull();
    await age('k1', 'claimed_at', 120);
    expect(await repo.takeOverStale('k1', 'other-fp', 'c2', 60)).toBeNull();
    expect(await repo.takeOverStale('k1', 'fp', 'c2', 60)).toBeInstanceOf(Date); // when the first attempt began
    expect(await repo.takeOverStale('k1', 'fp', 'c3', 60)).toBeNull();
    // The first claim's late answer changes nothing; the taking claim's answer is stored.
    await repo.storeOutcome('k1', 'c1', 201, { late: true });
    expect((await repo.find('k1'))?.state).toBe('in_flight');
    await repo.storeOutcome('k1', 'c2', 201, { ok: true });
    expect(await repo.find('k1')).toEqual({ fingerprint: 'fp', state: 'done', response_status: 201, response_body: { ok: true }, claimed_at: expect.any(Date) });
  });

  it('never takes over a stored answer', async () => {
    await claim('k1');
    await repo.storeOutcome('k1', 'c1', 200, { ok: true });
    await age('k1', 'claimed_at', 3600);
    expect(await repo.takeOverStale('k1', 'fp', 'c2', 60)).toBeNull();
  });

  it('issue 27: a resumed claim left resumable stays bound to its request, and the next retry of it takes it over at once', async () => {
    await claim('k1');
    await age('k1', 'claimed_at', 120);
    expect(await repo.takeOverStale('k1', 'fp', 'c2', 60)).toBeInstanceOf(Date);
    await repo.leaveResumable('k1', 'c-other'); // not the current claim: nothing changes
    expect(await repo.takeOverStale('k1', 'fp', 'c3', 60)).toBeNull();
    await repo.leaveResumable('k1', 'c2');
    expect((await repo.find('k1'))?.state).toBe('in_flight');
    expect(await repo.takeOverStale('k1', 'other-fp', 'c3', 60)).toBeNull();
    expect(await repo.takeOverStale('k1', 'fp', 'c3', 60)).toBeInstanceOf(Date);
  });

  it('releases only the current claim', async () => {
    await claim('k1');
    await repo.release('k1', 'c-other');
    expect(await repo.find('k1')).toBeDefined();
    await repo.release('k1', 'c1');
    expect(await repo.find('k1')).toBeUndefined();
  });

  it('forgets keys past retention: one by key, and in batches oldest first', async () => {
    for (const k of ['k-new', 'k-old1', 'k-old2', 'k-old3']) await claim(k);
    await age('k-old1', 'created_at', 30 * 3600);
    await age('k-old2', 'created_at', 40 * 3600);
    await age('k-old3', 'created_at', 50 * 3600);
    await repo.dropIfExpired('k-new');
    await repo.dropIfExpired('k-old1');
    expect(await repo.find('k-new')).toBeDefined();
    expect(await repo.find('k-old1')).toBeUndefined();
    expect(await repo.deleteExpiredBatch(1)).toBe(1);
    expect(await repo.find('k-old3')).toBeUndefined();
    expect(await repo.find('k-old2')).toBeDefined();
    expect(await repo.deleteExpiredBatch(10)).toBe(1);
    expect(await repo.deleteExpiredBatch(10)).toBe(0);
  });

  it('commits each statement on its own, even inside a transaction that rolls back', async () => {
    await expect(
      h.tx.run(async () => {
        await claim('k1');
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    expect(await repo.find('k1')).toBeDefined();
  });

  const answer = (key: string, fingerprint = 'fp', body: unknown = { ok: true }) =>
    repo.insertAnswer({ key, fingerprint, operation: 'checkout.create', resourceId: '' }, 201, body, 60);

  it('writes a key with its answer in the caller transaction: gone when it rolls back', async () => {
    await expect(
      h.tx.run(async () => {
        expect(await answer('k1')).toBe(true);
        throw new Error('the create failed');
      }),
    ).rejects.toThrow('the create failed');
    expect(await repo.find('k1')).toBeUndefined();
    await h.tx.run(async () => expect(await answer('k1')).toBe(true));
    expect(await repo.findLive('k1')).toEqual({ fingerprint: 'fp', state: 'done', response_status: 201, response_body: { ok: true }, claimed_at: expect.any(Date) });
  });

  it('an answer never replaces a live key; it replaces one past retention, or a dead claim of the same request', async () => {
    await answer('k1');
    expect(await answer('k1', 'fp', { second: true })).toBe(false);
    expect((await repo.find('k1'))?.response_body).toEqual({ ok: true });
    await age('k1', 'created_at', 30 * 3600);
    expect(await repo.findLive('k1')).toBeUndefined();
    expect(await answer('k1', 'other-fp', { third: true })).toBe(true);
    expect(await repo.findLive('k1')).toEqual({ fingerprint: 'other-fp', state: 'done', response_status: 201, response_body: { third: true }, claimed_at: expect.any(Date) });

    await claim('k2');
    expect(await answer('k2')).toBe(false);
    await age('k2', 'claimed_at', 120);
    expect(await answer('k2', 'other-fp')).toBe(false);
    expect(await answer('k2')).toBe(true);
    expect((await repo.find('k2'))?.state).toBe('done');
  });
});
