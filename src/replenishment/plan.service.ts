import { Injectable, Logger } from '@nestjs/common';
import { UcpMessage, warning } from '../common/envelope';
import { startOfDayPlus8, toPlus8 } from '../common/time';
import { estimateDemand } from '../forecasting/demand.rules';
import { FORECASTING_DEFAULTS } from '../forecasting/forecasting.defaults';
import { DemandRepository, SlotAggregateRow } from '../forecasting/demand.repository';
import { ForecastingRepository } from '../forecasting/forecasting.repository';
import { LeadTimeService } from '../forecasting/lead-time.service';
import { FulfillerKind } from './fulfiller-kind';
import { RunFulfillers } from './run-fulfillers';
import { LeadTime } from '../forecasting/lead-time.rules';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { aggregateBySupplier } from './aggregation.rules';
import { applyPolicy } from './policy.rules';
import { Resolution } from './resolution.rules';
import { SupplyResolutionService } from './supply-resolution.service';

const DAY_MS = 86_400_000;
const price = (amount: number | null) => (amount === null ? null : { amount, currency: 'CNY' as const });
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

export interface PlanLine {
  slot_id: string;
  location: string;
  item: { id: string };
  vendor_sku: string;
  title: string;
  stock: number;
  capacity: number | null;
  demand: {
    rate_per_day: number;
    sigma_daily: number;
    measured: boolean;
    source: 'measured' | 'stated';
    window_days: number;
    observed_days: number;
    in_stock_days: number;
    stocked_out_days: number;
    units_sold: number;
    note?: string;
  };
  lead_time: LeadTime & { fulfiller: string | null };
  review_period_days: number;
  safety_stock: number;
  reorder_point: number;
  target: number;
  capped_at_capacity: boolean;
  quantity_each: number;
  quantity: number;
  unit: 'EA' | 'BX';
  contains: number;
  ordered_each: number;
  unit_price: { amount: number; currency: 'CNY' } | null;
  cost_estimate: { amount: number; currency: 'CNY' } | null;
  carried_by_fulfiller: boolean;
  /**
   * Provenance of the good's supply (supplier fulfillers): the supply sku it resolved to through the SKU registry,
   * the alias that reaches it, the supplier chosen and why, and the offers considered. Null: nobody sells it.
   */
  supply?: PlanSupply | null;
}

export interface PlanSupply {
  item: { id: string };
  namespace: string;
  vendor_sku: string;
  alias: { sku_id: string; source: string };
  chosen_because: 'default_supplier' | 'lowest_each_price';
  /** Who the run orders from: the resolved supplier, or the simulated supplier standing in for it at its price. */
  ordered_from: string;
  candidates: { id: string; each_price: { amount: number; currency: 'CNY' } }[];
}

export interface Plan {
  computed_at: string;
  fulfiller: { kind: FulfillerKind; namespace: string | null; namespaces?: string[] };
  policy: {
    name: string;
    review_period_days: number;
    service_level_z: number;
    sales_window_days: number;
    window: { from: string; to: string };
    min_history_days: number;
    fallback_rate_per_day: number;
    stated_lead_time_days: number;
  };
  lead_times: (LeadTime & { fulfiller: string; kind: FulfillerKind })[];
  /** Supplier fulfillers: what a run would order, per supplier (needs summed per good, rounded up to the box once). */
  orders?: { supplier: string; lines: number; units_each: number; cost_estimate: { amount: number; currency: 'CNY' } }[];
  slots: PlanLine[];
  totals: { slots: number; slots_to_order: number; units_each: number; cost_estimate: { amount: number; currency: 'CNY' } };
  cost_is_estimated: true;
  messages: UcpMessage[];
}

export interface PlanOptions {
  location?: string;
  fulfiller?: FulfillerKind;
  /** Throw instead of warning when the fulfiller's catalog cannot be read (a run needs its boxes and prices). */
  requireCatalog?: boolean;
  now?: Date;
}

/**
 * The replenishment plan: demand per slot (SQL aggregates + demand.rules), lead time per fulfiller, the
 * order-up-to policy (policy.rules), pack sizes and prices of the supplier each good resolves to through the SKU
 * registry (SupplyResolutionService; the simulated supplier prices a good at that supplier's price). Every plan
 * records its forecasts (one per slot per day) for scoring, and a stock snapshot.
 */
@Injectable()
export class PlanService {
  private readonly logger = new Logger(PlanService.name);
  constructor(
    private readonly repo: ForecastingRepository,
    private readonly demand: DemandRepository,
    private readonly leadTimes: LeadTimeService,
    private readonly resolution: SupplyResolutionService,
    private readonly registry: PartnerRegistry,
    private readonly fulfillers: RunFulfillers,
  ) {}

  /** The supplier that fills runs: the simulated supplier, in every environment (decisions.md section 2). */
  supplierNamespace(): string {
    return this.registry.simulatedSupplier.namespace;
  }

  async compute(opts: PlanOptions = {}): Promise<Plan> {
    const d = FORECASTING_DEFAULTS;
    const now = opts.now ?? new Date();
    const kind: FulfillerKind = opts.fulfiller ?? 'simulated_supplier';
    const { sourcing, leadSamples } = this.fulfillers.of(kind).traits;
    const today = startOfDayPlus8(now);
    const windowStart = new Date(today.getTime() - d.salesWindowDays * DAY_MS);
    const windowStartDay = toPlus8(windowStart).slice(0, 10);
    const messages: UcpMessage[] = [];

    const [, rows] = await Promise.all([
      this.repo.recordSnapshot(opts.location),
      this.demand.slotAggregates(windowStartDay, d.salesWindowDays, opts.location),
    ]);

    // Supplier fulfillers: every good resolved through the SKU registry (purchasable_from, supplier choice).
    const sim = sourcing === 'stand_in_supplier' ? this.supplierNamespace() : null;
    const resolved = sourcing === 'machine_platform' ? null : await this.resolve(rows.map((r) => r.skuId), opts.requireCatalog === true, messages);

    // Lead times: one per fulfiller in use (the simulated supplier; each resolved supplier; each machine platform).
    const orderedFrom = (r: SlotAggregateRow): string | null =>
      sourcing === 'machine_platform' ? r.namespace : sim ?? resolved?.get(r.skuId)?.offer.namespace ?? null;
    const leadByFulfiller = new Map<string, LeadTime>();
    for (const ns of new Set(sim ? [sim] : rows.map(orderedFrom))) {
      if (ns !== null) leadByFulfiller.set(ns, await this.leadTimes.of(leadSamples, ns));
    }
    const stated: LeadTime = { days: d.statedLeadTimeDays, source: 'stated', samples: 0 };

    const slots: PlanLine[] = [];
    const forecasts: { slotId: string; locationId: string; ratePerDay: number; measured: boolean }[] = [];
    const notCarried = new Map<string, { title: string; slots: number; first: number }>();
    let toOrder = 0;
    for (const r of rows) {
      const fulfiller = orderedFrom(r);
      const res = resolved ? (resolved.get(r.skuId) ?? null) : undefined;
      const line = this.line(r, fulfiller === null ? stated : leadByFulfiller.get(fulfiller)!, fulfiller, res, sim);
      if (line.quantity > 0) {
        toOrder++;
        if (!line.carried_by_fulfiller) {
          const nc = notCarried.get(r.skuId) ?? { title: r.title, slots: 0, first: slots.length };
          nc.slots++;
          notCarried.set(r.skuId, nc);
        }
      }
      slots.push(line);
      forecasts.push({ slotId: r.slotId, locationId: r.locationId, ratePerDay: line.demand.rate_per_day, measured: line.demand.measured });
    }
    await this.repo.recordForecasts(forecasts, now);
    if (resolved) {
      for (const [id, nc] of notCarried) {
        messages.push(
          warning(
            'not_carried',
            `${id} (${nc.title}) needs stock in ${nc.slots} slot(s) but no registered supplier sells it: no manual, barcode or vendor alias reaches a supply sku that is carried today and priced`,
            `$.slots[${nc.first}]`,
          ),
        );
      }
    }
    const orders = resolved ? aggregateBySupplier(slots.filter((l) => l.supply && l.quantity_each > 0).map(toNeed)) : null;
    const cost = orders ? orders.reduce((t, o) => t + o.total_fen, 0) : 0;
    const unitsEach = orders
      ? orders.reduce((t, o) => t + o.lines.reduce((u, l) => u + l.ordered_each, 0), 0)
      : slots.reduce((t, l) => t + l.ordered_each, 0);
    const suppliers = sourcing === 'resolved_supplier' ? [...leadByFulfiller.keys()].sort() : null;

    return {
      computed_at: toPlus8(now),
      fulfiller: { kind, namespace: sim ?? (suppliers?.length === 1 ? suppliers[0] : null), ...(suppliers ? { namespaces: suppliers } : {}) },
      policy: {
        name: 'periodic review, order-up-to level (R, S) with safety stock; docs/replenishment-policy.md',
        review_period_days: d.reviewPeriodDays,
        service_level_z: d.serviceLevelZ,
        sales_window_days: d.salesWindowDays,
        window: { from: toPlus8(windowStart), to: toPlus8(today) },
        min_history_days: d.minHistoryDays,
        fallback_rate_per_day: d.fallbackRatePerDay,
        stated_lead_time_days: d.statedLeadTimeDays,
      },
      lead_times: [...leadByFulfiller.entries()].map(([fulfiller, lt]) => ({ fulfiller, kind, ...lt })),
      slots,
      totals: { slots: slots.length, slots_to_order: toOrder, units_each: unitsEach, cost_estimate: { amount: cost, currency: 'CNY' } },
      ...(orders
        ? {
            orders: orders.map((o) => ({
              supplier: o.supplier,
              lines: o.lines.length,
              units_each: o.lines.reduce((u, l) => u + l.ordered_each, 0),
              cost_estimate: { amount: o.total_fen, currency: 'CNY' as const },
            })),
          }
        : {}),
      cost_is_estimated: true,
      messages,
    };
  }

  /**
   * `res`: undefined for machine restock (the platform restocks its own good), null when nobody sells the good.
   * `sim`: the simulated supplier's namespace when it fills the run (it stands in for the resolved supplier).
   */
  private line(r: SlotAggregateRow, lead: LeadTime, fulfiller: string | null, res: Resolution | null | undefined, sim: string | null): PlanLine {
    const d = FORECASTING_DEFAULTS;
    const demand = estimateDemand({ ...r, windowDays: d.salesWindowDays, stockNow: r.stock }, d);
    const offer = res?.offer ?? null;
    const p = applyPolicy({
      ratePerDay: demand.ratePerDay,
      sigmaDaily: demand.sigmaDaily,
      leadTimeDays: lead.days,
      reviewPeriodDays: d.reviewPeriodDays,
      z: d.serviceLevelZ,
      stock: r.stock,
      capacity: r.capacity,
      product: offer,
    });
    const line: PlanLine = {
      slot_id: r.slotId,
      location: r.locationId,
      item: { id: r.skuId },
      vendor_sku: r.vendorSku,
      title: r.title,
      stock: r.stock,
      capacity: r.capacity,
      demand: {
        rate_per_day: r4(demand.ratePerDay),
        sigma_daily: r4(demand.sigmaDaily),
        measured: demand.measured,
        source: demand.measured ? 'measured' : 'stated',
        window_days: d.salesWindowDays,
        observed_days: demand.observedDays,
        in_stock_days: demand.inStockDays,
        stocked_out_days: demand.stockedOutDays,
        units_sold: demand.unitsSold,
        ...(demand.fallbackReason ? { note: demand.fallbackReason } : {}),
      },
      lead_time: { ...lead, fulfiller },
      review_period_days: d.reviewPeriodDays,
      safety_stock: p.safetyStock,
      reorder_point: p.reorderPoint,
      target: p.target,
      capped_at_capacity: p.cappedAtCapacity,
      quantity_each: p.quantityEach,
      quantity: p.quantity,
      unit: p.unit,
      contains: p.contains,
      ordered_each: p.orderedEach,
      unit_price: price(p.unitPriceFen),
      cost_estimate: price(p.costEstimateFen),
      carried_by_fulfiller: res === undefined ? true : res !== null,
    };
    if (res !== undefined) {
      line.supply = res
        ? {
            item: { id: res.offer.sku_id },
            namespace: res.offer.namespace,
            vendor_sku: res.offer.vendor_sku,
            alias: { sku_id: res.offer.sku_id, source: res.offer.via },
            chosen_because: res.reason,
            ordered_from: sim ?? res.offer.namespace,
            candidates: res.candidates.map((c) => ({ id: c.sku_id, each_price: { amount: c.eachPriceFen, currency: 'CNY' as const } })),
          }
        : null;
    }
    return line;
  }

  /**
   * Resolutions by machine sku id. A supplier catalog that cannot be read is a warning on the plan (its offers are
   * unknown), or the run's error: a run never silently lacks the goods of an unreachable supplier.
   */
  private async resolve(ids: string[], required: boolean, messages: UcpMessage[]): Promise<Map<string, Resolution | null>> {
    const { byId, unavailable } = await this.resolution.resolve(ids);
    if (unavailable.length && required) throw unavailable[0].error;
    for (const u of unavailable) {
      this.logger.warn(`plan: catalog of ${u.namespace} unavailable: ${u.error.message}`);
      messages.push(
        warning(
          'catalog_unavailable',
          `the catalog of ${u.namespace} could not be read (${u.error.message}); goods only it sells show no supplier, quantities are in each and costs are unknown`,
          '$.slots',
        ),
      );
    }
    return byId;
  }
}

/** A plan line as a need of its resolved supplier's good (for the per-supplier totals). */
function toNeed(l: PlanLine) {
  const s = l.supply!;
  return {
    slot_id: l.slot_id,
    supplier: s.ordered_from,
    item_id: s.item.id,
    vendor_sku: s.vendor_sku,
    title: l.title,
    quantity_each: l.quantity_each,
    contains: l.contains,
    unit_price_fen: l.unit_price?.amount ?? 0,
  };
}
