/**
 * What to bring (pure; docs/replenishment-policy.md, "The route day"). Only goods in the warehouse now (the depot)
 * are picked, for today's route only, machine by machine in route order; each slot is filled to last until its next
 * planned visit (route.rules fillTo), and what the warehouse lacks is said as `short`, never picked.
 */
import { fillTo } from './route.rules';

export interface PickSlot {
  slotId: string;
  skuId: string;
  title: string;
  position: string;
  stock: number;
  capacity: number | null;
  ratePerDay: number;
  sigmaDaily: number;
}

export interface RoutePick {
  slotId: string;
  skuId: string;
  title: string;
  position: string;
  stock: number;
  fillTo: number;
  /** Units to bring from the warehouse. */
  units: number;
  /** Units the slot should get that the warehouse does not hold. */
  short: number;
}

export interface GoodTotal {
  skuId: string;
  title: string;
  units: number;
  slots: number;
}

/** Picks per machine, in route order, from what the warehouse holds (`depot` per good, not modified). */
export function routePicks(machines: readonly { id: string; cycleDays: number; slots: readonly PickSlot[] }[], depot: ReadonlyMap<string, number>, z: number): Map<string, RoutePick[]> {
  const left = new Map(depot);
  const out = new Map<string, RoutePick[]>();
  for (const m of machines) {
    const picks: RoutePick[] = [];
    for (const s of m.slots) {
      const level = fillTo(s, m.cycleDays, z);
      const wanted = Math.max(0, level - Math.max(0, s.stock));
      if (wanted <= 0) continue;
      const units = Math.min(wanted, Math.max(0, left.get(s.skuId) ?? 0));
      left.set(s.skuId, (left.get(s.skuId) ?? 0) - units);
      picks.push({ slotId: s.slotId, skuId: s.skuId, title: s.title, position: s.position, stock: s.stock, fillTo: level, units, short: wanted - units });
    }
    out.set(m.id, picks);
  }
  return out;
}

/** Units per good over picks: `units` (the van list) or `short` (what the warehouse lacks). */
export function totalsByGood(picks: readonly RoutePick[], field: 'units' | 'short'): GoodTotal[] {
  const by = new Map<string, GoodTotal>();
  for (const p of picks) {
    if (p[field] <= 0) continue;
    const t = by.get(p.skuId) ?? { skuId: p.skuId, title: p.title, units: 0, slots: 0 };
    t.units += p[field];
    t.slots += 1;
    by.set(p.skuId, t);
  }
  return [...by.values()].sort((a, b) => b.units - a.units || a.skuId.localeCompare(b.skuId));
}
