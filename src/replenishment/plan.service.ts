import { Injectable, Logger } from '@nestjs/common';
import { UcpMessage, warning } from '../common/envelope';
import { DomainError } from '../common/errors';
import { startOfDayPlus8, toPlus8 } from '../common/time';
import { SupplyCatalogService } from '../catalog/supply-catalog.service';
import { estimateDemand } from '../forecasting/demand.rules';
import { FORECASTING_DEFAULTS } from '../forecasting/forecasting.defaults';
import { DemandRepository, SlotAggregateRow } from '../forecasting/demand.repository';
import { ForecastingRepository } from '../forecasting/forecasting.repository';
import { FulfillerKind, LeadTimeService } from '../forecasting/lead-time.service';
import { LeadTime } from '../forecasting/lead-time.rules';
import { SupplyProduct } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { applyPolicy } from './policy.rules';

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
  lead_time: LeadTime & { fulfiller: string };
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
}

export interface Plan {
  computed_at: string;
  fulfiller: { kind: FulfillerKind; namespace: string | null };
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
 * order-up-to policy (policy.rules), pack sizes and prices from the fulfiller's catalog. Every plan records its
 * forecasts (one per slot per day) for scoring, and a stock snapshot.
 */
@Injectable()
export class PlanService {
  private readonly logger = new Logger(PlanService.name);
  constructor(
    private readonly repo: ForecastingRepository,
    private readonly demand: DemandRepository,
    private readonly leadTimes: LeadTimeService,
    private readonly catalog: SupplyCatalogService,
    private readonly registry: PartnerRegistry,
  ) {}

  /** The supplier that fills runs: the simulated supplier, in every environment (decisions.md section 2). */
  supplierNamespace(): string {
    return this.registry.simulatedSupplier.namespace;
  }

  async compute(opts: PlanOptions = {}): Promise<Plan> {
    const d = FORECASTING_DEFAULTS;
    const now = opts.now ?? new Date();
    const kind: FulfillerKind = opts.fulfiller ?? 'simulated_supplier';
    const today = startOfDayPlus8(now);
    const windowStart = new Date(today.getTime() - d.salesWindowDays * DAY_MS);
    const windowStartDay = toPlus8(windowStart).slice(0, 10);
    const messages: UcpMessage[] = [];

    const [, rows] = await Promise.all([
      this.repo.recordSnapshot(opts.location),
      this.demand.slotAggregates(windowStartDay, d.salesWindowDays, opts.location),
    ]);

    // Lead times: one per fulfiller in use.
    const supplierNs = kind === 'simulated_supplier' ? this.supplierNamespace() : null;
    const leadByFulfiller = new Map<string, LeadTime>();
    if (supplierNs) leadByFulfiller.set(supplierNs, await this.leadTimes.of('simulated_supplier', supplierNs));
    else for (const ns of new Set(rows.map((r) => r.namespace))) leadByFulfiller.set(ns, await this.leadTimes.of('machine_restock', ns));

    const products = supplierNs ? await this.products(supplierNs, opts.requireCatalog === true, messages) : null;

    const slots: PlanLine[] = [];
    const forecasts: { slotId: string; locationId: string; ratePerDay: number; measured: boolean }[] = [];
    let unitsEach = 0;
    let cost = 0;
    let toOrder = 0;
    for (const r of rows) {
      const fulfiller = supplierNs ?? r.namespace;
      const lead = leadByFulfiller.get(fulfiller)!;
      const line = this.line(r, lead, fulfiller, products, kind);
      slots.push(line);
      forecasts.push({ slotId: r.slotId, locationId: r.locationId, ratePerDay: line.demand.rate_per_day, measured: line.demand.measured });
      if (line.quantity > 0) {
        toOrder++;
        unitsEach += line.ordered_each;
        cost += line.cost_estimate?.amount ?? 0;
      }
    }
    await this.repo.recordForecasts(forecasts, now);

    return {
      computed_at: toPlus8(now),
      fulfiller: { kind, namespace: supplierNs },
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
      cost_is_estimated: true,
      messages,
    };
  }

  private line(
    r: SlotAggregateRow,
    lead: LeadTime,
    fulfiller: string,
    products: Map<string, SupplyProduct> | null,
    kind: FulfillerKind,
  ): PlanLine {
    const d = FORECASTING_DEFAULTS;
    const demand = estimateDemand({ ...r, windowDays: d.salesWindowDays, stockNow: r.stock }, d);
    const product = kind === 'machine_restock' ? null : (products?.get(r.vendorSku) ?? null);
    const p = applyPolicy({
      ratePerDay: demand.ratePerDay,
      sigmaDaily: demand.sigmaDaily,
      leadTimeDays: lead.days,
      reviewPeriodDays: d.reviewPeriodDays,
      z: d.serviceLevelZ,
      stock: r.stock,
      capacity: r.capacity,
      product,
    });
    return {
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
      carried_by_fulfiller: kind === 'machine_restock' ? true : product !== null,
    };
  }

  /** The fulfiller's catalog by vendor sku; a failure is a warning on the plan (or an error for a run). */
  private async products(namespace: string, required: boolean, messages: UcpMessage[]): Promise<Map<string, SupplyProduct> | null> {
    try {
      const snap = await this.catalog.snapshot(namespace);
      return new Map(snap.bySku);
    } catch (err) {
      if (required || !(err instanceof DomainError)) throw err;
      this.logger.warn(`plan: catalog of ${namespace} unavailable: ${err.message}`);
      messages.push(
        warning(
          'catalog_unavailable',
          `the catalog of ${namespace} could not be read (${err.message}); quantities are in each and costs are unknown`,
          '$.slots',
        ),
      );
      return null;
    }
  }
}
