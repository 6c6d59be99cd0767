/**
 * The seeded world of the console's browser tests: the replenishment fleet (two machines on the HTTP fake partner
 * `acme`, suppliers `acme-supply` and `beta-supply`) with a sales ledger that holds a settled sale, a refund and a
 * cancellation, served with the console built from the current source.
 */
import { Fleet, startFleetApp, startFleetPartners } from '../support/fleet';
import { buildConsole } from '../support/console-build';
import type { TestApp } from '../support/test-app';

export interface ConsoleWorld {
  fleet: Fleet;
  t: TestApp;
  /** When SALE-1 was taken: today on the service's +08:00 calendar (2 h ago, or less just after its midnight). */
  saleTakenAt: number;
  close(): Promise<void>;
}

export async function startConsoleWorld(): Promise<ConsoleWorld> {
  const consoleDir = buildConsole();
  const fleet = await startFleetPartners();
  const now = Date.now();
  // Today's sales (SALE-1, REFUND-1, CANCEL-1: 2 h, 1 h and 30 min ago) stay on the service's +08:00 today also in the
  // first hours after its midnight (16:00-19:00 UTC), where they move closer to now in the same order.
  const sinceMidnight = (now + 8 * 3_600_000) % 86_400_000;
  const today = (agoMs: number) => (sinceMidnight > 3 * 3_600_000 ? agoMs : Math.floor((agoMs * sinceMidnight) / (3 * 3_600_000)));
  const sale = (orderNo: string, locationId: string, agoMs: number, totalFen: number, status: string, state?: string) => ({
    orderNo,
    locationId,
    totalFen,
    createdAt: now - agoMs,
    takenAt: now - agoMs,
    settledAt: now - agoMs + 1000,
    updatedAt: now - agoMs + 1000,
    finalized: true,
    ...(state ? { state } : {}),
    lines: [{ vendorSku: 'COLA', title: 'Cola 330ml', quantity: totalFen / 350, priceFen: 350, status, costFen: 200 }],
  });
  // Capacities give the Fleet screen its fill level; the peanuts are sold out.
  for (const slots of Object.values(fleet.acme.state.inventory) as { capacity?: number; stock: number; vendorSku: string }[][]) {
    for (const s of slots) s.capacity = 10;
  }
  (fleet.acme.state.inventory['FLEET-2'] as { vendorSku: string; stock: number }[]).find((s) => s.vendorSku === 'NUTS')!.stock = 0;
  fleet.acme.state.ledger = [
    sale('SALE-1', 'FLEET-1', today(2 * 3_600_000), 700, 'paid', 'settled'),
    sale('SALE-2', 'FLEET-1', 2 * 86_400_000, 1050, 'paid', 'settled'),
    sale('SALE-3', 'FLEET-2', 3 * 86_400_000, 350, 'paid', 'settled'),
    sale('REFUND-1', 'FLEET-1', today(3_600_000), 350, 'refunded', 'refunded'),
    sale('CANCEL-1', 'FLEET-2', today(1_800_000), 350, 'cancelled', 'cancelled'),
  ];
  // The machine platform also takes price changes here (the Machine screen's price form).
  const vendors = (JSON.parse(fleet.env.SERVICE_HTTP_VENDORS) as { namespace: string; capabilities: string[] }[]).map((v) =>
    v.namespace === 'acme-machine' ? { ...v, capabilities: [...v.capabilities, 'pricing'] } : v,
  );
  const t = await startFleetApp(fleet, { SERVICE_CONSOLE_DIR: consoleDir, SERVICE_PARTNER_TIMEOUT_MS: '3000', SERVICE_HTTP_VENDORS: JSON.stringify(vendors) });
  return {
    fleet,
    t,
    saleTakenAt: now - today(2 * 3_600_000),
    async close() {
      await t.close();
      await fleet.close();
    },
  };
}
