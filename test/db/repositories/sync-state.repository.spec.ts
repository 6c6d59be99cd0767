import { SyncStateRepository } from '../../../src/sync/sync-state.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('SyncStateRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: SyncStateRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([SyncStateRepository]);
    repo = h.get(SyncStateRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM sync_state'));

  it('claims each tick of a job once, and never an earlier one', async () => {
    expect(await repo.claimTick('ledger', 5)).toBe(true);
    expect(await repo.claimTick('ledger', 5)).toBe(false);
    expect(await repo.claimTick('ledger', 4)).toBe(false);
    expect(await repo.claimTick('inventory', 5)).toBe(true);
    expect(await repo.claimTick('ledger', 6)).toBe(true);
    expect((await repo.get('ledger'))?.lastTick).toBe(6);
  });

  it('keeps the latest success and failure times, and the last error (cut to 1000 characters)', async () => {
    expect(await repo.get('ledger')).toBeNull();
    const t = (iso: string) => new Date(iso);
    await repo.recordSuccess('ledger', t('2026-01-02T00:00:00Z'));
    await repo.recordSuccess('ledger', t('2026-01-01T00:00:00Z'));
    await repo.recordFailure('ledger', t('2026-01-03T00:00:00Z'), 'x'.repeat(2000));
    await repo.recordFailure('ledger', t('2026-01-02T12:00:00Z'), 'older failure');
    const s = await repo.get('ledger');
    expect(s).toMatchObject({ job: 'ledger', lastTick: null, lastSuccessAt: t('2026-01-02T00:00:00Z'), lastFailureAt: t('2026-01-03T00:00:00Z') });
    // The error is the last one recorded, whichever time it carries.
    expect(s?.lastError).toBe('older failure');
    await repo.recordFailure('ledger', t('2026-01-04T00:00:00Z'), 'y'.repeat(2000));
    expect((await repo.get('ledger'))?.lastError).toHaveLength(1000);
  });
});
