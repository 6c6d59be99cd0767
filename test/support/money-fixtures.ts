/**
 * Fixtures shared by the money-path e2e tests (test/e2e/checkout*, pricing*, kill-switch*): a supplier app over a
 * real fake HTTP partner, a ready session, and the roster/slots rows the location sync would leave.
 * Not a test file (unit tests match *.spec.ts only).
 */
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from './test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';

export const NS = 'acme-supply';
export const DEST = { methods: [{ type: 'shipping', destinations: [{ street_address: '1 Road', first_name: 'Li', phone_number: '13800000000' }] }] };
export const GUARDS = {
  killSwitch: false,
  budget: { perOrderFen: 100000, dailyFen: 300000, monthlyFen: 3000000 },
  priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
  probationVendors: [] as string[],
  hardNoGo: { vendors: [] as string[], skus: [] as string[] },
};

export async function supplierApp(p: FakePartner, extra: Record<string, string> = {}, db?: 'embedded'): Promise<TestApp> {
  p.state.catalog = [
    { vendorSku: 'COLA', title: 'Cola 330ml', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 500 },
    { vendorSku: 'WATER', title: 'Water 550ml', packSize: 1, packPriceFen: 100, eachPriceFen: 100, stock: 900 },
    { vendorSku: 'GONE', title: 'Sold out', packSize: 1, packPriceFen: 100, eachPriceFen: 100, stock: 0 },
    { vendorSku: 'DERIVED', title: 'Box only', packSize: 12, packPriceFen: 1200, eachPriceFen: 100, eachPriceDerived: true, stock: 50 },
  ];
  return startTestApp({
    db,
    env: {
      SERVICE_ENV: 'production',
      SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: p.url, token: p.token, capabilities: ['catalog', 'orders'] }]),
      SERVICE_DEFAULT_SUPPLY_NAMESPACE: NS,
      ...extra,
    },
  });
}

export async function readySession(t: TestApp, id: string, lines: { item: { id: string }; quantity: number; quantity_unit?: { unit: string } }[] = [{ item: { id: `${NS}:COLA` }, quantity: 2, quantity_unit: { unit: 'BX' } }]) {
  const res = await t.post('/ucp/v1/checkout-sessions', { id, line_items: lines, fulfillment: DEST });
  expect(res.status).toBe(201);
  return res;
}

/** Seeds the roster and the synced slots the way the location sync leaves them. */
export async function seedMachine(databaseUrl: string, loc: string, ns: string, items: { sku: string; price: number }[]) {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(`INSERT INTO locations (id, namespace, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [loc, ns, `Machine ${loc}`]);
    for (const i of items) {
      await c.query(
        `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, $2, $3, $4, $5, $6, $7, 5)
         ON CONFLICT (id) DO UPDATE SET price_fen = EXCLUDED.price_fen, price_locked = false`,
        [`${loc}-${i.sku}`, loc, ns, i.sku, `${ns}:${i.sku}`, i.sku, i.price],
      );
    }
  } finally {
    await c.end();
  }
}

export async function slotRow(databaseUrl: string, id: string): Promise<{ price_fen: string; price_locked: boolean }> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query(`SELECT price_fen, price_locked FROM slots WHERE id = $1`, [id])).rows[0];
  } finally {
    await c.end();
  }
}

export async function machineApp(p: FakePartner, extra: Record<string, string> = {}): Promise<TestApp> {
  p.state.inventory['loc-1'] = [
    { vendorSku: 'A1', title: 'Cola', priceFen: 350, stock: 4 },
    { vendorSku: 'B2', title: 'Tea', priceFen: 500, stock: 4 },
    { vendorSku: 'C3', title: 'Nuts', priceFen: 1000, stock: 4 },
  ];
  const t = await startTestApp({
    env: {
      SERVICE_ENV: 'production',
      SERVICE_HTTP_VENDORS: JSON.stringify([
        { namespace: 'acme-machine', baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger', 'pricing'] },
        { namespace: 'beta-machine', baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger'] },
      ]),
      SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
      SERVICE_ADMIN_CHATS: JSON.stringify([{ chat_id: 'ops', admins: ['boss'] }]),
      ...extra,
    },
  });
  await seedMachine(t.databaseUrl!, 'loc-1', 'acme-machine', [
    { sku: 'A1', price: 350 },
    { sku: 'B2', price: 500 },
    { sku: 'C3', price: 1000 },
  ]);
  await seedMachine(t.databaseUrl!, 'loc-2', 'beta-machine', [{ sku: 'A1', price: 350 }]);
  return t;
}


/** A second instance of the service on the same database and supplier as `a` (several instances, one database). */
export function secondSupplierInstance(a: TestApp, p: FakePartner): Promise<TestApp> {
  return startTestApp({
    databaseUrl: a.databaseUrl!,
    env: { SERVICE_ENV: 'production', SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: NS, baseUrl: p.url, token: p.token, capabilities: ['catalog', 'orders'] }]) },
  });
}

/** How many orders the supplier received with this ref. */
export const ordersPosted = (p: FakePartner, ref: string): number =>
  p.requestsTo('POST /orders').filter((r) => (r.body as { ref: string }).ref === ref).length;

/** A fake supplier and two service instances on one database (the several-instances tests); `close` stops all three. */
export async function startTwoSupplierInstances(): Promise<{ p: FakePartner; a: TestApp; b: TestApp; close: () => Promise<void> }> {
  const p = await startFakePartner({ token: 'sup-token' });
  const a = await supplierApp(p);
  const b = await secondSupplierInstance(a, p);
  return { p, a, b, close: async () => { await b.close(); await a.close(); await p.close(); } };
}

type PlatformItem = { vendorSku: string; priceFen: number };

/**
 * A machine platform `p` (inventory, ledger, pricing as `acme-machine`) and the service on either database with
 * location loc-1 and no slots yet (`addSlot`); seeded through the app's own connection (issue 27's kill tests).
 */
export async function pricingApp(p: FakePartner, db?: 'postgres' | 'embedded', extra: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp({
    db,
    env: {
      SERVICE_ENV: 'production',
      SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: 'acme-machine', baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger', 'pricing'] }]),
      SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
      ...extra,
    },
  });
  await t.app.get(DataSource).query(`INSERT INTO locations (id, namespace, name) VALUES ('loc-1', 'acme-machine', 'Machine loc-1')`);
  p.state.inventory['loc-1'] ??= [];
  return t;
}

/** A slot of loc-1 at 500 fen, on the platform and in the synced copy. */
export async function addSlot(t: TestApp, p: FakePartner, sku: string): Promise<void> {
  (p.state.inventory['loc-1'] as PlatformItem[]).push({ vendorSku: sku, title: sku, priceFen: 500, stock: 4 } as PlatformItem);
  await t.app
    .get(DataSource)
    .query(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, 'loc-1', 'acme-machine', $2, $3, $2, 500, 4)`, [`loc-1-${sku}`, sku, `acme-machine:${sku}`]);
}

/** The PUT /locations/loc-1/prices body setting one item. */
export const priceBody = (sku: string, fen: number) => ({ confirm: true, prices: [{ item: { id: `acme-machine:${sku}` }, price: { amount: fen, currency: 'CNY' } }] });

/** The platform's record of `sku` at loc-1 (its price is what it shows). */
export const platformItem = (p: FakePartner, sku: string): PlatformItem => (p.state.inventory['loc-1'] as PlatformItem[]).find((i) => i.vendorSku === sku)!;

/** The prices POSTed to the platform for `sku`, in order. */
export const pricesPosted = (p: FakePartner, sku: string): number[] =>
  p.requestsTo('POST /prices').flatMap((r) => (r.body as { prices: PlatformItem[] }).prices.filter((x) => x.vendorSku === sku).map((x) => x.priceFen));

/** The synced slot's recorded price (through the app's connection). */
export const slotPrice = async (t: TestApp, sku: string): Promise<number> =>
  Number(((await t.app.get(DataSource).query(`SELECT price_fen FROM slots WHERE id = $1`, [`loc-1-${sku}`])) as { price_fen: string }[])[0].price_fen);
