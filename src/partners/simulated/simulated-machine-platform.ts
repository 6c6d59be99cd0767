/**
 * The in-process machine platform of staging (docs/contract/): four machines, forty products, five weeks of
 * sales ending now. Data derive from a seed (mock-data.ts); only prices, stock and restock requests change in memory.
 * From start-up on, its machines sell from their shelves as its clock moves, and deliveries go back on them
 * (sim-shelves.ts, issue 25), so a sync after a delivery reads the delivered stock minus what sold since.
 * It behaves like a conforming partner: unknown ids and bad values are refused with PartnerError 'rejected', as an
 * HTTP partner's 4xx `{ok:false, reason}` would be.
 */
import {
  LedgerLine,
  LedgerPage,
  LedgerQuery,
  LedgerRecord,
  MachineAdapter,
  MachineInventoryItem,
  PartnerError,
  PriceChange,
  PriceUpdateResult,
  RejectedRecord,
  RestockAck,
  RestockRequest,
  RestockState,
  RestockStatus,
} from '../adapter.types';
import {
  buildWorld,
  dayIndexOf,
  dayStartMs,
  hashOf,
  HOUR_MS,
  LEDGER_DAYS,
  MAX_ORDER_LAG_MS,
  planDay,
  SimOrderPlan,
  SimProduct,
  SimSlot,
  SimWorld,
} from './mock-data';
import { slotId } from '../../identifiers/identifiers';
import { SimShelves } from './sim-shelves';
import { recordAt } from './sim-ledger-record';

export { recordAt };

export interface SimulatedMachineOptions {
  seed?: number;
  /** The platform's clock; tests pass a controllable one. */
  now?: () => number;
  /** A binding restock is completed this long after it was sent (default 2 hours). */
  restockCompletesAfterMs?: number;
}

export interface SimulatedCall {
  method: string;
  at: number;
  args: unknown[];
}

/** Call logs keep the most recent entries only: staging runs for weeks and reads the ledger every 5 minutes. */
export const CALL_LOG_LIMIT = 1000;

export function logCall<T>(log: T[], entry: T): void {
  log.push(entry);
  if (log.length > CALL_LOG_LIMIT) log.splice(0, log.length - CALL_LOG_LIMIT);
}

interface StoredRestock {
  request: RestockRequest;
  ack: RestockAck;
  createdAt: number;
  delivered: { vendorSku: string; quantity: number }[] | null;
}

/** A binding restock stays `pending` this long (the route planner has not scheduled it yet). */
const RESTOCK_PENDING_MS = 15 * 60_000;
const MAX_PAGE_SIZE = 500;

export class SimulatedMachinePlatform implements MachineAdapter {
  readonly vendor: string;
  readonly simulated = true;
  readonly capabilities: ReadonlySet<string> = new Set(['inventory', 'ledger', 'pricing', 'replenishment.recommend', 'replenishment.order']);
  /** The calls made to this platform, in order (tests assert on it); the last CALL_LOG_LIMIT are kept. */
  readonly calls: SimulatedCall[] = [];
  /** Every POST /restock received, repeats of a ref included. */
  readonly restockCalls: RestockRequest[] = [];
  /** Every POST /prices received. */
  readonly priceCalls: { locationId: string; prices: PriceChange[] }[] = [];

  private readonly world: SimWorld;
  private readonly now: () => number;
  private readonly completeAfterMs: number;
  private readonly slots = new Map<string, SimSlot[]>();
  private readonly products: Map<string, SimProduct>;
  private readonly restocks = new Map<string, StoredRestock>();
  private readonly dayCache = new Map<number, SimOrderPlan[]>();
  private readonly shelves: SimShelves;

  constructor(
    readonly namespace: string,
    options: SimulatedMachineOptions = {},
  ) {
    this.vendor = namespace.replace(/-machine$/, '');
    this.world = buildWorld(options.seed);
    this.now = options.now ?? Date.now;
    this.completeAfterMs = options.restockCompletesAfterMs ?? 2 * HOUR_MS;
    this.products = new Map(this.world.products.map((p) => [p.vendorSku, p]));
    // Mutable copies: price changes and deliveries must not alter the seed world the ledger is generated from.
    for (const m of this.world.machines) this.slots.set(m.locationId, m.slots.map((s) => ({ ...s })));
    this.shelves = new SimShelves(this.slots, this.now(), (d) => this.plansOf(d));
  }

  /**
   * Goods a person received into the service's slots (`POST /runs/{id}/receive`): the route staff put them on this
   * platform's shelves, capped at each slot's capacity. Slot ids of other platforms are ignored. The units put on.
   */
  applyReceived(received: { slot_id: string; quantity: number }[]): { slot_id: string; quantity: number }[] {
    this.record('applyReceived', [received]);
    this.catchUp();
    const out: { slot_id: string; quantity: number }[] = [];
    for (const r of received) {
      const slot = this.slotByServiceId(r.slot_id);
      if (slot && Number.isSafeInteger(r.quantity) && r.quantity > 0) out.push({ slot_id: r.slot_id, quantity: this.shelves.deliver(slot, r.quantity) });
    }
    return out;
  }

  /** The simulated machines (id, name), for staging set-up and tests. */
  locations(): { locationId: string; name: string }[] {
    return this.world.machines.map((m) => ({ locationId: m.locationId, name: m.name }));
  }

  async getInventory(locationId: string): Promise<{ items: MachineInventoryItem[]; rejected: RejectedRecord[] }> {
    this.record('getInventory', [locationId]);
    this.catchUp();
    const items = this.slotsOf(locationId).map((s) => {
      const p = this.products.get(s.vendorSku)!;
      return { vendorSku: s.vendorSku, title: p.title, priceFen: s.priceFen, stock: s.stock, barcode: p.barcode, slotId: s.slotId, capacity: s.capacity };
    });
    return { items, rejected: [] };
  }

  async getLedger(q: LedgerQuery): Promise<LedgerPage> {
    this.record('getLedger', [{ ...q }]);
    if (!Number.isSafeInteger(q.page) || q.page < 1) this.refuse(`page must be an integer >= 1, got ${q.page}`);
    if (!Number.isSafeInteger(q.size) || q.size < 1 || q.size > MAX_PAGE_SIZE) this.refuse(`size must be 1..${MAX_PAGE_SIZE}, got ${q.size}`);
    if (!Number.isSafeInteger(q.fromMs) || !Number.isSafeInteger(q.toMs) || q.fromMs > q.toMs) this.refuse('fromMs and toMs must be epoch ms with fromMs <= toMs');
    this.catchUp();
    const now = this.now();
    const windowStart = dayStartMs(dayIndexOf(now) - (LEDGER_DAYS - 1));
    const timeOf = (r: LedgerRecord) => (q.by === 'updated' ? (r.updatedAt ?? r.createdAt) : (r.takenAt ?? r.createdAt));
    const first = dayIndexOf(Math.max(q.fromMs - MAX_ORDER_LAG_MS, windowStart));
    const last = dayIndexOf(Math.min(q.toMs, now));
    const found: { t: number; r: LedgerRecord }[] = [];
    for (let d = first; d <= last; d++) {
      for (const planned of this.plansOf(d)) {
        if (planned.createdAt < windowStart || planned.createdAt > now) continue;
        const plan = this.shelves.served(planned);
        if (!plan) continue;
        const r = recordAt(plan, now);
        const t = timeOf(r);
        if (t >= q.fromMs && t <= q.toMs) found.push({ t, r });
      }
    }
    // A total order (time, then orderNo) keeps pages stable while the window is read page by page.
    found.sort((a, b) => a.t - b.t || (a.r.orderNo < b.r.orderNo ? -1 : 1));
    const start = (q.page - 1) * q.size;
    return { records: found.slice(start, start + q.size).map((f) => f.r), rejected: [], hasMore: start + q.size < found.length };
  }

  async setPrices(locationId: string, prices: PriceChange[]): Promise<PriceUpdateResult> {
    this.record('setPrices', [locationId, prices]);
    logCall(this.priceCalls, { locationId, prices: prices.map((p) => ({ ...p })) });
    const slots = this.slotsOf(locationId);
    if (!Array.isArray(prices) || prices.length === 0) this.refuse('prices is empty');
    // Checked before anything changes: a refused request changes no price at all.
    const targets = prices.map((p) => {
      const slot = slots.find((s) => s.vendorSku === p.vendorSku);
      if (!slot) this.refuse(`vendorSku ${p.vendorSku} is not sold at ${locationId}`);
      if (!Number.isSafeInteger(p.priceFen) || p.priceFen <= 0) this.refuse(`priceFen of ${p.vendorSku} is not a positive integer: ${p.priceFen}`);
      return { slot, priceFen: p.priceFen };
    });
    const updated = targets.map(({ slot, priceFen }) => {
      const previousFen = slot.priceFen;
      slot.priceFen = priceFen;
      return { vendorSku: slot.vendorSku, previousFen, priceFen };
    });
    return { updated };
  }

  async sendRestock(req: RestockRequest): Promise<RestockAck> {
    this.record('sendRestock', [req]);
    logCall(this.restockCalls, structuredClone(req));
    this.catchUp();
    if (typeof req.ref !== 'string' || req.ref === '') this.refuse('ref is missing');
    const known = this.restocks.get(req.ref);
    // Idempotent by ref: a repeat gets the first answer and creates nothing.
    if (known) return { ...known.ack };
    const slots = this.slotsOf(req.locationId);
    if (!Array.isArray(req.lines) || req.lines.length === 0) this.refuse('lines is empty');
    for (const l of req.lines) {
      if (!slots.some((s) => s.vendorSku === l.vendorSku)) this.refuse(`vendorSku ${l.vendorSku} is not sold at ${req.locationId}`);
      if (!Number.isSafeInteger(l.quantity) || l.quantity < 1) this.refuse(`quantity of ${l.vendorSku} is not a positive integer: ${l.quantity}`);
    }
    const externalRef = req.binding ? `SIMRS${String(hashOf(this.world.seed, req.ref)).padStart(10, '0')}` : null;
    const ack = { accepted: req.lines.length, externalRef };
    this.restocks.set(req.ref, { request: structuredClone(req), ack, createdAt: this.now(), delivered: null });
    return { ...ack };
  }

  async getRestock(ref: string): Promise<RestockState> {
    this.record('getRestock', [ref]);
    this.catchUp();
    const r = this.restocks.get(ref);
    if (!r) this.refuse(`unknown restock ref ${ref}`, 404);
    const age = this.now() - r.createdAt;
    // A recommendation (binding: false) is advice for the route staff: it never progresses on the platform.
    let status: RestockStatus = 'pending';
    if (r.request.binding) status = r.delivered ? 'completed' : age < RESTOCK_PENDING_MS ? 'pending' : 'in_progress';
    return {
      ref,
      status,
      delivered: (r.delivered ?? []).map((d) => ({ ...d })),
      completedAt: r.delivered ? r.createdAt + this.completeAfterMs : null,
      externalRef: r.ack.externalRef,
    };
  }

  /**
   * Brings the shelves to now: sales up to each binding restock whose time has come, that restock (stock rises by
   * the requested quantity, capped at capacity), and so on, then the sales up to now.
   */
  private catchUp(): void {
    const now = this.now();
    const due = [...this.restocks.values()]
      .filter((r) => r.request.binding && !r.delivered && now >= r.createdAt + this.completeAfterMs)
      .sort((a, b) => a.createdAt - b.createdAt);
    for (const r of due) {
      this.shelves.sellUntil(r.createdAt + this.completeAfterMs);
      const slots = this.slots.get(r.request.locationId)!;
      r.delivered = r.request.lines.map((l) => ({ vendorSku: l.vendorSku, quantity: this.shelves.deliver(slots.find((s) => s.vendorSku === l.vendorSku)!, l.quantity) }));
    }
    this.shelves.sellUntil(now);
  }

  private slotByServiceId(id: string): SimSlot | undefined {
    for (const [locationId, slots] of this.slots) {
      const slot = slots.find((s) => slotId(locationId, s.vendorSku) === id);
      if (slot) return slot;
    }
    return undefined;
  }

  private plansOf(dayIndex: number): SimOrderPlan[] {
    let plans = this.dayCache.get(dayIndex);
    if (!plans) {
      plans = planDay(this.world, dayIndex);
      this.dayCache.set(dayIndex, plans);
      // Bounded memory: a few weeks of days at most; the oldest generated day goes first.
      if (this.dayCache.size > LEDGER_DAYS + 5) this.dayCache.delete(Math.min(...this.dayCache.keys()));
    }
    return plans;
  }

  private slotsOf(locationId: string): SimSlot[] {
    const slots = this.slots.get(locationId);
    if (!slots) this.refuse(`unknown locationId ${locationId}`, 404);
    return slots;
  }

  private record(method: string, args: unknown[]): void {
    logCall(this.calls, { method, at: this.now(), args: structuredClone(args) });
  }

  private refuse(reason: string, status = 400): never {
    // Its 404 is always "this reference does not exist".
    throw new PartnerError('rejected', this.namespace, reason, status, status === 404);
  }
}
