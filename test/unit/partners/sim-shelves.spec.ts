import { LedgerRecord } from '../../../src/partners/adapter.types';
import { DAY_MS } from '../../../src/partners/simulated/mock-data';
import { SimulatedMachinePlatform } from '../../../src/partners/simulated/simulated-machine-platform';
import { slotId } from '../../../src/identifiers/identifiers';

const NOW = Date.parse('2026-08-25T15:30:00+08:00');
const LOC = 'sim-loc-01';

function clock(start = NOW) {
  const c = { t: start, now: () => c.t };
  return c;
}

async function ledger(p: SimulatedMachinePlatform, fromMs: number, toMs: number): Promise<LedgerRecord[]> {
  const out: LedgerRecord[] = [];
  for (let page = 1; ; page++) {
    const r = await p.getLedger({ fromMs, toMs, page, size: 500, by: 'created' });
    out.push(...r.records);
    if (!r.hasMore) return out;
  }
}

const TOOK_GOODS = new Set(['settled', 'pending_review', 'refunded', 'in_progress']);

/** Units of each sku at LOC that left the shelves in the ledger's orders created in (from, to]. */
function unitsSold(records: LedgerRecord[], from: number, to: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) {
    if (r.locationId !== LOC || r.createdAt <= from || r.createdAt > to || !TOOK_GOODS.has(r.state ?? '')) continue;
    if (r.lines.some((l) => l.status === 'unpaid' || l.status === 'cancelled')) continue;
    for (const l of r.lines) out.set(l.vendorSku, (out.get(l.vendorSku) ?? 0) + l.quantity);
  }
  return out;
}

/** Issue 25: the simulated machines sell from their shelves as the clock moves, and received goods go back on. */
describe('SimulatedMachinePlatform shelves', () => {
  it('stock falls by exactly the units its ledger shows sold since start-up', async () => {
    const c = clock();
    const p = new SimulatedMachinePlatform('sim-machine', { now: c.now });
    const before = new Map((await p.getInventory(LOC)).items.map((i) => [i.vendorSku, i.stock]));
    c.t += 2 * DAY_MS;
    const after = (await p.getInventory(LOC)).items;
    const sold = unitsSold(await ledger(p, NOW - DAY_MS, c.t), NOW, c.t);
    expect([...sold.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    for (const i of after) expect({ sku: i.vendorSku, stock: i.stock }).toEqual({ sku: i.vendorSku, stock: before.get(i.vendorSku)! - (sold.get(i.vendorSku) ?? 0) });
  });

  it('an empty slot sells nothing: stock never goes below 0 and the ledger shows only what was served', async () => {
    const c = clock();
    const p = new SimulatedMachinePlatform('sim-machine', { now: c.now });
    const start = new Map((await p.getInventory(LOC)).items.map((i) => [i.vendorSku, i.stock]));
    c.t += 20 * DAY_MS;
    const items = (await p.getInventory(LOC)).items;
    expect(items.every((i) => i.stock >= 0)).toBe(true);
    const empty = items.filter((i) => i.stock === 0);
    expect(empty.length).toBeGreaterThan(0);
    const sold = unitsSold(await ledger(p, NOW - DAY_MS, c.t), NOW, c.t);
    for (const i of empty) expect(sold.get(i.vendorSku) ?? 0).toBe(start.get(i.vendorSku));
  });

  it('puts received goods on the shelf, capped at capacity, and ignores other platforms’ slots', async () => {
    const c = clock();
    const p = new SimulatedMachinePlatform('sim-machine', { now: c.now });
    c.t += 3 * DAY_MS;
    const items = (await p.getInventory(LOC)).items;
    const low = items.find((i) => i.stock < i.capacity! - 1)!;
    const put = p.applyReceived([
      { slot_id: slotId(LOC, low.vendorSku), quantity: 1 },
      { slot_id: 'other-loc-SKU-1', quantity: 5 },
    ]);
    expect(put).toEqual([{ slot_id: slotId(LOC, low.vendorSku), quantity: 1 }]);
    expect((await p.getInventory(LOC)).items.find((i) => i.vendorSku === low.vendorSku)!.stock).toBe(low.stock + 1);
    const full = p.applyReceived([{ slot_id: slotId(LOC, low.vendorSku), quantity: 10_000 }]);
    expect(full[0].quantity).toBe(low.capacity! - low.stock - 1);
    expect((await p.getInventory(LOC)).items.find((i) => i.vendorSku === low.vendorSku)!.stock).toBe(low.capacity);
  });

  it('two platforms on one clock tell the same story, whatever the reading cadence', async () => {
    const c = clock();
    const a = new SimulatedMachinePlatform('sim-machine', { now: c.now });
    const b = new SimulatedMachinePlatform('sim-machine', { now: c.now });
    for (let h = 0; h < 48; h++) {
      c.t += 3_600_000;
      await a.getInventory(LOC); // a reads hourly, b once at the end
    }
    expect((await a.getInventory(LOC)).items).toEqual((await b.getInventory(LOC)).items);
    expect(await ledger(a, NOW - DAY_MS, c.t)).toEqual(await ledger(b, NOW - DAY_MS, c.t));
  });
});
