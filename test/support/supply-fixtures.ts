/** Fixtures shared by the supply-side tests (catalog and skus e2e tests, unit tests). */
import { DataSource } from 'typeorm';
import { TestApp } from './test-app';

export interface SeedSlot {
  location: string;
  namespace: string;
  vendorSku: string;
  title: string;
  barcode?: string | null;
  priceFen: number;
  stock: number;
  priceLocked?: boolean;
}

/** Writes locations and slots the way the machines sync does (this side only reads them). */
export async function seedSlots(t: TestApp, slots: SeedSlot[]): Promise<void> {
  const ds = t.app.get(DataSource);
  for (const loc of [...new Set(slots.map((s) => `${s.location}|${s.namespace}`))]) {
    const [id, namespace] = loc.split('|');
    await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [id, namespace, `Machine ${id}`]);
  }
  for (const s of slots) {
    await ds.query(
      `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, barcode, price_fen, stock, price_locked)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
      [`${s.location}-${s.vendorSku}`, s.location, s.namespace, s.vendorSku, `${s.namespace}:${s.vendorSku}`, s.title, s.barcode ?? null, s.priceFen, s.stock, s.priceLocked ?? false],
    );
  }
}

export async function registerLocation(t: TestApp, id: string, namespace: string): Promise<void> {
  await t.app.get(DataSource).query(`INSERT INTO locations (id, namespace, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [id, namespace, `Machine ${id}`]);
}

/** Moves the service clock forward (Date.now) so that a cached catalog expires without waiting a minute. */
export function advanceClock(ms: number): () => void {
  const real = Date.now.bind(Date);
  const spy = jest.spyOn(Date, 'now').mockImplementation(() => real() + ms);
  return () => spy.mockRestore();
}

export const ACME_CATALOG = [
  // boxed, both prices quoted, barcode field
  { vendorSku: 'A100', title: 'Coca-Cola can 330ml', packSize: 24, packPriceFen: 4560, eachPriceFen: 200, stock: 40, barcode: '6901234567892', costFen: 150 },
  // boxed, each price derived from the box price, barcode only in spec
  { vendorSku: 'A200', title: 'Nongfu Spring natural water 550ml', packSize: 12, packPriceFen: 1440, eachPriceFen: 120, eachPriceDerived: true, stock: 10, spec: 'box of 12, EAN 6920000000019', costFen: 100 },
  // sold by the piece
  { vendorSku: 'A300', title: "Lay's original potato chips 70g", packSize: 1, packPriceFen: 450, eachPriceFen: 450, stock: 0, barcode: '6930000000026' },
  { vendorSku: 'A400', title: 'Master Kong green tea 500ml', packSize: 15, packPriceFen: 3300, eachPriceFen: 230, stock: 7, barcode: '6940000000033' },
  { vendorSku: 'A500', title: 'Master Kong iced black tea 500ml', packSize: 15, packPriceFen: 3300, eachPriceFen: 230, stock: 7, barcode: '6950000000040' },
];
