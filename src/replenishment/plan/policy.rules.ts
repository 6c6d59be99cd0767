/**
 * The replenishment policy (pure; docs/replenishment-policy.md): periodic review, order-up-to level.
 *
 *   protection  P = R + L                       (review period + mean lead time, days)
 *   safety      SS = z·√(P·σ² + d²·σ_L²)        (demand's spread over P and the lead time's own spread σ_L, days:
 *                                               a late delivery needs d units a day more; issue 25)
 *   room        C = capacity + ceil(d·L)        (what the slot can take of an order placed now: it arrives after L
 *                                               days of sales; issue 25: a cap at capacity alone starved slots
 *                                               whose lead-time demand is a large share of their capacity)
 *   target      S = min(C, ceil(d·P + SS))      (on the inventory position)
 *   reorder pt  s = min(C, ceil(d·L + z·√(L·σ² + d²·σ_L²)))
 *   position    x = stock + on order            (units of placed runs not yet received: inventory-position.rules.ts)
 *   need        n = max(0, S − x)               (each)
 *   depot       h = min(n, depot stock of the good left for this slot)   (depot/depot.rules.ts): never bought
 *   from depot  f = min(h, capacity − stock)    (filled now: what the slot has room for; the rest of h waits in
 *                                               the depot for the slot, `depot_held`, since the room rule may put
 *                                               the target above capacity)
 *   incoming    i = min(n − h, box remainders of placed runs on their way to the depot, left for this slot)
 *                                               (inventory-position.rules `expectedToDepot`): never bought either
 *   quantity    q = n − h − i                   (each, bought)
 *   boxes       b = ceil(q / pack)              when the fulfiller sells the good by the box (pack > 1)
 */
import type { PackUnit } from '../../partners/adapter.types';

export interface PolicyInput {
  ratePerDay: number;
  sigmaDaily: number;
  leadTimeDays: number;
  /** σ_L, the spread of the lead time in days (0 or absent: the lead time is taken as certain). */
  leadTimeSigmaDays?: number;
  reviewPeriodDays: number;
  z: number;
  stock: number;
  /** Units already ordered for the slot and not yet received (0 when none). */
  onOrder?: number;
  /** Units of the good the depot still holds for this slot (0 when none): served before buying. */
  depotAvailable?: number;
  /** Units of the good that placed runs will bring to the depot (box remainders), still unclaimed (0 when none). */
  depotIncoming?: number;
  capacity: number | null;
  /** The fulfiller's product, or null when it does not carry the good. */
  product: { packSize: number; packPriceFen: number; eachPriceFen: number } | null;
}

export interface PolicyLine {
  safetyStock: number;
  reorderPoint: number;
  target: number;
  /** True when capacity lowered the target. */
  cappedAtCapacity: boolean;
  /** Units (each) the slot gets from the depot now (it has room for them): nothing is bought for them. */
  fromDepot: number;
  /** Units (each) of the depot kept for the slot that do not fit yet: not bought either (served on a later plan). */
  depotHeld: number;
  /** Units (each) the slot will get from the depot once a placed run's box remainder arrives there: not bought. */
  depotIncoming: number;
  /** Units (each) the slot needs bought. */
  quantityEach: number;
  /** What is ordered: `BX` boxes of `contains` each, or `EA`. */
  unit: PackUnit;
  contains: number;
  quantity: number;
  /** Units that arrive: quantity × contains (may exceed the need when rounded up to a box). */
  orderedEach: number;
  /** Estimated cost in fen at catalog prices; null when the fulfiller does not carry the good. */
  costEstimateFen: number | null;
  unitPriceFen: number | null;
}

const EPS = 1e-9;

function ceilSafe(x: number): number {
  return Math.max(0, Math.ceil(x - EPS));
}

export function applyPolicy(p: PolicyInput): PolicyLine {
  const protection = p.reviewPeriodDays + p.leadTimeDays;
  const sL = Math.max(0, p.leadTimeSigmaDays ?? 0);
  const leadVar = (p.ratePerDay * sL) ** 2;
  const sigma2 = p.sigmaDaily * p.sigmaDaily;
  const safety = p.z * Math.sqrt(protection * sigma2 + leadVar);
  const rawTarget = ceilSafe(p.ratePerDay * protection + safety);
  const rawReorder = ceilSafe(p.ratePerDay * p.leadTimeDays + p.z * Math.sqrt(p.leadTimeDays * sigma2 + leadVar));
  const cap = p.capacity === null ? Infinity : p.capacity + ceilSafe(p.ratePerDay * p.leadTimeDays);
  const target = Math.min(cap, rawTarget);
  const reorderPoint = Math.min(cap, rawReorder);
  const need = Math.max(0, target - Math.max(0, p.stock) - Math.max(0, p.onOrder ?? 0));
  const fromDepotAll = Math.min(need, Math.max(0, p.depotAvailable ?? 0));
  // A slot takes from the depot only what fits now; the room rule may put its target above capacity.
  const roomNow = p.capacity === null ? Infinity : Math.max(0, p.capacity - Math.max(0, p.stock));
  const fromDepot = Math.min(fromDepotAll, roomNow);
  const depotIncoming = Math.min(need - fromDepotAll, Math.max(0, p.depotIncoming ?? 0));
  const quantityEach = need - fromDepotAll - depotIncoming;
  const boxes = p.product !== null && p.product.packSize > 1;
  const contains = boxes ? p.product!.packSize : 1;
  const quantity = boxes ? Math.ceil(quantityEach / contains) : quantityEach;
  const unitPriceFen = p.product === null ? null : boxes ? p.product.packPriceFen : p.product.eachPriceFen;
  return {
    safetyStock: Math.round(safety * 100) / 100,
    reorderPoint,
    target,
    cappedAtCapacity: rawTarget > cap,
    fromDepot,
    depotHeld: fromDepotAll - fromDepot,
    depotIncoming,
    quantityEach,
    unit: boxes ? 'BX' : 'EA',
    contains,
    quantity,
    orderedEach: quantity * contains,
    costEstimateFen: unitPriceFen === null ? null : quantity * unitPriceFen,
    unitPriceFen,
  };
}
