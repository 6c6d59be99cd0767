/**
 * A real fleet in production mode for the replenishment tests: vendor `acme` registered in both roles with
 * `sharedIdSpace: true` (its machine goods resolve to `acme-supply` through the implied vendor alias), a second
 * supplier `beta` (reached through a barcode alias), and two machines synced over HTTP. Goods:
 *   COLA  both machines, stock 4   → acme-supply:COLA (box of 24 at 4,800 fen), needs summed into one box
 *   TEA   machine 1, stock 2, EAN   → beta-supply:BT-9 (same EAN; box of 6 at 1,800 fen), acme does not sell it
 *   NUTS  machine 2, stock 1        → nobody sells it: not_carried (beta's BX-1 has the same title: only a
 *                                     `suggested` alias, never used to order)
 * Without sales history the stated demand applies (1 a day, σ 1): target 14 for a stated lead time of 2 days.
 */
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { startTestApp, TestApp } from './test-app';

export const TEA_EAN = '6901234567892';

export interface Fleet {
  acme: FakePartner;
  beta: FakePartner;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startFleetPartners(): Promise<Fleet> {
  const acme = await startFakePartner({ token: 'acme-fleet-secret-71' });
  const beta = await startFakePartner({ token: 'beta-fleet-secret-72' });
  acme.state.inventory['FLEET-1'] = [
    { vendorSku: 'COLA', title: 'Cola 330ml', priceFen: 350, stock: 4 },
    { vendorSku: 'TEA', title: 'Green tea 500ml', priceFen: 450, stock: 2, barcode: TEA_EAN },
  ];
  acme.state.inventory['FLEET-2'] = [
    { vendorSku: 'COLA', title: 'Cola 330ml', priceFen: 350, stock: 4 },
    { vendorSku: 'NUTS', title: 'Salted peanuts 80g', priceFen: 800, stock: 1 },
  ];
  acme.state.catalog = [
    { vendorSku: 'COLA', title: 'Cola 330ml x24', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 500 },
    { vendorSku: 'WATER', title: 'Water 550ml', packSize: 1, packPriceFen: 100, eachPriceFen: 100, stock: 900 },
  ];
  beta.state.catalog = [
    { vendorSku: 'BT-9', title: 'Green tea 500ml x6', packSize: 6, packPriceFen: 1800, eachPriceFen: 300, stock: 80, barcode: TEA_EAN },
    { vendorSku: 'BX-1', title: 'Salted peanuts 80g', packSize: 1, packPriceFen: 900, eachPriceFen: 900, stock: 10 },
  ];
  const env = {
    SERVICE_ENV: 'production',
    SERVICE_HTTP_VENDORS: JSON.stringify([
      { namespace: 'acme-machine', baseUrl: acme.url, token: acme.token, capabilities: ['inventory', 'ledger'], sharedIdSpace: true },
      { namespace: 'acme-supply', baseUrl: acme.url, token: acme.token, capabilities: ['catalog', 'orders'], sharedIdSpace: true },
      { namespace: 'beta-supply', baseUrl: beta.url, token: beta.token, capabilities: ['catalog', 'orders'] },
    ]),
    SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
    SERVICE_DEFAULT_SUPPLY_NAMESPACE: 'acme-supply',
  };
  return {
    acme,
    beta,
    env,
    async close() {
      await acme.close();
      await beta.close();
    },
  };
}

/** A production service over the fleet with both machines registered and synced. */
export async function startFleetApp(fleet: Fleet, extra: Record<string, string> = {}, databaseUrl?: string, db?: 'postgres' | 'embedded'): Promise<TestApp> {
  const t = await startTestApp({ databaseUrl, db, env: { ...fleet.env, ...extra } });
  if (!databaseUrl) {
    await t.put('/ucp/v1/locations/FLEET-1', { name: 'Lobby' }).expect(200);
    await t.put('/ucp/v1/locations/FLEET-2', { name: 'Gym' }).expect(200);
    const synced = await t.post('/ucp/v1/locations/sync', {}).expect(200);
    expect(synced.body.slots).toBe(4);
  }
  return t;
}

/** The fleet's partners and a service over them (as startFleetApp); `close` stops both. */
export async function startFleetWithApp(extra: Record<string, string> = {}, db?: 'postgres' | 'embedded'): Promise<{ fleet: Fleet; t: TestApp; close(): Promise<void> }> {
  const fleet = await startFleetPartners();
  const t = await startFleetApp(fleet, extra, undefined, db);
  return {
    fleet,
    t,
    async close() {
      await t.close();
      await fleet.close();
    },
  };
}

/** The delivery of the fleet's whole planned run: the box of Cola split 10 + 14, two packs of tea (12). */
export const FLEET_RUN_DELIVERED = [
  { slot_id: 'FLEET-1-COLA', quantity: 10 },
  { slot_id: 'FLEET-2-COLA', quantity: 14 },
  { slot_id: 'FLEET-1-TEA', quantity: 12 },
];
