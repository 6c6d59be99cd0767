import { Fleet, startFleetWithApp } from '../support/fleet';
import { expectError } from '../support/envelope';
import { TestApp } from '../support/test-app';

/** Issue 30: settled sales per +08:00 day with today's and 7 days' totals, summed by the service. */
jest.setTimeout(90_000);

describe.each(['postgres', 'embedded'] as const)('GET /sales/daily (%s)', (db) => {
  let fleet: Fleet;
  let t: TestApp;
  let close: () => Promise<void>;
  const DAY = 86_400_000;
  const plus8 = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
  beforeAll(async () => {
    ({ fleet, t, close } = await startFleetWithApp({}, db));
    const now = Date.now();
    const sale = (orderNo: string, locationId: string, ago: number, totalFen: number, status = 'paid', state = 'settled') => ({
      orderNo,
      locationId,
      totalFen,
      createdAt: now - ago,
      takenAt: now - ago,
      settledAt: now - ago + 1000,
      updatedAt: now - ago + 1000,
      finalized: true,
      state,
      lines: [{ vendorSku: 'COLA', title: 'Cola 330ml', quantity: 1, priceFen: totalFen, status, costFen: 200 }],
    });
    fleet.acme.state.ledger = [
      sale('S1', 'FLEET-1', 60_000, 700),
      sale('S2', 'FLEET-2', 2 * DAY, 1050),
      sale('S3', 'FLEET-1', 10 * DAY, 350),
      sale('R1', 'FLEET-1', 120_000, 350, 'refunded', 'refunded'),
    ];
    await t.post('/ucp/v1/locations/sync', {}).expect(200);
  });
  afterAll(() => close());

  it('sums settled sales per day, today and over 7 days, with no day after today', async () => {
    const b = (await t.get('/ucp/v1/sales/daily').expect(200)).body;
    expect(b.days).toHaveLength(14);
    expect(b.days[13].day).toBe(plus8(Date.now()));
    expect(b.today).toEqual({ orders: 1, total: { amount: 700, currency: 'CNY' } });
    expect(b.last_7_days).toEqual({ orders: 2, total: { amount: 1750, currency: 'CNY' } });
    expect(b.range_total).toEqual({ orders: 3, total: { amount: 2100, currency: 'CNY' } });
    expect(b.days.find((d: { day: string }) => d.day === plus8(Date.now() - 10 * DAY)).total.amount).toBe(350);
    const future = (await t.get(`/ucp/v1/sales/daily?to=${plus8(Date.now() + 5 * DAY)}`).expect(200)).body;
    expect(future.days[future.days.length - 1].day).toBe(plus8(Date.now()));
  });

  it('filters by machine and refuses a reversed range in words', async () => {
    const b = (await t.get('/ucp/v1/sales/daily?location=FLEET-2').expect(200)).body;
    expect(b.range_total.total.amount).toBe(1050);
    expect(b.today.orders).toBe(0);
    const bad = await t.get(`/ucp/v1/sales/daily?from=${plus8(Date.now())}&to=${plus8(Date.now() - 3 * DAY)}`);
    expectError(bad, 400, 'invalid');
    expect(bad.body.messages[0]).toMatchObject({ path: '$.from', content: 'the first day is after the last one' });
  });
});
