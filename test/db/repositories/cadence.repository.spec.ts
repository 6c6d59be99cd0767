import { CadenceRepository } from '../../../src/replenishment/plan/cadence.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

/** The plan's measured cadences read what happened: runs placed and visits that loaded goods, within the window. */
describe('CadenceRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: CadenceRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([CadenceRepository]);
    repo = h.get(CadenceRepository);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sql('DELETE FROM replenishment_runs; DELETE FROM machine_visits'));

  const at = (iso: string) => new Date(iso);

  it('placed times within the window, newest first; runs never placed are not read', async () => {
    const run = (id: string, placed: string | null) =>
      h.sql(
        `INSERT INTO replenishment_runs (id, status, fulfiller, fulfiller_kind, cost_is_estimated, lines, placed_at) VALUES ($1, $2, 'sim', 'simulated_supplier', true, '[]', $3)`,
        [id, placed ? 'placed' : 'ready', placed],
      );
    await run('r1', '2026-11-01T02:00:00Z');
    await run('r2', '2026-11-03T02:00:00Z');
    await run('r3', null);
    await run('r4', '2026-10-01T02:00:00Z');
    const got = await repo.placedTimes(at('2026-10-20T00:00:00Z'), at('2026-11-10T00:00:00Z'));
    expect(got.map((d) => d.toISOString())).toEqual(['2026-11-03T02:00:00.000Z', '2026-11-01T02:00:00.000Z']);
  });

  it('visit times per machine, oldest first; a visit that loaded nothing is no visit of the cadence', async () => {
    const visit = (id: string, loc: string, when: string, loaded: number) =>
      h.sql(`INSERT INTO machine_visits (id, location_id, recorded_at, units_loaded, units_returned, slots) VALUES ($1, $2, $3, $4, 0, '[]')`, [id, loc, when, loaded]);
    await visit('v1', 'M1', '2026-11-05T03:00:00Z', 12);
    await visit('v2', 'M1', '2026-11-01T03:00:00Z', 8);
    await visit('v3', 'M1', '2026-11-07T03:00:00Z', 0);
    await visit('v4', 'M2', '2026-11-02T03:00:00Z', 5);
    const got = await repo.visitTimes(at('2026-10-20T00:00:00Z'), at('2026-11-10T00:00:00Z'));
    expect(Object.fromEntries([...got.entries()].map(([k, v]) => [k, v.map((d) => d.toISOString())]))).toEqual({
      M1: ['2026-11-01T03:00:00.000Z', '2026-11-05T03:00:00.000Z'],
      M2: ['2026-11-02T03:00:00.000Z'],
    });
  });
});
