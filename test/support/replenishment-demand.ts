import { DataSource } from 'typeorm';
import { startOfDayPlus8 } from '../../src/common/time';
import { SupplyProduct } from '../../src/partners/adapter.types';
import { PartnerRegistry } from '../../src/partners/registry/partner-registry';
import { TestApp } from './test-app';

/**
 * Sales history for the replenishment tests on the simulated partners, written straight into the database:
 * locations, slots and settled sales at noon (+08:00) of past days. `seedDemandCases` builds the four demand cases
 * the plan and run tests share (the comments there give the numbers each case must produce).
 */
const DAY = 86_400_000;
export const NS = 'sim-machine';
export const LOC = 'L-repl-1';

/** Noon (+08:00) of the day `k` days before today. */
export function noonDaysAgo(k: number): Date {
  return new Date(startOfDayPlus8(new Date()).getTime() - k * DAY + 12 * 3600_000);
}

export interface Sale {
  slot: string;
  sku: string;
  daysAgo: number;
  qty: number;
  status?: string;
  trade?: string;
}

export async function seedLocation(ds: DataSource, id: string, namespace = NS): Promise<void> {
  await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [id, namespace, `machine ${id}`]);
}

export async function seedSlot(ds: DataSource, loc: string, sku: string, stock: number, capacity: number | null, namespace = NS): Promise<string> {
  const id = `${loc}-${sku}`;
  await ds.query(
    `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity) VALUES ($1,$2,$3,$4,$5,$6,500,$7,$8)`,
    [id, loc, namespace, sku, `${namespace}:${sku}`, `title ${sku}`, stock, capacity],
  );
  return id;
}

let orderSeq = 0;
export async function seedSales(ds: DataSource, loc: string, sales: Sale[], namespace = NS): Promise<void> {
  for (const s of sales) {
    const id = `O-${++orderSeq}-${Math.random().toString(36).slice(2, 8)}`;
    const at = noonDaysAgo(s.daysAgo);
    await ds.query(
      `INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, has_taken_at, trade_status) VALUES ($1,$2,$3,$4,$5,true,$6)`,
      [id, namespace, loc, 500 * s.qty, at, s.trade ?? 'settled'],
    );
    await ds.query(
      `INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, quantity, price_fen, status) VALUES ($1,1,$2,$3,$4,$5,500,$6)`,
      [id, s.sku, `${namespace}:${s.sku}`, s.slot, s.qty, s.status ?? 'paid'],
    );
  }
}

export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export async function boxProducts(t: TestApp): Promise<SupplyProduct[]> {
  const { products } = await t.app.get(PartnerRegistry).simulatedSupplier.getCatalog();
  return products.filter((p) => p.packSize > 1);
}

export async function setGuards(t: TestApp, perOrderFen: number): Promise<void> {
  await t
    .put('/ucp/v1/admin/guards', {
      killSwitch: false,
      budget: { perOrderFen, dailyFen: 10_000_000, monthlyFen: 100_000_000 },
      priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
      probationVendors: [],
      hardNoGo: { vendors: [], skus: [] },
    })
    .expect(200);
}

export const lineOf = (plan: { slots: { slot_id: string }[] }, s: string) => plan.slots.find((l) => l.slot_id === s) as Record<string, any>;

export interface DemandCases {
  products: SupplyProduct[];
  slot: Record<'A' | 'B' | 'C' | 'D', string>;
  sku: Record<'A' | 'B' | 'C' | 'D', string>;
}

/** Four box products of the simulated supplier in four slots of LOC, with the sales history of each demand case. */
export async function seedDemandCases(t: TestApp): Promise<DemandCases> {
  const ds = t.app.get(DataSource);
  const products = await boxProducts(t);
  const [A, B, C, D] = products.slice(0, 4).map((p) => p.vendorSku);
  const sku = { A, B, C, D };
  await seedLocation(ds, LOC);
  const slot = {
    A: await seedSlot(ds, LOC, sku.A, 4, 20),
    B: await seedSlot(ds, LOC, sku.B, 0, 24),
    C: await seedSlot(ds, LOC, sku.C, 3, 10),
    D: await seedSlot(ds, LOC, sku.D, 5, 40),
  };
  const sales: Sale[] = [];
  // A: 2 a day for 30 days, plus a refunded line, a cancelled line and an unsettled order that must not count.
  for (const k of range(1, 30)) sales.push({ slot: slot.A, sku: sku.A, daysAgo: k, qty: 2 });
  sales.push({ slot: slot.A, sku: sku.A, daysAgo: 3, qty: 5, status: 'refunded' });
  sales.push({ slot: slot.A, sku: sku.A, daysAgo: 4, qty: 5, status: 'cancelled' });
  sales.push({ slot: slot.A, sku: sku.A, daysAgo: 5, qty: 7, trade: 'in_progress' });
  sales.push({ slot: slot.A, sku: sku.A, daysAgo: 0, qty: 9 }); // today: outside the window of complete days
  sales.push({ slot: slot.A, sku: sku.A, daysAgo: 31, qty: 9 }); // before the window
  // B: 3 a day until 11 days ago, then empty (stock 0 now): the last 10 days are stocked out, not zero demand.
  for (const k of range(11, 30)) sales.push({ slot: slot.B, sku: sku.B, daysAgo: k, qty: 3 });
  // C: only 2 days of sales: too little history.
  sales.push({ slot: slot.C, sku: sku.C, daysAgo: 2, qty: 4 }, { slot: slot.C, sku: sku.C, daysAgo: 1, qty: 4 });
  // D: 1 a day, except 6..10 days ago when snapshots saw it empty.
  for (const k of range(1, 30).filter((k) => k < 6 || k > 10)) sales.push({ slot: slot.D, sku: sku.D, daysAgo: k, qty: 1 });
  await seedSales(ds, LOC, sales);
  for (const k of range(6, 10)) {
    const day = new Date(noonDaysAgo(k).getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    await ds.query(`INSERT INTO slot_stock_days (slot_id, day, min_stock) VALUES ($1, $2, 0)`, [slot.D, day]);
  }
  return { products, slot, sku };
}

/**
 * Closes every placed run (issue 25: their units are on order, so the next plan would propose nothing for their
 * slots). For tests that build several runs from the same demand one after the other.
 */
export async function closePlacedRuns(t: TestApp): Promise<void> {
  const runs = (await t.get('/ucp/v1/replenishment/runs?status=placed').expect(200)).body.runs as { id: string }[];
  for (const r of runs) await t.post(`/ucp/v1/replenishment/runs/${r.id}/close`, { reason: 'test: start from an empty pipeline', confirm: true }).expect(200);
}
