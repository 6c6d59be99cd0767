/**
 * Which machines need a visit today, and what to bring (issue 30). Pure: no Nest, no SQL. The ranking leads with
 * what a route driver loses money on first (sold-out slots, then slots about to sell out), then how empty the
 * machine is, how long since it was last filled, and whether its data can be trusted at all.
 */

/** The thresholds of the rule; each is returned with the answer so a reader can explain a ranking. */
export const VISIT_RULES = {
  /** A slot with fewer days of cover than this is "running low". */
  lowCoverDays: 2,
  /** A machine under this fill (percent of the capacity the platform gives) needs a visit. */
  lowFillPercent: 50,
  /** A machine not delivered to for this many days needs a visit. */
  deliveryDueDays: 7,
  /** Data older than this many hours is stale: the stock shown may be wrong, so someone should look. */
  staleHours: 8,
} as const;

/** Points of each signal in the score (the score orders machines; `needs_visit` decides whether one is listed). */
export const VISIT_WEIGHTS = { soldOutSlot: 10, lowCoverSlot: 5, fillPer10Percent: 1, deliveryPerDay: 0.5, deliveryMaxDays: 14, staleData: 3, neverSynced: 5 } as const;

export interface VisitSlotInput {
  slotId: string;
  skuId: string;
  title: string;
  stock: number;
  capacity: number | null;
  /** Units sold per day (measured over the sales window, or the fallback rate). */
  ratePerDay: number;
  measured: boolean;
}

export interface VisitMachineInput {
  id: string;
  name: string;
  slots: VisitSlotInput[];
  lastSyncedAt: Date | null;
  lastDeliveredAt: Date | null;
}

export type VisitReasonCode = 'sold_out' | 'low_cover' | 'low_fill' | 'delivery_due' | 'data_stale' | 'never_synced';
export interface VisitReason {
  code: VisitReasonCode;
  text: string;
}

export interface SlotCover {
  slotId: string;
  /** Stock over the demand rate; null when nothing sells (the stock lasts indefinitely). */
  coverDays: number | null;
}

export interface VisitAssessment {
  id: string;
  name: string;
  needsVisit: boolean;
  score: number;
  reasons: VisitReason[];
  inputs: {
    slots: number;
    soldOutSlots: number;
    lowCoverSlots: number;
    minCoverDays: number | null;
    fillPercent: number | null;
    daysSinceDelivery: number | null;
    dataAgeHours: number | null;
  };
  cover: SlotCover[];
}

const DAY_MS = 86_400_000;
const r2 = (x: number) => Math.round(x * 100) / 100;

/** Days of cover of one slot: stock over demand; 0 when sold out; null when nothing sells. */
export function coverDays(stock: number, ratePerDay: number): number | null {
  if (stock <= 0) return 0;
  if (!(ratePerDay > 0)) return null;
  return r2(stock / ratePerDay);
}

/** Stock over capacity in percent, over the slots whose capacity is known; null when none is. */
export function fillOf(slots: Pick<VisitSlotInput, 'stock' | 'capacity'>[]): number | null {
  let stock = 0;
  let cap = 0;
  for (const s of slots) {
    if (s.capacity === null || s.capacity <= 0) continue;
    stock += Math.min(Math.max(s.stock, 0), s.capacity);
    cap += s.capacity;
  }
  return cap > 0 ? Math.round((stock / cap) * 1000) / 10 : null;
}

/** Whole days between two instants (floor), or null when the earlier one is unknown. */
export function daysSince(at: Date | null, now: Date): number | null {
  return at === null ? null : Math.max(0, Math.floor((now.getTime() - at.getTime()) / DAY_MS));
}

export function hoursSince(at: Date | null, now: Date): number | null {
  return at === null ? null : Math.max(0, Math.round(((now.getTime() - at.getTime()) / 3_600_000) * 10) / 10);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One machine: its signals, its score, and the reasons in words (most urgent first). */
export function assessMachine(m: VisitMachineInput, now: Date): VisitAssessment {
  const R = VISIT_RULES;
  const W = VISIT_WEIGHTS;
  const cover = m.slots.map((s) => ({ slotId: s.slotId, coverDays: coverDays(s.stock, s.ratePerDay) }));
  const soldOut = m.slots.filter((s) => s.stock <= 0).length;
  const low = cover.filter((c) => c.coverDays !== null && c.coverDays > 0 && c.coverDays < R.lowCoverDays);
  const known = cover.map((c) => c.coverDays).filter((d): d is number => d !== null);
  const minCover = known.length ? Math.min(...known) : null;
  const fill = fillOf(m.slots);
  const sinceDelivery = daysSince(m.lastDeliveredAt, now);
  const age = hoursSince(m.lastSyncedAt, now);

  const reasons: VisitReason[] = [];
  if (soldOut > 0) reasons.push({ code: 'sold_out', text: `${plural(soldOut, 'slot is', 'slots are')} sold out` });
  if (low.length > 0) reasons.push({ code: 'low_cover', text: `${plural(low.length, 'slot runs', 'slots run')} out within ${R.lowCoverDays} days` });
  if (fill !== null && fill < R.lowFillPercent) reasons.push({ code: 'low_fill', text: `only ${fill}% full` });
  if (sinceDelivery !== null && sinceDelivery >= R.deliveryDueDays) reasons.push({ code: 'delivery_due', text: `last delivery ${sinceDelivery} days ago` });
  if (age === null) reasons.push({ code: 'never_synced', text: 'never synced: its stock is unknown' });
  else if (age > R.staleHours) reasons.push({ code: 'data_stale', text: `data is ${Math.floor(age)} hours old: check the machine` });

  let score = soldOut * W.soldOutSlot;
  for (const c of low) score += W.lowCoverSlot * (1 - c.coverDays! / R.lowCoverDays);
  if (fill !== null) score += ((100 - fill) / 10) * W.fillPer10Percent;
  if (sinceDelivery !== null) score += Math.min(sinceDelivery, W.deliveryMaxDays) * W.deliveryPerDay;
  if (age === null) score += W.neverSynced;
  else if (age > R.staleHours) score += W.staleData;

  return {
    id: m.id,
    name: m.name,
    needsVisit: reasons.length > 0,
    score: r2(score),
    reasons,
    inputs: {
      slots: m.slots.length,
      soldOutSlots: soldOut,
      lowCoverSlots: low.length,
      minCoverDays: minCover,
      fillPercent: fill,
      daysSinceDelivery: sinceDelivery,
      dataAgeHours: age,
    },
    cover,
  };
}

/** Machines that need a visit first, then by score (highest first), then by id: a total, stable order. */
export function rankVisits<T extends Pick<VisitAssessment, 'id' | 'needsVisit' | 'score'>>(list: T[]): T[] {
  return [...list].sort((a, b) => Number(b.needsVisit) - Number(a.needsVisit) || b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Where a slot's units come from: an open run that delivers them, or (later) the depot; null when nothing does yet. */
export type PickOrigin = { kind: 'open_run'; runId: string; runStatus: string } | { kind: 'depot' };

/** Units one source offers for one slot. */
export interface PickOffer {
  slotId: string;
  units: number;
  origin: PickOrigin;
}

export interface PickNeed {
  slotId: string;
  skuId: string;
  title: string;
  /** Units the plan says the slot needs now (order-up-to target less stock). */
  plannedUnits: number;
}

export interface PickLine {
  slotId: string;
  skuId: string;
  title: string;
  units: number;
  plannedUnits: number;
  origin: PickOrigin | null;
}

/**
 * The pick list of one machine. Offers are in the order of preference of their sources (the caller lists them so);
 * a slot takes the first offer for it. A slot with no offer still lists the plan's units, with no origin: it is
 * needed but nothing brings it yet. Slots that need nothing and have no offer are left out.
 */
/** The depot's offers: the plan's `from_depot` units per slot (what fits on the shelf now; issue 25's depot). */
export function depotOffers(lines: { slotId: string; fromDepot: number }[]): PickOffer[] {
  return lines.filter((l) => l.fromDepot > 0).map((l) => ({ slotId: l.slotId, units: l.fromDepot, origin: { kind: 'depot' } }));
}

export function pickList(needs: PickNeed[], offers: PickOffer[]): PickLine[] {
  const first = new Map<string, PickOffer>();
  for (const o of offers) if (o.units > 0 && !first.has(o.slotId)) first.set(o.slotId, o);
  const lines: PickLine[] = [];
  for (const n of needs) {
    const o = first.get(n.slotId);
    const units = o ? o.units : n.plannedUnits;
    if (units <= 0) continue;
    lines.push({ slotId: n.slotId, skuId: n.skuId, title: n.title, units, plannedUnits: n.plannedUnits, origin: o ? o.origin : null });
  }
  return lines;
}

export interface PreKitLine {
  skuId: string;
  title: string;
  units: number;
  slots: number;
}

/** Units per product over pick lines (for loading the van): most units first, then by product id. */
export function preKit(lines: Pick<PickLine, 'skuId' | 'title' | 'units'>[]): PreKitLine[] {
  const by = new Map<string, PreKitLine>();
  for (const l of lines) {
    const k = by.get(l.skuId) ?? { skuId: l.skuId, title: l.title, units: 0, slots: 0 };
    k.units += l.units;
    k.slots += 1;
    by.set(l.skuId, k);
  }
  return [...by.values()].sort((a, b) => b.units - a.units || (a.skuId < b.skuId ? -1 : a.skuId > b.skuId ? 1 : 0));
}
