/**
 * The replenishment plan as a domain result (PlanService.compute): money in fen, times as Dates, no API field
 * names. plan.view.ts renders it as the API's JSON; runs are drafted from its lines; PlanRecorder records its
 * forecasts.
 */
import type { UcpMessage } from '../../common/envelope/envelope';
import type { LeadTime } from '../../forecasting/lead-time.rules';
import type { RunFulfiller } from '../fulfillers/run-fulfiller';
import type { ChoiceReason } from '../supply-resolution/resolution.rules';
import type { ReviewSource } from './cadence.rules';
import type { PackUnit } from '../../partners/adapter.types';

export interface PlanDemand {
  /** Rounded to 4 decimals: the rate shown and the rate recorded as the slot's forecast. */
  ratePerDay: number;
  sigmaDaily: number;
  /** False when there were too few in-stock days and the fallback rate is used. */
  measured: boolean;
  windowDays: number;
  observedDays: number;
  inStockDays: number;
  stockedOutDays: number;
  unitsSold: number;
  /** Why the fallback rate is used. */
  fallbackReason: string | null;
}

/**
 * Provenance of a good's supply: the supply sku it resolved to through the SKU registry, the alias source that
 * reaches it, the supplier chosen and why, and the offers considered.
 */
export interface PlanSupply {
  skuId: string;
  namespace: string;
  vendorSku: string;
  via: string;
  chosenBecause: ChoiceReason;
  /** Who the run orders from: the resolved supplier, or the simulated supplier standing in for it at its price. */
  orderedFrom: string;
  candidates: { skuId: string; eachPriceFen: number }[];
}

export interface PlanLine {
  slotId: string;
  locationId: string;
  skuId: string;
  vendorSku: string;
  title: string;
  stock: number;
  /** Units ordered by runs and not received yet (inventory position = stock + onOrder), with those runs. */
  onOrder: number;
  onOrderRuns: { id: string; status: string; units: number }[];
  capacity: number | null;
  demand: PlanDemand;
  /** Whose lead time it is: null when nobody sells the good. */
  leadTime: LeadTime & { fulfiller: string | null };
  reviewPeriodDays: number;
  safetyStock: number;
  reorderPoint: number;
  target: number;
  cappedAtCapacity: boolean;
  /** Units served from the depot (they cost nothing and are not bought); `quantityEach` is what is bought. */
  fromDepot: number;
  /** Depot units kept for the slot that do not fit yet (not bought either). */
  depotHeld: number;
  /** Units (each) a placed run's box remainder will bring to the depot for this slot: neither filled nor bought. */
  depotIncoming: number;
  quantityEach: number;
  quantity: number;
  unit: PackUnit;
  contains: number;
  orderedEach: number;
  unitPriceFen: number | null;
  costEstimateFen: number | null;
  carriedByFulfiller: boolean;
  /**
   * Supplier fulfillers: the good's supply, or null when nobody sells it. Undefined for machine restock (the
   * platform restocks its own good).
   */
  supply?: PlanSupply | null;
}

export interface PlanPolicy {
  reviewPeriodDays: number;
  /** Whether R is the measured cadence of placed runs or the setting. */
  reviewPeriodSource: ReviewSource;
  serviceLevelZ: number;
  salesWindowDays: number;
  window: { from: Date; to: Date };
  minHistoryDays: number;
  fallbackRatePerDay: number;
  statedLeadTimeDays: number;
}

/** What a run would order from one supplier (needs summed per good, rounded up to the box once). */
export interface PlanSupplierOrder {
  supplier: string;
  lines: number;
  unitsEach: number;
  costEstimateFen: number;
}

export interface Plan {
  computedAt: Date;
  /**
   * `kind`: as the fulfiller names itself (carried to the answer, never branched on). `namespaces`: supplier
   * fulfillers that resolve each good's supplier (null otherwise).
   */
  fulfiller: { kind: RunFulfiller['kind']; namespace: string | null; namespaces: string[] | null };
  policy: PlanPolicy;
  leadTimes: (LeadTime & { fulfiller: string; kind: RunFulfiller['kind'] })[];
  /** Supplier fulfillers only (null for machine restock). */
  orders: PlanSupplierOrder[] | null;
  lines: PlanLine[];
  totals: { slots: number; slotsToOrder: number; unitsEach: number; costEstimateFen: number; fromDepotEach: number };
  /** Warnings of the plan (goods nobody sells, catalogs that could not be read). */
  messages: UcpMessage[];
}

export interface PlanOptions {
  location?: string;
  /** The fulfiller's kind; none: the registry's default (RunFulfillers). */
  fulfiller?: RunFulfiller['kind'];
  /** Throw instead of warning when the fulfiller's catalog cannot be read (a run needs its boxes and prices). */
  requireCatalog?: boolean;
  now?: Date;
}
