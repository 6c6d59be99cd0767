import { ForecastingRepository } from '../../../src/forecasting/forecasting.repository';
import { RepositoryHarness, startRepositoryHarness } from '../../support/repository-harness';

describe('ForecastingRepository on PostgreSQL', () => {
  let h: RepositoryHarness;
  let repo: ForecastingRepository;
  beforeAll(async () => {
    h = await startRepositoryHarness([ForecastingRepository]);
    repo = h.get(ForecastingRepository);
  });
  afterAll(() => h.close());
  beforeEach(() =>
    h.sql('DELETE FROM slots; DELETE FROM slot_stock_days; DELETE FROM replenishment_forecasts; DELETE FROM replenishment_runs; DELETE FROM restock_orders; DELETE FROM sale_orders'),
  );

  const slot = (id: string, location: string, stock: number) =>
    h.sql(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, $2, 'vm', 'v', 'vm:v', 't', 100, $3)`, [id, location, stock]);
  const setStock = (id: string, stock: number) => h.sql(`UPDATE slots SET stock = $2 WHERE id = $1`, [id, stock]);
  const snapshots = async () => (await h.sql<{ slot_id: string; min_stock: number }>('SELECT slot_id, min_stock FROM slot_stock_days ORDER BY slot_id')).map((r) => `${r.slot_id}:${r.min_stock}`);

  it('records the day’s lowest stock per slot, of every slot or one location', async () => {
    await slot('m1:1', 'm1', 5);
    await slot('m2:1', 'm2', 8);
    await repo.recordSnapshot('m1');
    expect(await snapshots()).toEqual(['m1:1:5']);
    await setStock('m1:1', 7);
    await repo.recordSnapshot();
    expect(await snapshots()).toEqual(['m1:1:5', 'm2:1:8']);
    await setStock('m1:1', 2);
    await repo.recordSnapshot();
    expect(await snapshots()).toEqual(['m1:1:2', 'm2:1:8']);
  });

  it('keeps one forecast per slot and day: an unchanged one keeps its first time; counts those still pending', async () => {
    const morning = new Date('2026-03-01T01:00:00Z');
    const noon = new Date('2026-03-01T04:00:00Z');
    await repo.recordForecasts([{ slotId: 's1', locationId: 'm1', ratePerDay: 1.5, measured: true }, { slotId: 's2', locationId: 'm1', ratePerDay: 2, measured: false }], morning);
    await repo.recordForecasts([{ slotId: 's1', locationId: 'm1', ratePerDay: 1.5, measured: true }, { slotId: 's2', locationId: 'm1', ratePerDay: 3, measured: false }], noon);
    const rows = await h.sql<{ slot_id: string; made_at: Date; rate_per_day: number }>('SELECT slot_id, made_at, rate_per_day FROM replenishment_forecasts ORDER BY slot_id');
    expect(rows).toEqual([
      { slot_id: 's1', made_at: morning, rate_per_day: 1.5 },
      { slot_id: 's2', made_at: noon, rate_per_day: 3 },
    ]);
    expect(await repo.forecastCounts(7, new Date('2026-03-08T02:00:00Z'))).toEqual({ total: 2, pending: 1 });
    expect(await repo.forecastCounts(7, new Date('2026-03-09T00:00:00Z'))).toEqual({ total: 2, pending: 0 });
  });

  it('scores due forecasts per location against the sales of their horizon and of the one before', async () => {
    const madeAt = new Date('2026-03-01T00:00:00Z');
    await repo.recordForecasts([{ slotId: 'm1:1', locationId: 'm1', ratePerDay: 1, measured: true }], madeAt);
    let n = 0;
    const sale = async (qty: number, at: string) => {
      const id = `o${++n}`;
      await h.sql(`INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, trade_status) VALUES ($1, 'vm', 'm1', 0, $2, 'settled')`, [id, at]);
      await h.sql(`INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, quantity, price_fen, status) VALUES ($1, 1, 'v', 'vm:v', 'm1:1', $2, 100, 'paid')`, [id, qty]);
    };
    await sale(4, '2026-03-02T00:00:00Z'); // in the horizon
    await sale(1, '2026-02-27T00:00:00Z'); // in the horizon before (the naive forecast)
    await sale(50, '2026-03-05T00:00:00Z'); // after a 2-day horizon
    expect(await repo.scoreSums(2, new Date('2026-03-02T12:00:00Z'))).toEqual([]);
    expect(await repo.scoreSums(2, new Date('2026-03-10T00:00:00Z'))).toEqual([{ locationId: 'm1', count: 1, actual: 4, forecast: 2, absError: 2, naiveAbsError: 3 }]);
  });

  it('reads lead-time samples newest first: by fulfiller, by supplier of the runs of the kinds asked, by machine platform', async () => {
    const run = (id: string, fulfiller: string, kind: string, placed: string | null, delivered: string | null) =>
      h.sql(
        `INSERT INTO replenishment_runs (id, status, fulfiller, fulfiller_kind, cost_is_estimated, lines, placed_at, delivered_at) VALUES ($1, 'delivered', $2, $3, false, '[]', $4, $5)`,
        [id, fulfiller, kind, placed, delivered],
      );
    await run('r1', 'sup-a', 'supplier', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z');
    await run('r2', 'sup-a', 'supplier', '2026-03-03T00:00:00Z', '2026-03-05T00:00:00Z');
    await run('r3', 'sup-a', 'supplier', '2026-03-03T00:00:00Z', null);
    await run('r4', 'sup-a,sup-b', 'supply_checkout', '2026-03-01T00:00:00Z', '2026-03-04T00:00:00Z');
    await run('r5', 'sup-ab', 'supply_checkout', '2026-03-01T00:00:00Z', '2026-03-04T00:00:00Z');
    const spans = (xs: { startedAt: Date; finishedAt: Date }[]) => xs.map((x) => (x.finishedAt.getTime() - x.startedAt.getTime()) / 86_400_000);
    expect(spans(await repo.runLeadSamples('sup-a', 10))).toEqual([2, 1]);
    expect(spans(await repo.runLeadSamples('sup-a', 1))).toEqual([2]);
    expect(spans(await repo.supplierLineLeadSamples(['supply_checkout'], 'sup-b', 10))).toEqual([3]);
    expect(spans(await repo.supplierLineLeadSamples(['supply_checkout'], 'sup-a', 10))).toEqual([3]);
    // Only the runs of the kinds the caller names: r1-r3 list sup-a too.
    expect(spans(await repo.supplierLineLeadSamples(['supplier'], 'sup-b', 10))).toEqual([]);
    expect(spans(await repo.supplierLineLeadSamples(['supplier', 'supply_checkout'], 'sup-a', 10))).toEqual([2, 3, 1]);
    const order = (ns: string, binding: boolean, status: string, sent: string, done: string) =>
      h.sql(
        `INSERT INTO restock_orders (namespace, reference, location_id, binding, lines, fingerprint, status, sent_at, completed_at) VALUES ($1, gen_random_uuid()::text, 'm1', $2, '[]', 'f', $3, $4, $5)`,
        [ns, binding, status, sent, done],
      );
    await order('vm', true, 'completed', '2026-03-01T00:00:00Z', '2026-03-01T12:00:00Z');
    await order('vm', false, 'completed', '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z');
    await order('vm', true, 'failed', '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z');
    await order('other', true, 'completed', '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z');
    expect(spans(await repo.restockLeadSamples('vm', 10))).toEqual([0.5]);
  });

  it('a supply-checkout run samples each received line for the supplier it was ordered from only', async () => {
    const line = (slot: string, from: string) => ({ slot_id: slot, supply: { ordered_from: from } });
    const got = (slot: string, at: string) => ({ slot_id: slot, quantity: 1, received_at: at });
    await h.sql(
      `INSERT INTO replenishment_runs (id, status, fulfiller, fulfiller_kind, cost_is_estimated, lines, delivered, placed_at, delivered_at)
       VALUES ('r6', 'delivered', 'sup-a,sup-b', 'supply_checkout', false, $1, $2, '2026-03-01T00:00:00Z', '2026-03-05T00:00:00Z')`,
      [
        JSON.stringify([line('m1:1', 'sup-a'), line('m1:2', 'sup-b')]),
        JSON.stringify([got('m1:1', '2026-03-02T00:00:00Z'), got('m1:2', '2026-03-05T00:00:00Z')]),
      ],
    );
    const spans = (xs: { startedAt: Date; finishedAt: Date }[]) => xs.map((x) => (x.finishedAt.getTime() - x.startedAt.getTime()) / 86_400_000);
    expect(spans(await repo.supplierLineLeadSamples(['supply_checkout'], 'sup-a', 10))).toEqual([1]);
    expect(spans(await repo.supplierLineLeadSamples(['supply_checkout'], 'sup-b', 10))).toEqual([4]);
  });
});
