// The pure parts of bench/route-replay.js (issue 35): suppliers and their lead times, the fixed routes' visit days,
// the baselines' warehouse and the "bought beyond need" measure, as bench/README.md ("Route replay") states them.
const loop = require('../../../bench/replenishment-loop/world.js') as any;
const route = require('../../../bench/route-replay/world.js') as any;

const products = Array.from({ length: 30 }, (_, i) => ({
  vendorSku: `SKU-${1001 + i}`,
  title: `Good ${i}`,
  barcode: null,
  priceFen: 500,
  eachPriceFen: 300,
  packSize: i % 3 === 0 ? 1 : 12,
  packPriceFen: i % 3 === 0 ? 300 : 3480,
}));

describe('route replay world', () => {
  it('draws each good\'s arrival from its supplier: fast 1-2 days, slow 2-5 days, about half the goods each', () => {
    const fast = products.filter((p) => route.supplierOf(35, p.vendorSku) === 'fast');
    expect(fast.length).toBeGreaterThan(5);
    expect(fast.length).toBeLessThan(25);
    for (const p of products) {
      const days = Array.from({ length: 200 }, (_, i) => route.arrivalDays(35, `run-${i}`, p.vendorSku));
      const [lo, hi] = route.supplierOf(35, p.vendorSku) === 'fast' ? [1, 2] : [2, 5];
      expect(Math.min(...days)).toBe(lo);
      expect(Math.max(...days)).toBe(hi);
    }
  });

  it('spreads a k-day route evenly: every machine once in k days, the days differ by at most one stop', () => {
    for (const k of [3, 6]) {
      const perDay = Array.from({ length: k }, (_, d) => Array.from({ length: 50 }, (_, mi) => mi).filter((mi) => route.visitsOn(k, mi, d)).length);
      expect(perDay.reduce((a: number, b: number) => a + b, 0)).toBe(50);
      expect(Math.max(...perDay) - Math.min(...perDay)).toBeLessThanOrEqual(1);
      for (let mi = 0; mi < 50; mi++) expect(Array.from({ length: 2 * k }, (_, d) => d - 7).filter((d) => route.visitsOn(k, mi, d)).length).toBe(2);
    }
  });

  it('runs a fixed route: buys in whole boxes, never puts more on a shelf than its capacity, counts one stop per machine visit', () => {
    const fleet = loop.buildFleet({ machines: 6, slots: 10, seed: 7, products });
    const goods = route.goodsOf(fleet, products);
    const shelves0 = new Map(fleet.flatMap((m: any) => m.slots.map((s: any) => [s.id, s.capacity])));
    const history = new Map(fleet.flatMap((m: any) => m.slots.map((s: any) => [s.id, Array.from({ length: 28 }, () => 1)])));
    const t = route.simulateFixedRoute({ fleet, goods, seed: 7, firstDay: 20000, days: 30, k: 3, shelves0, history });
    expect(t.stops).toBe(60);
    expect(t.served).toBeLessThanOrEqual(t.demand);
    expect(t.lost).toBe(t.demand - t.served);
    expect(t.unitsLoaded).toBeLessThanOrEqual(t.unitsBought);
    expect(t.beyondNeed.total).toBeGreaterThanOrEqual(0);
    expect(t.beyondNeed.total).toBeLessThanOrEqual(t.unitsBought);
  });

  it('counts as beyond need only bought units held past the next 7 days\' demand, a shelf serving only its own slot', () => {
    const fleet = loop.buildFleet({ machines: 1, slots: 2, seed: 7, products });
    const goods = route.goodsOf(fleet, products);
    const [a, b] = fleet[0].slots;
    const need = (s: any) => Array.from({ length: 7 }, (_, i) => loop.demandOf(7, s, 20000 + 30 + i)).reduce((x: number, y: number) => x + y, 0);
    const base = { seed: 7, goods, firstDay: 20000, days: 30, onOrderOf: () => 0 };
    // Shelves exactly at need, nothing in the warehouse: nothing beyond need.
    const exact = route.beyondNeed({ ...base, shelfOf: (id: string) => (id === a.id ? need(a) : need(b)), warehouseOf: () => 0, boughtOf: () => 1000 });
    expect(exact.total).toBe(0);
    // 5 more on a's shelf and 7 in the warehouse of b's good beyond its gap: 12, capped by what was bought.
    const more = route.beyondNeed({ ...base, shelfOf: (id: string) => (id === a.id ? need(a) + 5 : need(b)), warehouseOf: (sku: string) => (sku === b.vendorSku ? 7 : 0), boughtOf: () => 1000 });
    expect(more.total).toBe(12);
    const capped = route.beyondNeed({ ...base, shelfOf: (id: string) => (id === a.id ? need(a) + 5 : need(b)), warehouseOf: () => 0, boughtOf: () => 2 });
    expect(capped.total).toBe(2);
  });
});
