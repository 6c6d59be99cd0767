import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { STOCK_SNAPSHOT_INTERVAL, StockSnapshotJob } from '../../src/forecasting/demand/stock-snapshot.job';
import { expectEnvelope, expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * GET /replenishment/score on a hand-computed data set: two forecasts whose 7-day horizon has passed, one pending.
 *
 *   S1 (L1): rate 2/day → F = 14; sold in the horizon 10 (a refund, a cancelled line and an unsettled order ignored);
 *            sold in the 7 days before 12 (naive).
 *   S2 (L2): rate 1/day → F = 7; sold 9; naive 6.
 *   overall: ΣA = 19, ΣF = 21, Σ|A−F| = 4 + 2 = 6, Σ|A−N| = 2 + 3 = 5
 *            WAPE = 6/19 = 0.3158, bias = 2/19 = 0.1053, MASE = 6/5 = 1.2, MAE = 3
 *   L1: WAPE = 0.4, bias = 0.4, MASE = 4/2 = 2.   L2: WAPE = 2/9 = 0.2222, bias = −0.2222, MASE = 2/3 = 0.6667
 */
jest.setTimeout(60_000);

const DAY = 86_400_000;

describe('forecast scoring', () => {
  let t: TestApp;
  let ds: DataSource;
  const madeAt = new Date(Date.now() - 10 * DAY);
  let seq = 0;

  async function sale(slot: string, loc: string, at: Date, qty: number, status = 'paid', trade = 'settled'): Promise<void> {
    const id = `SC-${++seq}`;
    await ds.query(`INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, trade_status) VALUES ($1,'sim-machine',$2,100,$3,$4)`, [
      id,
      loc,
      at,
      trade,
    ]);
    await ds.query(
      `INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, quantity, price_fen, status) VALUES ($1,1,'x','sim-machine:x',$2,$3,100,$4)`,
      [id, slot, qty, status],
    );
  }
  const after = (h: number) => new Date(madeAt.getTime() + h * 3600_000);

  beforeAll(async () => {
    t = await startTestApp();
    ds = t.app.get(DataSource);
    const forecast = (slot: string, loc: string, at: Date, rate: number) =>
      ds.query(
        `INSERT INTO replenishment_forecasts (slot_id, location_id, day, made_at, rate_per_day, measured) VALUES ($1,$2,$3::timestamptz::date,$3,$4,true)`,
        [slot, loc, at, rate],
      );
    await forecast('L1-S1', 'L1', madeAt, 2);
    await forecast('L2-S2', 'L2', madeAt, 1);
    await forecast('L1-S1', 'L1', new Date(Date.now() - 2 * DAY), 3); // horizon not passed: pending
    // S1 in the horizon: 4 + 6 = 10 paid, settled.
    await sale('L1-S1', 'L1', after(5), 4);
    await sale('L1-S1', 'L1', after(6 * 24), 6);
    await sale('L1-S1', 'L1', after(30), 5, 'refunded');
    await sale('L1-S1', 'L1', after(31), 5, 'cancelled');
    await sale('L1-S1', 'L1', after(32), 5, 'paid', 'in_progress');
    await sale('L1-S1', 'L1', after(7 * 24 + 1), 50); // after the horizon
    // S1 in the 7 days before: 12 (naive).
    await sale('L1-S1', 'L1', after(-5), 12);
    await sale('L1-S1', 'L1', after(-8 * 24), 40); // before the naive window
    // S2: 9 in the horizon, 6 before.
    await sale('L2-S2', 'L2', after(1), 9);
    await sale('L2-S2', 'L2', after(-1), 6);
  });
  afterAll(() => t.close());

  it('scores the forecasts whose horizon has passed: WAPE headline, bias, MASE vs naive, overall and per location', async () => {
    const res = await t.get('/ucp/v1/replenishment/score?horizon_days=7').expect(200);
    expectEnvelope(res.body, 'success');
    expect(res.body).toMatchObject({ horizon_days: 7, total_forecasts: 3, pending: 1 });
    expect(res.body.reports.headline).toBe('wape');
    expect(res.body.reports.overall).toEqual({ forecasts: 2, actual_units: 19, forecast_units: 21, wape: 0.3158, bias: 0.1053, mase: 1.2, mae: 3 });
    expect(res.body.reports.per_location).toEqual([
      { location: 'L1', forecasts: 1, actual_units: 10, forecast_units: 14, wape: 0.4, bias: 0.4, mase: 2, mae: 4 },
      { location: 'L2', forecasts: 1, actual_units: 9, forecast_units: 7, wape: 0.2222, bias: -0.2222, mase: 0.6667, mae: 2 },
    ]);
  });

  it('defaults to a 7-day horizon; a longer horizon leaves more forecasts pending', async () => {
    const res = await t.get('/ucp/v1/replenishment/score').expect(200);
    expect(res.body.horizon_days).toBe(7);
    const long = await t.get('/ucp/v1/replenishment/score?horizon_days=14').expect(200);
    expect(long.body).toMatchObject({ horizon_days: 14, total_forecasts: 3, pending: 3 });
    expect(long.body.reports.overall.wape).toBeNull();
  });

  it('refuses a horizon that is not a positive integer', async () => {
    expectError(await t.get('/ucp/v1/replenishment/score?horizon_days=0'), 400, 'invalid');
    expectError(await t.get('/ucp/v1/replenishment/score?horizon_days=abc'), 400, 'invalid');
    expectError(await t.get('/ucp/v1/replenishment/score?horizon_days=2.5'), 400, 'invalid');
  });

  it('every plan records one forecast per slot per day, later scored', async () => {
    await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ('L3', 'sim-machine', 'm3')`);
    await ds.query(
      `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity) VALUES ('L3-Q','L3','sim-machine','Q','sim-machine:Q','q',100,1,5)`,
    );
    await t.get('/ucp/v1/replenishment/plan').expect(200);
    await t.get('/ucp/v1/replenishment/plan').expect(200);
    const rows = await ds.query(`SELECT rate_per_day, measured FROM replenishment_forecasts WHERE slot_id = 'L3-Q'`);
    expect(rows).toEqual([{ rate_per_day: 1, measured: false }]);
    const res = await t.get('/ucp/v1/replenishment/score?horizon_days=7').expect(200);
    expect(res.body).toMatchObject({ total_forecasts: 4, pending: 2 });
  });

  it('the hourly stock snapshot is skipped when this instance does not run the scheduler, and records the day otherwise', async () => {
    await ds.query(`DELETE FROM slot_stock_days`);
    // Skipped: with the scheduler off its interval is not registered, so nothing runs on its own.
    expect(t.app.get(SchedulerRegistry).doesExist('interval', STOCK_SNAPSHOT_INTERVAL)).toBe(false);
    expect(await ds.query(`SELECT count(*)::int AS n FROM slot_stock_days`)).toEqual([{ n: 0 }]);
    await t.app.get(StockSnapshotJob).tick();
    const rows = await ds.query(`SELECT slot_id, min_stock FROM slot_stock_days`);
    expect(rows).toEqual([{ slot_id: 'L3-Q', min_stock: 1 }]);
  });

  it('every replenishment route needs the operator token', async () => {
    for (const [method, path] of [
      ['get', '/ucp/v1/replenishment/plan'],
      ['get', '/ucp/v1/replenishment/score'],
      ['get', '/ucp/v1/replenishment/runs'],
      ['post', '/ucp/v1/replenishment/runs'],
      ['post', '/ucp/v1/replenishment/runs/x/place'],
      ['post', '/ucp/v1/replenishment/runs/x/receive'],
      ['post', '/ucp/v1/locations/L1/restock'],
    ] as const) {
      expectError(await t.raw[method](path), 401, 'unauthorized');
    }
  });
});
