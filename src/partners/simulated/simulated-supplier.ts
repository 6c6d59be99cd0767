/**
 * The in-process supplier (docs/contract/): staging's supplier and, in every environment, the replenishment
 * run's fulfiller. Sixty products, most sharing their vendorSku with the simulated machine platform (vendor "sim"
 * declares one product id space). Orders are idempotent by ref and arrive some hours later; nothing is ever spent.
 */
import {
  PartnerError,
  RejectedRecord,
  SupplyAdapter,
  SupplyOrderAck,
  SupplyOrderRequest,
  SupplyOrderStatus,
  SupplyProduct,
} from '../adapter.types';
import { parseSkuId } from '../../identifiers/identifiers';
import { extractBarcode } from '../http/contract-parsers';
import { buildWorld, hashOf, HOUR_MS } from './mock-data';
import { logCall, SimulatedCall } from './simulated-machine-platform';

export interface SimulatedSupplierOptions {
  seed?: number;
  now?: () => number;
  /** An order arrives this long after it was placed (default 6 hours). */
  arrivalAfterMs?: number;
}

interface StoredOrder {
  request: SupplyOrderRequest;
  ack: SupplyOrderAck;
  createdAt: number;
  cancelled: boolean;
}

const METHODS = ['shipping', 'pickup', 'restock'];
/** The warehouse hands a shipment to the carrier this long after the order. */
const DISPATCH_AFTER_MS = HOUR_MS;
const SITES = [{ siteId: 'sim-wh-sh', name: 'Songjiang warehouse, Shanghai' }];

export class SimulatedSupplier implements SupplyAdapter {
  readonly vendor: string;
  readonly simulated = true;
  readonly capabilities: ReadonlySet<string> = new Set(['catalog', 'orders']);
  /** The calls made to this supplier, in order; the last CALL_LOG_LIMIT are kept. */
  readonly calls: SimulatedCall[] = [];
  /** Every POST /orders received, repeats of a ref and refused ones included. */
  readonly orderCalls: SupplyOrderRequest[] = [];

  private readonly products: SupplyProduct[];
  private readonly bySku: Map<string, SupplyProduct>;
  private readonly orders = new Map<string, StoredOrder>();
  private readonly now: () => number;
  private readonly arrivalAfterMs: number;
  private readonly seed: number;

  constructor(
    readonly namespace: string,
    options: SimulatedSupplierOptions = {},
  ) {
    this.vendor = namespace.replace(/-supply$/, '');
    const world = buildWorld(options.seed);
    this.seed = world.seed;
    this.now = options.now ?? Date.now;
    this.arrivalAfterMs = options.arrivalAfterMs ?? 6 * HOUR_MS;
    this.products = world.supply.map((s, i) => ({
      vendorSku: s.vendorSku,
      title: s.title,
      packSize: s.packSize,
      packPriceFen: s.packPriceFen,
      eachPriceFen: s.eachPriceFen,
      eachPriceDerived: s.eachPriceDerived,
      stock: s.stock,
      // Read the way an HTTP supplier's answer is read, so the barcode-in-spec products exercise the same rule.
      barcode: extractBarcode({ barcode: s.barcodeField, spec: s.spec, title: s.title }),
      spec: s.spec,
      costFen: s.costFen,
      sites: i % 4 === 0 ? null : SITES,
    }));
    this.bySku = new Map(this.products.map((p) => [p.vendorSku, p]));
  }

  /** Orders actually created (distinct refs). */
  get orderCount(): number {
    return this.orders.size;
  }

  async getCatalog(): Promise<{ products: SupplyProduct[]; rejected: RejectedRecord[] }> {
    this.record('getCatalog', []);
    return { products: structuredClone(this.products), rejected: [] };
  }

  async createOrder(req: SupplyOrderRequest): Promise<SupplyOrderAck> {
    this.record('createOrder', [req]);
    logCall(this.orderCalls, structuredClone(req));
    if (typeof req.ref !== 'string' || req.ref === '') this.refuse('ref is missing');
    const known = this.orders.get(req.ref);
    // Idempotent by ref: the same ref gives the same order, and no second one is created.
    if (known) return { ...known.ack };
    if (!Array.isArray(req.lines) || req.lines.length === 0) this.refuse('lines is empty');
    for (const l of req.lines) {
      if (!this.bySku.has(l.vendorSku) && !this.standsInFor(l.vendorSku)) this.refuse(`unknown vendorSku ${l.vendorSku}`);
      if (!Number.isSafeInteger(l.quantity) || l.quantity < 1) this.refuse(`quantity of ${l.vendorSku} must be an integer >= 1, got ${l.quantity}`);
      if (l.unit !== 'each' && l.unit !== 'pack') this.refuse(`unit of ${l.vendorSku} must be each or pack, got ${String(l.unit)}`);
    }
    if (!req.fulfillment || !METHODS.includes(req.fulfillment.method)) {
      this.refuse(`fulfillment.method ${String(req.fulfillment?.method)} is not offered (shipping, pickup, restock)`);
    }
    const ack: SupplyOrderAck = {
      ref: req.ref,
      orderId: `SIMSO${String(hashOf(this.seed, req.ref)).padStart(10, '0')}`,
      state: 'ordered',
      rawStatus: 'WAIT_SELLER_SEND',
    };
    this.orders.set(req.ref, { request: structuredClone(req), ack, createdAt: this.now(), cancelled: false });
    return { ...ack };
  }

  async getOrder(ref: string): Promise<SupplyOrderStatus> {
    this.record('getOrder', [ref]);
    const o = this.orders.get(ref);
    if (!o) this.refuse(`unknown order ref ${ref}`, 404);
    const age = this.now() - o.createdAt;
    const pickup = o.request.fulfillment.method === 'pickup';
    const carrier = pickup ? null : 'SF Express';
    const trackingNo = pickup ? null : `SF${String(hashOf(this.seed, 'track', ref)).padStart(12, '0')}`;
    if (o.cancelled) {
      return { ref, state: 'cancelled', rawStatus: 'TRADE_CLOSED', logistics: [{ carrier, trackingNo, status: 'cancelled', updatedAt: o.createdAt }] };
    }
    if (age >= this.arrivalAfterMs) {
      const at = o.createdAt + this.arrivalAfterMs;
      return { ref, state: 'arrived', rawStatus: 'TRADE_FINISHED', logistics: [{ carrier, trackingNo, status: pickup ? 'picked_up' : 'delivered', updatedAt: at }] };
    }
    const dispatched = age >= DISPATCH_AFTER_MS;
    return {
      ref,
      state: 'ordered',
      rawStatus: dispatched ? 'WAIT_BUYER_CONFIRM' : 'WAIT_SELLER_SEND',
      logistics: [
        dispatched
          ? { carrier, trackingNo, status: pickup ? 'ready_for_pickup' : 'in_transit', updatedAt: o.createdAt + DISPATCH_AFTER_MS }
          : { carrier, trackingNo: null, status: 'accepted', updatedAt: o.createdAt },
      ],
    };
  }

  /** The supplier cancels an order that has not arrived (staging demos and tests of the cancelled path). */
  cancel(ref: string): void {
    const o = this.orders.get(ref);
    if (!o) this.refuse(`unknown order ref ${ref}`, 404);
    if (this.now() - o.createdAt < this.arrivalAfterMs) o.cancelled = true;
  }

  /**
   * As a replenishment fulfiller the simulated supplier carries every planned good (docs/contract/): a
   * line naming another supplier's good by its full supply sku id (`acme-supply:COLA`) is taken as a stand-in.
   */
  private standsInFor(vendorSku: string): boolean {
    const p = parseSkuId(vendorSku);
    return p !== null && p.role === 'supply' && p.namespace !== this.namespace;
  }

  private record(method: string, args: unknown[]): void {
    logCall(this.calls, { method, at: this.now(), args: structuredClone(args) });
  }

  private refuse(reason: string, status = 400): never {
    // Its 404 is always "this reference does not exist".
    throw new PartnerError('rejected', this.namespace, reason, status, status === 404);
  }
}
