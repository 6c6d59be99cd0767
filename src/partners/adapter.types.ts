/**
 * The adapter contract (spec "Partner contract", the contract (docs/contract/)) as TypeScript.
 * Both the HTTP adapters and the simulated partners implement these interfaces; services depend only on them.
 * All money is integer fen; all times are epoch ms or null. Adapters validate what partners send: a record
 * with a float/string amount or a missing required field is not returned in the data but listed in `rejected`
 * (the service turns those into `warning` messages), and the rest of the page is kept.
 */

export const MACHINE_CAPABILITIES = ['inventory', 'ledger', 'pricing', 'replenishment.recommend', 'replenishment.order'] as const;
export const MACHINE_REQUIRED = ['inventory', 'ledger'] as const;
export const SUPPLY_CAPABILITIES = ['catalog', 'orders'] as const;
export const SUPPLY_REQUIRED = ['catalog', 'orders'] as const;

/** A partner record the adapter refused (bad amount, missing field); `id` names it when it had one. */
export interface RejectedRecord {
  index: number;
  id?: string;
  reason: string;
}

// ---- machine role ----

export interface MachineInventoryItem {
  vendorSku: string;
  title: string;
  priceFen: number;
  stock: number;
  barcode: string | null;
  slotId: string | null;
  capacity: number | null;
}

export interface LedgerLine {
  vendorSku: string;
  title: string | null;
  quantity: number;
  priceFen: number;
  /** Adapter line status word: paid | unpaid | refunded | refund_failed | cancelled (others kept as given). */
  status: string;
  costFen: number | null;
}

export interface LedgerRecord {
  orderNo: string;
  locationId: string;
  totalFen: number;
  createdAt: number;
  takenAt: number | null;
  settledAt: number | null;
  updatedAt: number | null;
  finalized: boolean | null;
  state: string | null;
  stateRaw: string | null;
  stateLabel: string | null;
  lines: LedgerLine[];
}

export interface LedgerQuery {
  fromMs: number;
  toMs: number;
  page: number; // from 1
  size: number; // 100
  by: 'updated' | 'created';
}

export interface LedgerPage {
  records: LedgerRecord[];
  rejected: RejectedRecord[];
  hasMore: boolean;
}

export interface PriceChange {
  vendorSku: string;
  priceFen: number;
}
export interface PriceUpdateResult {
  updated: { vendorSku: string; previousFen: number; priceFen: number }[];
}

export interface RestockRequest {
  ref: string;
  locationId: string;
  binding: boolean;
  lines: { vendorSku: string; quantity: number; reason?: string }[];
}
export interface RestockAck {
  accepted: number;
  externalRef: string | null;
}
export type RestockStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';
export interface RestockState {
  ref: string;
  status: RestockStatus;
  delivered: { vendorSku: string; quantity: number }[];
  completedAt: number | null;
  externalRef: string | null;
}

export interface MachineAdapter {
  readonly namespace: string;
  readonly vendor: string;
  readonly capabilities: ReadonlySet<string>;
  /** True for the in-process simulated platform of staging. */
  readonly simulated: boolean;
  getInventory(locationId: string): Promise<{ items: MachineInventoryItem[]; rejected: RejectedRecord[] }>;
  getLedger(q: LedgerQuery): Promise<LedgerPage>;
  setPrices(locationId: string, prices: PriceChange[]): Promise<PriceUpdateResult>;
  sendRestock(req: RestockRequest): Promise<RestockAck>;
  getRestock(ref: string): Promise<RestockState>;
}

// ---- supply role ----

export interface SupplyProduct {
  vendorSku: string;
  title: string;
  packSize: number;
  packPriceFen: number;
  eachPriceFen: number;
  eachPriceDerived: boolean;
  stock: number;
  barcode: string | null;
  spec: string | null;
  /** Internal only: never rendered in catalog responses. */
  costFen: number | null;
  sites: unknown[] | null;
}

/**
 * The unit a catalog, checkout or order line is counted in, as UCP names it (UN/ECE Rec 20): `EA` each, `BX` a box of
 * the product's `packSize`. The supply contract calls the same two `each` and `pack` (SupplyOrderUnit).
 */
export type PackUnit = 'EA' | 'BX';
export const PACK_UNITS: readonly PackUnit[] = ['EA', 'BX'];

export type SupplyOrderUnit = 'each' | 'pack';
export interface SupplyOrderRequest {
  ref: string;
  lines: { vendorSku: string; quantity: number; unit: SupplyOrderUnit }[];
  fulfillment: { method: 'shipping' | 'pickup' | 'restock'; destination?: Record<string, unknown> };
}
export type SupplyOrderState = 'ordered' | 'arrived' | 'cancelled';
export interface SupplyOrderAck {
  ref: string;
  orderId: string | null;
  state: SupplyOrderState | string;
  rawStatus: string | null;
}
export interface SupplyOrderStatus {
  ref: string;
  state: SupplyOrderState | string;
  rawStatus: string | null;
  logistics: { carrier: string | null; trackingNo: string | null; status: string | null; updatedAt: number | null }[];
}

export interface SupplyAdapter {
  readonly namespace: string;
  readonly vendor: string;
  readonly capabilities: ReadonlySet<string>;
  readonly simulated: boolean;
  getCatalog(): Promise<{ products: SupplyProduct[]; rejected: RejectedRecord[] }>;
  /** Places a real purchase. Never retried automatically by anyone. */
  createOrder(req: SupplyOrderRequest): Promise<SupplyOrderAck>;
  getOrder(ref: string): Promise<SupplyOrderStatus>;
}

// ---- failures ----

/**
 * A partner call that failed. `unreachable`: network failure, timeout or 5xx. `rejected`: a 4xx `{ok:false, reason}`
 * (a refusal). `unauthorized`: 401/403. `malformed`: the answer does not follow the contract.
 */
export class PartnerError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'rejected' | 'unauthorized' | 'malformed',
    readonly namespace: string,
    readonly reason: string,
    readonly httpStatus?: number,
    /** The partner said clearly that the reference does not exist (404 with an `{ok:false}` body). */
    readonly refUnknown = false,
  ) {
    super(`${namespace}: ${kind}: ${reason}`);
  }
}
