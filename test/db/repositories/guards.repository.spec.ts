import { GuardsRepository } from '../../../src/guards/guards.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';
import { waitUntil } from '../../support/wait-until';

describe('GuardsRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: GuardsRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([GuardsRepository]);
    repo = h.get(GuardsRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM guard_state; DELETE FROM spend_ledger'));

  const ledger = async () =>
    (await h.sql<{ ref: string; amount_fen: string; state: string }>('SELECT ref, amount_fen, state FROM spend_ledger ORDER BY ref')).map(
      (r) => `${r.ref}:${r.amount_fen}:${r.state}`,
    );

  it('writes the rules and the kill switch into one row, answering the previous switch', async () => {
    expect(await repo.get()).toBeNull();
    expect(await repo.setKillSwitch(true, 'drill')).toBeNull();
    await repo.upsertRules({ budget: { dailyFen: 1 } }, null);
    expect(await repo.setKillSwitch(false, 'over')).toBe(true);
    expect(await repo.get()).toMatchObject({ rules: { budget: { dailyFen: 1 } }, problem: null, killSwitch: false, killSwitchReason: 'over' });
    await repo.upsertRules(null, 'unreadable');
    expect(await repo.get()).toMatchObject({ rules: null, problem: 'unreadable', killSwitch: false });
  });

  it('moves a spend row only along the spend machine: money spent is never held again', async () => {
    await repo.upsertSpend('checkout', 'o1', 500, 'held');
    await repo.upsertSpend('checkout', 'o1', 600, 'uncertain');
    expect(await ledger()).toEqual(['o1:600:uncertain']);
    await repo.upsertSpend('checkout', 'o1', 600, 'spent');
    await repo.upsertSpend('checkout', 'o1', 700, 'held');
    await repo.setSpendState('checkout', 'o1', 'uncertain');
    expect(await ledger()).toEqual(['o1:600:spent']);
    await repo.upsertSpend('checkout', 'o2', 100, 'held');
    await repo.setSpendState('checkout', 'o2', 'spent');
    await repo.deleteSpend('checkout', 'o1');
    expect(await ledger()).toEqual(['o2:100:spent']);
  });

  it('sums the ledger since the day and the month start, leaving one (source, ref) out', async () => {
    const at = (ref: string, source: string, fen: number, when: string) =>
      h.sql(`INSERT INTO spend_ledger (source, ref, amount_fen, state, spent_at) VALUES ($1, $2, $3, 'spent', $4)`, [source, ref, fen, when]);
    await at('a', 'checkout', 100, '2026-03-10T05:00:00Z');
    await at('b', 'checkout', 20, '2026-03-02T05:00:00Z');
    await at('c', 'run', 3, '2026-03-10T06:00:00Z');
    await at('d', 'checkout', 4000, '2026-02-27T05:00:00Z');
    const day = new Date('2026-03-10T00:00:00Z');
    const month = new Date('2026-03-01T00:00:00Z');
    expect(await repo.spentSince(day, month)).toEqual({ dayFen: 103, monthFen: 123 });
    expect(await repo.spentSince(day, month, { source: 'checkout', ref: 'a' })).toEqual({ dayFen: 3, monthFen: 23 });
    expect(await repo.spentSince(day, month, { source: 'run', ref: 'a' })).toEqual({ dayFen: 103, monthFen: 123 });
  });

  it('serialises budget holds: a second transaction waits for the first to end', async () => {
    const seen: string[] = [];
    let firstHolds = false;
    const first = h.tx.run(async () => {
      await repo.lockBudget();
      firstHolds = true;
      await new Promise((r) => setTimeout(r, 400));
      seen.push('first done');
    });
    await waitUntil(() => firstHolds, { what: 'the first transaction to hold the budget lock' });
    const second = h.tx.run(async () => {
      await repo.lockBudget();
      seen.push('second locked');
    });
    await Promise.all([first, second]);
    expect(seen).toEqual(['first done', 'second locked']);
  });
});
