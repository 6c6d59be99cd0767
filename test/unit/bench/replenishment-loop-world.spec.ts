// The pure parts of bench/replenishment-loop.js (issue 25): the fleet, its demand, lead times and the rule it is
// compared with. The replay's figures are only as good as these distributions are what bench/README.md states.
const world = require('../../../bench/replenishment-loop/world.js') as {
  buildFleet: (o: { machines: number; slots: number; seed: number; products: Product[] }) => Machine[];
  demandOf: (seed: number, slot: Slot, day: number) => number;
  leadTimeOf: (seed: number, ref: string, sku: string) => number;
  weekdayOf: (day: number) => number;
  sell: (shelf: { stock: number }, demand: number) => number;
  putAway: (shelf: { stock: number; capacity: number }, units: number) => { put: number; toDepot: number };
  simulateRefillToCapacity: (o: { fleet: Machine[]; seed: number; firstDay: number; days: number; visitEveryDays: number }) => Tally;
  summary: (t: Tally) => { fillRate: number; averageStock: number; stockoutSlotDays: number; orders: number };
  CAPACITIES: number[];
};

interface Product {
  vendorSku: string;
  title: string;
  barcode: string | null;
  priceFen: number;
  eachPriceFen: number;
}
interface Slot {
  id: string;
  locationId: string;
  vendorSku: string;
  capacity: number;
  mean: number;
  size: number;
  kind: 'office' | 'station';
}
interface Machine {
  locationId: string;
  kind: string;
  slots: Slot[];
}
type Tally = Record<string, number>;

const products: Product[] = Array.from({ length: 40 }, (_, i) => ({ vendorSku: `SKU-${1001 + i}`, title: `p${i}`, barcode: null, priceFen: 300, eachPriceFen: 150 }));
const DAY0 = 20_454; // 2026-01-01 (+08:00 day index), a Thursday
const fleet = world.buildFleet({ machines: 50, slots: 30, seed: 25, products });
const slots = fleet.flatMap((m) => m.slots);

describe('replenishment replay world', () => {
  it('builds 50 machines of 30 distinct slots, deterministically from the seed', () => {
    expect(fleet).toHaveLength(50);
    for (const m of fleet) expect(new Set(m.slots.map((s) => s.vendorSku)).size).toBe(30);
    expect(slots.every((s) => world.CAPACITIES.includes(s.capacity) && s.id === `${s.locationId}-${s.vendorSku}`)).toBe(true);
    expect(world.buildFleet({ machines: 50, slots: 30, seed: 25, products })).toEqual(fleet);
    expect(world.buildFleet({ machines: 50, slots: 30, seed: 26, products })).not.toEqual(fleet);
    expect(fleet.filter((m) => m.kind === 'station')).toHaveLength(16);
  });

  it('demand is intermittent, averages the slot mean, and follows the weekday pattern', () => {
    expect(world.weekdayOf(DAY0)).toBe(3); // Thursday
    let units = 0;
    let expected = 0;
    let zero = 0;
    const byWeekday = { office: [0, 0, 0, 0, 0, 0, 0], station: [0, 0, 0, 0, 0, 0, 0] };
    for (const s of slots.slice(0, 600)) {
      for (let d = 0; d < 84; d++) {
        const x = world.demandOf(25, s, DAY0 + d);
        expect(Number.isInteger(x) && x >= 0).toBe(true);
        units += x;
        if (x === 0) zero++;
        byWeekday[s.kind][world.weekdayOf(DAY0 + d)] += x;
      }
      expected += s.mean * 84; // the weekday factors average about 1
    }
    expect(units / expected).toBeGreaterThan(0.9);
    expect(units / expected).toBeLessThan(1.1);
    expect(zero / (600 * 84)).toBeGreaterThan(0.3); // intermittent: many slot-days sell nothing
    const weekdayMean = (xs: number[]) => xs.slice(0, 5).reduce((a, b) => a + b, 0) / 5;
    const weekendMean = (xs: number[]) => (xs[5] + xs[6]) / 2;
    expect(weekdayMean(byWeekday.office)).toBeGreaterThan(1.5 * weekendMean(byWeekday.office));
    expect(weekendMean(byWeekday.station)).toBeGreaterThan(1.2 * weekdayMean(byWeekday.station));
    expect(world.demandOf(25, slots[0], DAY0)).toBe(world.demandOf(25, slots[0], DAY0)); // same seed, same demand
  });

  it('lead times vary from 1 to 5 days, about 2.6 on average', () => {
    const ls = Array.from({ length: 4000 }, (_, i) => world.leadTimeOf(25, `run-${i}`, 'SKU-1001'));
    expect(new Set(ls)).toEqual(new Set([1, 2, 3, 4, 5]));
    const mean = ls.reduce((a, b) => a + b, 0) / ls.length;
    expect(mean).toBeGreaterThan(2.45);
    expect(mean).toBeLessThan(2.75);
  });

  it('a shelf never sells below zero nor holds more than its capacity', () => {
    const shelf = { stock: 3, capacity: 10 };
    expect(world.sell(shelf, 5)).toBe(3);
    expect(shelf.stock).toBe(0);
    expect(world.putAway(shelf, 14)).toEqual({ put: 10, toDepot: 4 });
    expect(shelf.stock).toBe(10);
  });

  it('refill to capacity: daily visits serve almost everything and hold more stock than visits every 3 days', () => {
    const daily = world.summary(world.simulateRefillToCapacity({ fleet, seed: 25, firstDay: DAY0, days: 28, visitEveryDays: 1 }));
    const third = world.summary(world.simulateRefillToCapacity({ fleet, seed: 25, firstDay: DAY0, days: 28, visitEveryDays: 3 }));
    expect(daily.fillRate).toBeGreaterThan(0.97);
    expect(third.fillRate).toBeLessThan(daily.fillRate);
    expect(third.averageStock).toBeLessThan(daily.averageStock);
    expect(daily.averageStock).toBeLessThanOrEqual(slots.reduce((a, s) => a + s.capacity, 0));
    expect(daily.orders).toBe(50 * 28);
  });
});
