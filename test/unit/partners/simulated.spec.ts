import { LedgerRecord, PartnerError } from '../../../src/partners/adapter.types';
import { parseCatalog, parseInventory, parseLedgerPage } from '../../../src/partners/http/contract-parsers';
import { DAY_MS, HOUR_MS } from '../../../src/partners/simulated/mock-data';
import { CALL_LOG_LIMIT, SimulatedMachinePlatform } from '../../../src/partners/simulated/simulated-machine-platform';
import { SimulatedSupplier } from '../../../src/partners/simulated/simulated-supplier';

const NOW = Date.parse('2026-08-25T15:30:00+08:00');
const TRADE_STATES = ['in_progress', 'pending_review', 'settled', 'payment_failed', 'refunded', 'cancelled'];

function clock(start = NOW) {
  const c = { t: start, now: () => c.t };
  return c;
}

async function allRecords(p: SimulatedMachinePlatform, fromMs: number, toMs: number, by: 'updated' | 'created', size = 100) {
  const out: LedgerRecord[] = [];
  for (let page = 1; ; page++) {
    const r = await p.getLedger({ fromMs, toMs, page, size, by });
    out.push(...r.records);
    if (!r.hasMore) return { records: out, pages: page };
  }
}

async function rejectedWith(promise: Promise<unknown>, text: string): Promise<void> {
  const e = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PartnerError);
  expect((e as PartnerError).kind).toBe('rejected');
  expect((e as PartnerError).reason).toContain(text);
}

describe('SimulatedMachinePlatform', () => {
  it('has four machines with 12-20 slots, integer prices, EAN-13 barcodes and the machine capabilities', async () => {
    const p = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    expect(p.simulated).toBe(true);
    expect(p.vendor).toBe('sim');
    expect([...p.capabilities].sort()).toEqual(['inventory', 'ledger', 'pricing', 'replenishment.order', 'replenishment.recommend']);
    expect(p.locations().map((l) => l.locationId)).toEqual(['sim-loc-01', 'sim-loc-02', 'sim-loc-03', 'sim-loc-04']);
    const skus = new Set<string>();
    for (const { locationId } of p.locations()) {
      const inv = await p.getInventory(locationId);
      expect(inv.items.length).toBeGreaterThanOrEqual(12);
      expect(inv.items.length).toBeLessThanOrEqual(20);
      // What the simulated partner serves must itself pass the contract's checks.
      expect(parseInventory(JSON.parse(JSON.stringify(inv))).rejected).toEqual([]);
      for (const i of inv.items) {
        skus.add(i.vendorSku);
        expect(Number.isSafeInteger(i.priceFen) && i.priceFen > 0).toBe(true);
        expect(i.stock).toBeLessThanOrEqual(i.capacity!);
        expect(i.barcode).toMatch(/^69\d{11}$/);
        const d = [...i.barcode!].map(Number);
        expect(d.slice(0, 12).reduce((s, x, k) => s + x * (k % 2 ? 3 : 1), 0) % 10).toBe((10 - d[12]) % 10);
      }
    }
    expect(skus.size).toBeGreaterThan(25);
  });

  it('is deterministic: two instances with the same seed and clock serve the same data', async () => {
    const a = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    const b = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    const q = { fromMs: NOW - 3 * DAY_MS, toMs: NOW, page: 2, size: 50, by: 'updated' as const };
    expect(await a.getLedger(q)).toEqual(await b.getLedger(q));
    expect(await a.getInventory('sim-loc-03')).toEqual(await b.getInventory('sim-loc-03'));
    const other = new SimulatedMachinePlatform('sim-machine', { seed: 7, now: clock().now });
    expect(await other.getInventory('sim-loc-03')).not.toEqual(await a.getInventory('sim-loc-03'));
  });

  it('serves about five weeks of sales ending now, with conforming records and realistic states', async () => {
    const p = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    const { records } = await allRecords(p, NOW - 60 * DAY_MS, NOW, 'created', 500);
    expect(records.length).toBeGreaterThan(1500);
    const times = records.map((r) => r.takenAt ?? r.createdAt);
    expect(Math.min(...times)).toBeGreaterThan(NOW - 36 * DAY_MS);
    expect(Math.min(...times)).toBeLessThan(NOW - 33 * DAY_MS);
    expect(Math.max(...records.map((r) => r.createdAt))).toBeLessThanOrEqual(NOW);
    expect(Math.max(...records.map((r) => r.createdAt))).toBeGreaterThan(NOW - 2 * HOUR_MS);
    expect(new Set(records.map((r) => r.orderNo)).size).toBe(records.length);
    expect(new Set(records.map((r) => r.locationId)).size).toBe(4);
    expect(parseLedgerPage(JSON.parse(JSON.stringify({ records })), 100000).rejected).toEqual([]);

    const states = new Set(records.map((r) => r.state));
    expect([...states].every((s) => TRADE_STATES.includes(s!))).toBe(true);
    for (const s of ['settled', 'refunded', 'cancelled', 'payment_failed']) expect(states).toContain(s);
    const lineStatuses = records.flatMap((r) => r.lines.map((l) => l.status));
    for (const s of ['paid', 'refunded', 'cancelled', 'unpaid', 'refund_failed']) expect(lineStatuses).toContain(s);
    expect(lineStatuses.filter((s) => s === 'paid').length / lineStatuses.length).toBeGreaterThan(0.75);
    for (const r of records) {
      expect(r.lines.length).toBeGreaterThanOrEqual(1);
      expect(r.lines.length).toBeLessThanOrEqual(3);
      expect(r.totalFen).toBe(r.lines.reduce((s, l) => s + l.priceFen * l.quantity, 0));
    }
    // Recent orders are still open: the ledger moves as time passes.
    expect(records.filter((r) => r.createdAt > NOW - 2 * HOUR_MS).some((r) => r.state === 'in_progress')).toBe(true);
  });

  it('pages without gaps or duplicates, filters by updatedAt with by=updated, and refuses bad paging', async () => {
    const p = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    const from = NOW - 2 * DAY_MS;
    const whole = (await p.getLedger({ fromMs: from, toMs: NOW, page: 1, size: 500, by: 'updated' })).records;
    const paged = await allRecords(p, from, NOW, 'updated', 37);
    expect(paged.pages).toBe(Math.ceil(whole.length / 37));
    expect(paged.records.map((r) => r.orderNo)).toEqual(whole.map((r) => r.orderNo));
    for (const r of whole) expect(r.updatedAt!).toBeGreaterThanOrEqual(from);
    // by=updated finds orders created before the window but changed inside it (settled, refunded later).
    expect(whole.some((r) => r.createdAt < from)).toBe(true);

    const last3h = await allRecords(p, NOW - 3 * HOUR_MS, NOW, 'created');
    for (const r of last3h.records) expect(r.takenAt ?? r.createdAt).toBeGreaterThanOrEqual(NOW - 3 * HOUR_MS);
    const past = (await p.getLedger({ fromMs: NOW + HOUR_MS, toMs: NOW + DAY_MS, page: 1, size: 100, by: 'created' }));
    expect(past).toEqual({ records: [], rejected: [], hasMore: false });
    await rejectedWith(p.getLedger({ fromMs: 0, toMs: NOW, page: 0, size: 100, by: 'created' }), 'page');
  });

  it('anchors sales at the current time: a later clock shows newer orders', async () => {
    const c = clock();
    const p = new SimulatedMachinePlatform('sim-machine', { now: c.now });
    const before = await allRecords(p, NOW - DAY_MS, NOW + DAY_MS, 'created', 500);
    c.t += 12 * HOUR_MS;
    const after = await allRecords(p, NOW - DAY_MS, NOW + DAY_MS, 'created', 500);
    expect(after.records.length).toBeGreaterThan(before.records.length);
    expect(Math.max(...after.records.map((r) => r.createdAt))).toBeGreaterThan(NOW);
  });

  it('sets prices in memory and answers the previous price', async () => {
    const p = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    const [first] = (await p.getInventory('sim-loc-01')).items;
    const r = await p.setPrices('sim-loc-01', [{ vendorSku: first.vendorSku, priceFen: first.priceFen + 50 }]);
    expect(r.updated).toEqual([{ vendorSku: first.vendorSku, previousFen: first.priceFen, priceFen: first.priceFen + 50 }]);
    expect((await p.getInventory('sim-loc-01')).items[0].priceFen).toBe(first.priceFen + 50);
    await rejectedWith(p.setPrices('sim-loc-01', [{ vendorSku: 'NOPE', priceFen: 100 }]), 'NOPE');
    await rejectedWith(p.setPrices('sim-loc-01', [{ vendorSku: first.vendorSku, priceFen: 3.5 }]), '3.5');
    expect(p.priceCalls).toHaveLength(3);
  });

  it('restocks idempotently by ref and completes binding requests after two hours, capped at capacity', async () => {
    const c = clock();
    const p = new SimulatedMachinePlatform('sim-machine', { now: c.now });
    const items = (await p.getInventory('sim-loc-02')).items;
    const [a, b] = items;
    const req = { ref: 'rs-1', locationId: 'sim-loc-02', binding: true, lines: [{ vendorSku: a.vendorSku, quantity: 1 }, { vendorSku: b.vendorSku, quantity: 999 }] };
    const ack = await p.sendRestock(req);
    expect(ack.accepted).toBe(2);
    expect(ack.externalRef).toMatch(/^SIMRS\d+$/);
    expect(await p.sendRestock(req)).toEqual(ack);
    expect(p.restockCalls).toHaveLength(2);
    expect((await p.getRestock('rs-1')).status).toBe('pending');
    c.t += 30 * 60_000;
    expect((await p.getRestock('rs-1')).status).toBe('in_progress');
    c.t += 90 * 60_000;
    const done = await p.getRestock('rs-1');
    const room = (x: typeof a) => Math.min(x === a ? 1 : 999, x.capacity! - x.stock);
    expect(done).toEqual({
      ref: 'rs-1',
      status: 'completed',
      delivered: [{ vendorSku: a.vendorSku, quantity: room(a) }, { vendorSku: b.vendorSku, quantity: room(b) }],
      completedAt: NOW + 2 * HOUR_MS,
      externalRef: ack.externalRef,
    });
    const after = (await p.getInventory('sim-loc-02')).items;
    expect(after[0].stock).toBe(a.stock + room(a));
    expect(after[1].stock).toBe(b.capacity);
    // A repeat after completion still creates nothing and delivers nothing twice.
    await p.sendRestock(req);
    expect((await p.getInventory('sim-loc-02')).items[1].stock).toBe(b.capacity);
  });

  it('keeps recommendations pending and refuses unknown refs, locations and skus', async () => {
    const p = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    const [a] = (await p.getInventory('sim-loc-01')).items;
    expect(await p.sendRestock({ ref: 'rec-1', locationId: 'sim-loc-01', binding: false, lines: [{ vendorSku: a.vendorSku, quantity: 3, reason: 'sold out soon' }] })).toEqual({ accepted: 1, externalRef: null });
    expect(await p.getRestock('rec-1')).toMatchObject({ status: 'pending', delivered: [], externalRef: null });
    await rejectedWith(p.getRestock('missing'), 'unknown restock ref');
    await rejectedWith(p.getInventory('sim-loc-99'), 'unknown locationId');
    await rejectedWith(p.sendRestock({ ref: 'x', locationId: 'sim-loc-01', binding: true, lines: [{ vendorSku: 'NOPE', quantity: 1 }] }), 'NOPE');
  });

  it('records calls for tests but keeps only the most recent ones', async () => {
    const p = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    for (let i = 0; i < CALL_LOG_LIMIT + 5; i++) await p.getInventory(i % 2 ? 'sim-loc-01' : 'sim-loc-02');
    expect(p.calls).toHaveLength(CALL_LOG_LIMIT);
    expect(p.calls.at(-1)).toEqual({ method: 'getInventory', at: NOW, args: ['sim-loc-02'] });
  });
});

describe('SimulatedSupplier', () => {
  it('serves about sixty conforming products sharing most ids with the machine platform', async () => {
    const s = new SimulatedSupplier('sim-supply', { now: clock().now });
    const m = new SimulatedMachinePlatform('sim-machine', { now: clock().now });
    expect(s.vendor).toBe('sim');
    expect([...s.capabilities]).toEqual(['catalog', 'orders']);
    const { products } = await s.getCatalog();
    expect(products.length).toBeGreaterThanOrEqual(55);
    expect(parseCatalog(JSON.parse(JSON.stringify({ products }))).rejected).toEqual([]);
    const machineSkus = new Set<string>();
    for (const { locationId } of m.locations()) (await m.getInventory(locationId)).items.forEach((i) => machineSkus.add(i.vendorSku));
    const shared = [...machineSkus].filter((sku) => products.some((p) => p.vendorSku === sku));
    expect(shared.length / machineSkus.size).toBeGreaterThan(0.8);
    expect(products.filter((p) => !machineSkus.has(p.vendorSku)).length).toBeGreaterThan(15);
    expect(products.some((p) => p.packSize === 1) && products.some((p) => p.packSize >= 12)).toBe(true);
    const derived = products.filter((p) => p.eachPriceDerived);
    expect(derived.length).toBeGreaterThan(2);
    for (const p of derived) expect(p.eachPriceFen * p.packSize).toBe(p.packPriceFen);
    const inSpec = products.filter((p) => p.spec?.includes('EAN'));
    expect(inSpec.length).toBeGreaterThan(2);
    for (const p of inSpec) expect(p.spec).toContain(p.barcode!);
    expect(products.every((p) => p.barcode !== null)).toBe(true);
    expect(products.some((p) => p.costFen !== null) && products.some((p) => p.costFen === null)).toBe(true);
  });

  it('creates an order once per ref and moves it from ordered to arrived with logistics', async () => {
    const c = clock();
    const s = new SimulatedSupplier('sim-supply', { now: c.now });
    const [p] = (await s.getCatalog()).products;
    const req = { ref: 'po-1', lines: [{ vendorSku: p.vendorSku, quantity: 2, unit: 'pack' as const }], fulfillment: { method: 'shipping' as const, destination: { city: 'Shanghai' } } };
    const ack = await s.createOrder(req);
    expect(ack).toMatchObject({ ref: 'po-1', state: 'ordered' });
    expect(await s.createOrder(req)).toEqual(ack);
    expect(s.orderCalls).toHaveLength(2);
    expect(s.orderCount).toBe(1);
    expect(await s.getOrder('po-1')).toMatchObject({ state: 'ordered', logistics: [{ status: 'accepted' }] });
    c.t += 2 * HOUR_MS;
    expect(await s.getOrder('po-1')).toMatchObject({ state: 'ordered', logistics: [{ carrier: 'SF Express', status: 'in_transit' }] });
    c.t += 5 * HOUR_MS;
    const arrived = await s.getOrder('po-1');
    expect(arrived).toMatchObject({ ref: 'po-1', state: 'arrived', rawStatus: 'TRADE_FINISHED' });
    expect(arrived.logistics[0]).toMatchObject({ status: 'delivered', updatedAt: NOW + 6 * HOUR_MS });
  });

  it('refuses unknown skus, quantities below 1, unknown units and methods, and unknown refs', async () => {
    const s = new SimulatedSupplier('sim-supply', { now: clock().now });
    const [p] = (await s.getCatalog()).products;
    const base = { ref: 'po-x', lines: [{ vendorSku: p.vendorSku, quantity: 1, unit: 'each' as const }], fulfillment: { method: 'pickup' as const } };
    await rejectedWith(s.createOrder({ ...base, lines: [{ vendorSku: 'NOPE', quantity: 1, unit: 'each' }] }), 'unknown vendorSku NOPE');
    await rejectedWith(s.createOrder({ ...base, lines: [{ vendorSku: p.vendorSku, quantity: 0, unit: 'each' }] }), 'quantity');
    await rejectedWith(s.createOrder({ ...base, fulfillment: { method: 'drone' as never } }), 'drone');
    await rejectedWith(s.getOrder('never-placed'), 'unknown order ref');
    expect(s.orderCount).toBe(0);
    await s.createOrder(base);
    s.cancel('po-x');
    expect(await s.getOrder('po-x')).toMatchObject({ state: 'cancelled' });
  });
});
