/**
 * The in-process machine platform of staging (decisions.md section 2): four machines, forty products, five weeks of
 * sales ending now. Data derive from a seed (mock-data.ts); only prices, stock and restock requests change in memory.
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
  }

  /** The simulated machines (id, name), for staging set-up and tests. */
  locations(): { locationId: string; name: string }[] {
    return this.world.machines.map((m) => ({ locationId: m.locationId, name: m.name }));
  }

  async getInventory(locationId: string): Promise<{ items: MachineInventoryItem[]; rejected: RejectedRecord[] }> {
    this.record('getInventory', [locationId]);
    this.deliverDueRestocks();
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
    const now = this.now();
    const windowStart = dayStartMs(dayIndexOf(now) - (LEDGER_DAYS - 1));
    const timeOf = (r: LedgerRecord) => (q.by === 'updated' ? (r.updatedAt ?? r.createdAt) : (r.takenAt ?? r.createdAt));
    const first = dayIndexOf(Math.max(q.fromMs - MAX_ORDER_LAG_MS, windowStart));
    const last = dayIndexOf(Math.min(q.toMs, now));
    const found: { t: number; r: LedgerRecord }[] = [];
    for (let d = first; d <= last; d++) {
      for (const plan of this.plansOf(d)) {
        if (plan.createdAt < windowStart || plan.createdAt > now) continue;
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
    this.deliverDueRestocks();
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
    this.deliverDueRestocks();
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

  /** Completes binding restocks whose time has come: stock rises by the requested quantity, capped at capacity. */
  private deliverDueRestocks(): void {
    const now = this.now();
    for (const r of this.restocks.values()) {
      if (!r.request.binding || r.delivered || now < r.createdAt + this.completeAfterMs) continue;
      const slots = this.slots.get(r.request.locationId)!;
      r.delivered = r.request.lines.map((l) => {
        const slot = slots.find((s) => s.vendorSku === l.vendorSku)!;
        const quantity = Math.min(l.quantity, Math.max(0, slot.capacity - slot.stock));
        slot.stock += quantity;
        return { vendorSku: l.vendorSku, quantity };
      });
    }
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

const STATE_WORDS: Record<string, [string, string]> = {
  in_progress: ['WAIT_SETTLE', 'awaiting settlement'],
  pending_review: ['WAIT_REVIEW', 'under review'],
  settled: ['TRADE_SUCCESS', 'completed'],
  payment_failed: ['PAY_FAILED', 'payment failed'],
  refunded: ['REFUND_SUCCESS', 'refunded'],
  cancelled: ['TRADE_CLOSED', 'closed'],
};

/** The order as the platform shows it at `now`: its state follows the plan's offsets. */
export function recordAt(plan: SimOrderPlan, now: number): LedgerRecord {
  const c = plan.createdAt;
  const age = now - c;
  const taken = plan.outcome !== 'cancelled' && age >= plan.takeAfter ? c + plan.takeAfter : null;
  let state = 'in_progress';
  let lineStatus = plan.outcome === 'cancelled' || plan.outcome === 'unpaid' ? 'unpaid' : 'paid';
  let settledAt: number | null = null;
  let updatedAt = taken ?? c;
  let finalized = false;
  let raw: string | null = null;
  const settled = () => {
    state = 'settled';
    settledAt = c + plan.settleAfter;
    updatedAt = settledAt;
    finalized = true;
  };
  switch (plan.outcome) {
    case 'paid':
      if (age >= plan.settleAfter) settled();
      break;
    case 'review':
      if (age >= plan.finalAfter) {
        settled();
        settledAt = c + plan.finalAfter;
        updatedAt = settledAt;
      } else if (taken !== null) state = 'pending_review';
      break;
    case 'refunded':
    case 'refund_failed':
      if (age >= plan.settleAfter) settled();
      if (age >= plan.finalAfter) {
        updatedAt = c + plan.finalAfter;
        if (plan.outcome === 'refunded') {
          state = 'refunded';
          lineStatus = 'refunded';
        } else {
          // The refund bounced: the money stays with the operator and someone has to look at it.
          lineStatus = 'refund_failed';
          raw = 'REFUND_FAILED';
          finalized = false;
        }
      }
      break;
    case 'cancelled':
      if (age >= 60_000) {
        state = 'cancelled';
        lineStatus = 'cancelled';
        updatedAt = c + 60_000;
        finalized = true;
      }
      break;
    case 'unpaid':
      if (age >= plan.takeAfter + 60_000) {
        state = 'payment_failed';
        updatedAt = c + plan.takeAfter + 60_000;
      }
      break;
  }
  const lines: LedgerLine[] = plan.lines.map((l) => ({ ...l, status: lineStatus }));
  const [stateRaw, stateLabel] = STATE_WORDS[state];
  return {
    orderNo: plan.orderNo,
    locationId: plan.locationId,
    totalFen: plan.lines.reduce((sum, l) => sum + l.priceFen * l.quantity, 0),
    createdAt: c,
    takenAt: taken,
    settledAt,
    updatedAt,
    finalized,
    state,
    stateRaw: raw ?? stateRaw,
    stateLabel,
    lines,
  };
}
