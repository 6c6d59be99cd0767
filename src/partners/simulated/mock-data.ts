/**
 * Deterministic mock data of the simulated partners (staging; docs/contract/): one vendor "sim" serving a
 * machine platform and a supplier with ONE product id space (most vendorSku values exist in both roles).
 * Everything derives from a seed through a small PRNG, never Math.random, so two runs show the same world.
 * Sales are generated per day (China time) from the seed and the day index, so "weeks of sales" always end now.
 */

import { DEFAULT_SEED, HOUR_MS, DAY_MS, LEDGER_DAYS, prng, hashOf, intBetween, ean13, dayIndexOf, dayStartMs, dayLabel } from './sim-random';
import type { SupplyProduct } from '../adapter.types';

// The seed, PRNG and calendar live in sim-random.ts; re-exported for the partners that read them here.
export { DEFAULT_SEED, HOUR_MS, DAY_MS, LEDGER_DAYS, prng, hashOf, intBetween, ean13, dayIndexOf, dayStartMs, dayLabel };

// ---- products ----

type Kind = 'water' | 'drink' | 'can' | 'milk' | 'snack' | 'noodle';

export interface SimProduct {
  vendorSku: string;
  title: string;
  kind: Kind;
  /** Base retail price in the machines, integer fen; null for supplier-only products. */
  priceFen: number | null;
  /** Real unit cost when the platform knows one that differs from the price; null otherwise. */
  costFen: number | null;
  barcode: string;
}

// [title, kind, machine price fen (0 = supplier-only)]
const TITLES: [string, Kind, number][] = [
  ['Nongfu Spring natural water 550ml', 'water', 200],
  ["C'estbon purified water 555ml", 'water', 200],
  ['Coca-Cola can 330ml', 'can', 350],
  ['Sprite can 330ml', 'can', 350],
  ['Pepsi-Cola can 330ml', 'can', 350],
  ['Wanglaoji herbal tea can 310ml', 'can', 450],
  ['Master Kong iced black tea 500ml', 'drink', 350],
  ['Master Kong green tea 500ml', 'drink', 350],
  ['Nongfu Dongfang Shuye jasmine tea 500ml', 'drink', 550],
  ['Genki Forest white peach sparkling water 480ml', 'drink', 550],
  ['Red Bull vitamin energy drink 250ml', 'can', 650],
  ['Dongpeng Tezhiyin energy drink 500ml', 'drink', 500],
  ['Vita lemon tea 250ml', 'milk', 450],
  ['Wahaha AD calcium milk 220g', 'milk', 300],
  ['Mengniu pure milk 250ml', 'milk', 400],
  ['Yili Youyi C yogurt drink 500ml', 'drink', 600],
  ['Maidong peach vitamin drink 600ml', 'drink', 500],
  ['Nongfu Jianjiao passion fruit drink 550ml', 'drink', 500],
  ['Suntory oolong tea sugar-free 500ml', 'drink', 550],
  ['Yeshu coconut milk can 245ml', 'can', 450],
  ["Lay's original potato chips 70g", 'snack', 750],
  ["Lay's cucumber potato chips 70g", 'snack', 750],
  ['Oreo original sandwich cookies 97g', 'snack', 650],
  ['Want Want rice crackers 84g', 'snack', 500],
  ['Weilong latiao spicy gluten strips 106g', 'snack', 550],
  ['Qiaqia spiced sunflower seeds 108g', 'snack', 700],
  ['Three Squirrels daily mixed nuts 30g', 'snack', 600],
  ['Dove silky milk chocolate 43g', 'snack', 800],
  ['Snickers peanut bar 51g', 'snack', 600],
  ['Haoliyou choco pie 2pcs 68g', 'snack', 450],
  ['Daliyuan French soft bread 200g', 'snack', 900],
  ['Shuanghui Wang Zhong Wang ham sausage 60g', 'snack', 350],
  ['Youyou pickled pepper chicken feet 100g', 'snack', 1200],
  ['Xu Fu Ji egg sachima 160g', 'snack', 800],
  ['Glico Pocky chocolate sticks 55g', 'snack', 850],
  ['Weilong Mo Yu konjac strips 18g', 'snack', 300],
  ['Master Kong braised beef noodles bucket', 'noodle', 550],
  ['Tongyi Laotan pickled cabbage noodles bucket', 'noodle', 550],
  ['Baixiang pork bone noodles bucket', 'noodle', 500],
  ['Extra xylitol chewing gum bottle 56g', 'snack', 1190],
  ['Jianlibao orange honey drink 560ml', 'drink', 0],
  ['Master Kong jasmine honey tea 500ml', 'drink', 0],
  ['Wangzai milk can 145ml', 'milk', 0],
  ['Nestle Ready-to-drink coffee can 180ml', 'can', 0],
  ['Mengniu Chunzhen yogurt 250g', 'milk', 0],
  ['Bingfeng orange soda glass bottle 248ml', 'drink', 0],
  ['Ganyuan crab-flavoured peas 75g', 'snack', 0],
  ['Three Squirrels dried mango 116g', 'snack', 0],
  ['Bestore spicy pork jerky 100g', 'snack', 0],
  ['Haitai crispy seaweed 4g x 3', 'snack', 0],
  ['Panpan French crispy wafer 120g', 'snack', 0],
  ['Liuliumei green plum 160g', 'snack', 0],
  ['Daliyuan egg yolk pie 6pcs 138g', 'snack', 0],
  ['Tongyi Ice Tea lemon 500ml', 'drink', 0],
  ['Guozi Shule orange juice 450ml', 'drink', 0],
  ['Eastroc Super Drink 250ml', 'can', 0],
  ['Heytea lemon sparkling 380ml', 'drink', 0],
  ['Lipton milk tea powder 17.5g x 5', 'snack', 0],
  ['Nongfu Spring natural water 4L', 'water', 0],
  ['Weichuan honey iced tea 490ml', 'drink', 0],
  ['Mengniu Suan Suan Ru yogurt drink 340ml', 'milk', 0],
  ['Taipingniao cucumber soda crackers 100g', 'snack', 0],
  ['Lay\'s tomato potato chips 70g', 'snack', 0],
  ['Want Want QQ gummies 70g', 'snack', 0],
];

function buildProducts(seed: number): SimProduct[] {
  const rnd = prng(hashOf(seed, 'products'));
  return TITLES.map(([title, kind, price], i) => {
    const barcode = ean13(rnd);
    const priceFen = price > 0 ? price : null;
    // About half the products carry a known unit cost (the platform's purchase record), as real platforms do.
    const costFen = priceFen !== null && rnd() < 0.5 ? Math.floor((priceFen * intBetween(rnd, 45, 65)) / 1000) * 10 : null;
    return { vendorSku: `SKU-${1001 + i}`, title, kind, priceFen, costFen, barcode };
  });
}

// ---- supplier catalog ----

/**
 * A product of the simulated supplier as its world holds it: the contract's product (adapter.types.ts) with the
 * barcode field as the partner writes it (null for the few products whose barcode only appears in `spec`, a common
 * partner habit) and no delivery sites yet.
 */
export type SimSupplyProduct = Omit<SupplyProduct, 'barcode' | 'spec' | 'sites'> & { barcodeField: string | null; spec: string };

/** Machine-only products: the supplier does not carry them (they come from another wholesaler). */
const MACHINE_ONLY = new Set(['SKU-1033', 'SKU-1034', 'SKU-1039', 'SKU-1040']);
const PACK_BY_KIND: Record<Kind, number[]> = { water: [24, 12], drink: [15, 24, 6], can: [24, 12], milk: [24, 12], snack: [12, 24, 1], noodle: [12, 1] };

function buildSupply(seed: number, products: SimProduct[]): SimSupplyProduct[] {
  const rnd = prng(hashOf(seed, 'supply'));
  return products
    .filter((p) => !MACHINE_ONLY.has(p.vendorSku))
    .map((p, i) => {
      const choices = PACK_BY_KIND[p.kind];
      const packSize = choices[intBetween(rnd, 0, choices.length - 1)];
      const retail = p.priceFen ?? intBetween(rnd, 25, 90) * 10;
      // Wholesale each price: 55-70 % of retail, in whole jiao so that box prices stay round.
      const wholesaleEach = Math.floor((retail * intBetween(rnd, 55, 70)) / 1000) * 10;
      // Every 7th boxed product states only a box price: its each price is derived, and chosen divisible by design.
      const eachPriceDerived = packSize > 1 && i % 7 === 3;
      const packPriceFen = eachPriceDerived ? wholesaleEach * packSize : wholesaleEach * packSize - packSize * 5;
      const eachPriceFen = eachPriceDerived ? packPriceFen / packSize : wholesaleEach;
      const barcodeInSpecOnly = i % 9 === 5;
      const unit = packSize === 1 ? 'single piece' : `box of ${packSize}`;
      return {
        vendorSku: p.vendorSku,
        title: p.title,
        packSize,
        packPriceFen: packSize === 1 ? eachPriceFen : packPriceFen,
        eachPriceFen,
        eachPriceDerived,
        stock: intBetween(rnd, 0, 10) === 0 ? 0 : intBetween(rnd, 5, 400),
        barcodeField: barcodeInSpecOnly ? null : p.barcode,
        spec: barcodeInSpecOnly ? `${unit}, EAN ${p.barcode}` : unit,
        costFen: rnd() < 0.4 ? Math.floor((wholesaleEach * 8) / 100) * 10 : null,
      };
    });
}

// ---- machines ----

export interface SimSlot {
  slotId: string;
  vendorSku: string;
  capacity: number;
  /** Stock at start-up; the simulated platform raises it on completed restocks. */
  stock: number;
  priceFen: number;
}

export interface SimMachine {
  locationId: string;
  name: string;
  /** Relative daily traffic: the station machine sells more than the office one. */
  traffic: number;
  slots: SimSlot[];
}

const MACHINE_SITES: [string, number, number][] = [
  // [name, markup fen, traffic]
  ['Zhangjiang office tower lobby', 0, 1.0],
  ['Xuhui university library', 0, 1.3],
  ['Hongqiao railway station hall B', 100, 1.8],
  ['Pudong hospital outpatient floor', 50, 0.8],
];

function buildMachines(seed: number, products: SimProduct[]): SimMachine[] {
  const sellable = products.filter((p) => p.priceFen !== null);
  return MACHINE_SITES.map(([name, markup, traffic], m) => {
    const rnd = prng(hashOf(seed, 'machine', m));
    const slotCount = intBetween(rnd, 12, 20);
    const pool = [...sellable];
    const slots: SimSlot[] = [];
    for (let s = 0; s < slotCount; s++) {
      const p = pool.splice(intBetween(rnd, 0, pool.length - 1), 1)[0];
      const capacity = p.kind === 'snack' ? intBetween(rnd, 8, 12) : intBetween(rnd, 10, 16);
      // One slot in ten starts sold out so that replenishment has something to do.
      const stock = rnd() < 0.1 ? 0 : intBetween(rnd, 1, capacity);
      const row = String.fromCharCode(65 + Math.floor(s / 6));
      slots.push({ slotId: `${row}${String((s % 6) + 1).padStart(2, '0')}`, vendorSku: p.vendorSku, capacity, stock, priceFen: p.priceFen! + markup });
    }
    return { locationId: `sim-loc-${String(m + 1).padStart(2, '0')}`, name, traffic, slots };
  });
}

// ---- sales (ledger) plans ----

export type SimOutcome = 'paid' | 'review' | 'refunded' | 'cancelled' | 'unpaid' | 'refund_failed';

/** One order as planned at creation: its state at a given time is computed from these offsets. */
export interface SimOrderPlan {
  orderNo: string;
  locationId: string;
  createdAt: number;
  outcome: SimOutcome;
  /** Offsets from createdAt, ms. */
  takeAfter: number;
  settleAfter: number;
  /** When the outcome's last change happens (refund, review end, payment failure, cancellation). */
  finalAfter: number;
  lines: { vendorSku: string; title: string; quantity: number; priceFen: number; costFen: number | null }[];
}

/** No plan changes later than this after its creation; a by=updated query looks this far back for candidates. */
export const MAX_ORDER_LAG_MS = 24 * HOUR_MS;

// Sales by hour of day: a morning, lunch and evening peak, almost nothing at night.
const HOUR_WEIGHTS = [1, 0, 0, 0, 0, 1, 2, 6, 10, 7, 6, 8, 12, 9, 6, 6, 7, 10, 12, 11, 9, 7, 4, 2];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);

function pickHour(rnd: () => number): number {
  let x = rnd() * HOUR_TOTAL;
  for (let h = 0; h < 24; h++) {
    x -= HOUR_WEIGHTS[h];
    if (x < 0) return h;
  }
  return 23;
}

function pickOutcome(rnd: () => number): SimOutcome {
  const x = rnd();
  if (x < 0.86) return 'paid';
  if (x < 0.88) return 'review';
  if (x < 0.92) return 'refunded';
  if (x < 0.95) return 'cancelled';
  if (x < 0.985) return 'unpaid';
  return 'refund_failed';
}

export function planDay(world: SimWorld, dayIndex: number): SimOrderPlan[] {
  const weekday = new Date(dayIndex * DAY_MS).getUTCDay();
  const weekendFactor = weekday === 0 || weekday === 6 ? 0.75 : 1;
  const start = dayStartMs(dayIndex);
  const byNo = new Map(world.products.map((p) => [p.vendorSku, p]));
  const plans: SimOrderPlan[] = [];
  world.machines.forEach((machine, m) => {
    const rnd = prng(hashOf(world.seed, 'day', dayIndex, m));
    const count = Math.floor(intBetween(rnd, 14, 26) * machine.traffic * weekendFactor);
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(start + pickHour(rnd) * HOUR_MS + intBetween(rnd, 0, HOUR_MS - 1));
    times.sort((a, b) => a - b);
    times.forEach((createdAt, i) => {
      const lineCount = rnd() < 0.72 ? 1 : rnd() < 0.75 ? 2 : 3;
      const used = new Set<string>();
      const lines: SimOrderPlan['lines'] = [];
      while (lines.length < lineCount) {
        const slot = machine.slots[intBetween(rnd, 0, machine.slots.length - 1)];
        if (used.has(slot.vendorSku)) continue;
        used.add(slot.vendorSku);
        const p = byNo.get(slot.vendorSku)!;
        lines.push({ vendorSku: p.vendorSku, title: p.title, quantity: rnd() < 0.87 ? 1 : 2, priceFen: slot.priceFen, costFen: p.costFen });
      }
      plans.push({
        orderNo: `SIM${dayLabel(dayIndex)}${String(m + 1).padStart(2, '0')}${String(i + 1).padStart(4, '0')}`,
        locationId: machine.locationId,
        createdAt,
        outcome: pickOutcome(rnd),
        takeAfter: intBetween(rnd, 5_000, 40_000),
        settleAfter: intBetween(rnd, 10 * 60_000, 2 * HOUR_MS),
        finalAfter: intBetween(rnd, 3 * HOUR_MS, 20 * HOUR_MS),
        lines,
      });
    });
  });
  return plans;
}

// ---- the world ----

export interface SimWorld {
  seed: number;
  products: SimProduct[];
  supply: SimSupplyProduct[];
  machines: SimMachine[];
}

/** The whole static world for a seed. Cheap (a few hundred objects); each simulated partner builds its own copy. */
export function buildWorld(seed = DEFAULT_SEED): SimWorld {
  const products = buildProducts(seed);
  return { seed, products, supply: buildSupply(seed, products), machines: buildMachines(seed, products) };
}
