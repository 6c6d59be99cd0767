import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { Clock } from '../../common/clock';
import { warning } from '../../common/envelope/envelope';
import { startOfDayPlus8, toPlus8 } from '../../common/time';
import { DemandEstimate } from '../../forecasting/demand/demand.rules';
import { FORECASTING_DEFAULTS } from '../../forecasting/forecasting.defaults';
import { SlotAggregateRow } from '../../forecasting/demand/demand.repository';
import { LeadTime } from '../../forecasting/lead-time.rules';
import { PartnerRegistry } from '../../partners/registry/partner-registry';
import { RunFulfillers } from '../fulfillers/run-fulfillers';
import { aggregateBySupplier } from './aggregation.rules';
import { coverOrder, SlotOnOrder } from './inventory-position.rules';
import { PlanInputsService, type PlanInputs } from './plan-inputs.service';
import { PlanRecorder } from './plan-recorder.service';
import { Plan, PlanLine, PlanOptions, PlanSupply } from './plan.types';
import { applyPolicy } from './policy.rules';
import { Resolution } from '../supply-resolution/resolution.rules';

const DAY_MS = 86_400_000;
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * The replenishment plan: the order-up-to policy (policy.rules) applied to what PlanInputsService reads per slot
 * (demand, on order, depot, the supplier each good resolves to, lead time per fulfiller), with pack sizes and prices
 * of the resolved supplier (the simulated supplier prices a good at that supplier's price). `compute` only reads and
 * returns the domain plan (plan.view.ts renders it); `computeAndRecord` also records the plan's stock snapshot and
 * forecasts (PlanRecorder), for the operations that stand on a plan.
 */
@Injectable()
export class PlanService {
  constructor(
    private readonly inputs: PlanInputsService,
    private readonly registry: PartnerRegistry,
    private readonly fulfillers: RunFulfillers,
    private readonly recorder: PlanRecorder,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** R: the operator's review cadence (SERVICE_REVIEW_PERIOD_DAYS); the stated 7 days when the config says nothing. */
  private get reviewPeriodDays(): number {
    return this.config.reviewPeriodDays ?? FORECASTING_DEFAULTS.reviewPeriodDays;
  }

  /** z: the safety factor (SERVICE_LEVEL_Z); the stated 1.65 when the config says nothing. */
  private get serviceLevelZ(): number {
    return this.config.serviceLevelZ ?? FORECASTING_DEFAULTS.serviceLevelZ;
  }

  /** The supplier that fills runs: the simulated supplier, in every environment (docs/contract/). */
  supplierNamespace(): string {
    return this.registry.simulatedSupplier.namespace;
  }

  /**
   * GET /plan and run creation: a stock snapshot of the slots planned, the plan, then its forecasts (one per slot
   * per day, scored). The snapshot comes first, so a plan refused for an unreadable catalog still leaves it.
   */
  async computeAndRecord(opts: PlanOptions = {}): Promise<Plan> {
    await this.recorder.recordSnapshot(opts.location);
    const plan = await this.compute(opts);
    await this.recorder.recordForecasts(plan);
    return plan;
  }

  /** The plan, read only (nothing is written). */
  async compute(opts: PlanOptions = {}): Promise<Plan> {
    const d = FORECASTING_DEFAULTS;
    const now = opts.now ?? this.clock.now();
    const { kind, traits } = this.fulfillers.of(opts.fulfiller);
    const { sourcing, leadSamples } = traits;
    const today = startOfDayPlus8(now);
    const windowStart = new Date(today.getTime() - d.salesWindowDays * DAY_MS);
    const windowStartDay = toPlus8(windowStart).slice(0, 10);
    const sim = sourcing === 'stand_in_supplier' ? this.supplierNamespace() : null;
    const inputs = await this.inputs.read({ location: opts.location, windowStartDay, traits: { sourcing, leadSamples }, sim, requireCatalog: opts.requireCatalog === true, now, reviewSettingDays: this.reviewPeriodDays });
    const { rows, demandOf, onOrder, resolved, orderedFrom, leadByFulfiller } = inputs;
    const messages = inputs.messages;
    const stated: LeadTime = { days: d.statedLeadTimeDays, sigmaDays: this.config.statedLeadTimeSigmaDays ?? d.statedLeadTimeSigmaDays, source: 'stated', samples: 0 };

    const lines: PlanLine[] = [];
    const notCarried = new Map<string, { title: string; slots: number; first: number }>();
    let toOrder = 0;
    // The depot's units (and those on their way to it) go to the slots with the fewest days of cover first.
    const computed = new Map<string, PlanLine>();
    for (const i of coverOrder(rows.map((r) => ({ stock: r.stock, onOrder: onOrder.get(r.slotId)?.units ?? 0, ratePerDay: demandOf.get(r.slotId)!.ratePerDay })))) {
      const r = rows[i];
      const fulfiller = orderedFrom(r);
      const res = resolved ? (resolved.get(r.skuId) ?? null) : undefined;
      computed.set(r.slotId, this.line(r, demandOf.get(r.slotId)!, onOrder.get(r.slotId), inputs, fulfiller === null ? stated : leadByFulfiller.get(fulfiller)!, fulfiller, res, sim));
    }
    for (const r of rows) {
      const line = computed.get(r.slotId)!;
      if (line.quantity > 0) {
        toOrder++;
        if (!line.carriedByFulfiller) {
          const nc = notCarried.get(r.skuId) ?? { title: r.title, slots: 0, first: lines.length };
          nc.slots++;
          notCarried.set(r.skuId, nc);
        }
      }
      lines.push(line);
    }
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
    const orders = resolved ? aggregateBySupplier(lines.filter((l) => l.supply && l.quantityEach > 0).map(toNeed)) : null;
    const cost = orders ? orders.reduce((t, o) => t + o.total_fen, 0) : 0;
    const unitsEach = orders
      ? orders.reduce((t, o) => t + o.lines.reduce((u, l) => u + l.ordered_each, 0), 0)
      : lines.reduce((t, l) => t + l.orderedEach, 0);
    const suppliers = sourcing === 'resolved_supplier' ? [...leadByFulfiller.keys()].sort() : null;

    return {
      computedAt: now,
      fulfiller: { kind, namespace: sim ?? (suppliers?.length === 1 ? suppliers[0] : null), namespaces: suppliers },
      policy: {
        reviewPeriodDays: inputs.review.days,
        reviewPeriodSource: inputs.review.source,
        serviceLevelZ: this.serviceLevelZ,
        salesWindowDays: d.salesWindowDays,
        window: { from: windowStart, to: today },
        minHistoryDays: d.minHistoryDays,
        fallbackRatePerDay: d.fallbackRatePerDay,
        statedLeadTimeDays: d.statedLeadTimeDays,
      },
      leadTimes: [...leadByFulfiller.entries()].map(([fulfiller, lt]) => ({ fulfiller, kind, ...lt })),
      orders: orders
        ? orders.map((o) => ({
            supplier: o.supplier,
            lines: o.lines.length,
            unitsEach: o.lines.reduce((u, l) => u + l.ordered_each, 0),
            costEstimateFen: o.total_fen,
          }))
        : null,
      lines,
      totals: { slots: lines.length, slotsToOrder: toOrder, unitsEach, costEstimateFen: cost, fromDepotEach: lines.reduce((t, l) => t + l.fromDepot, 0) },
      messages,
    };
  }

  /**
   * `res`: undefined for machine restock (the platform restocks its own good), null when nobody sells the good.
   * `sim`: the simulated supplier's namespace when it fills the run (it stands in for the resolved supplier).
   */
  private line(r: SlotAggregateRow, demand: DemandEstimate, ordered: SlotOnOrder | undefined, inputs: Pick<PlanInputs, 'depotLeft' | 'incomingLeft' | 'review'>, lead: LeadTime, fulfiller: string | null, res: Resolution | null | undefined, sim: string | null): PlanLine {
    const d = FORECASTING_DEFAULTS;
    const { depotLeft, incomingLeft } = inputs;
    const reviewPeriodDays = inputs.review.ofLocation(r.locationId, lead.days);
    const offer = res?.offer ?? null;
    const p = applyPolicy({
      ratePerDay: demand.ratePerDay,
      sigmaDaily: demand.sigmaDaily,
      leadTimeDays: lead.days,
      leadTimeSigmaDays: lead.sigmaDays,
      reviewPeriodDays,
      z: this.serviceLevelZ,
      stock: r.stock,
      onOrder: ordered?.units ?? 0,
      depotAvailable: depotLeft.get(r.skuId) ?? 0,
      depotIncoming: incomingLeft.get(r.skuId) ?? 0,
      capacity: r.capacity,
      product: offer,
    });
    const fromDepotAll = p.fromDepot + p.depotHeld;
    if (fromDepotAll > 0) depotLeft.set(r.skuId, (depotLeft.get(r.skuId) ?? 0) - fromDepotAll);
    if (p.depotIncoming > 0) incomingLeft.set(r.skuId, (incomingLeft.get(r.skuId) ?? 0) - p.depotIncoming);
    return {
      slotId: r.slotId,
      locationId: r.locationId,
      skuId: r.skuId,
      vendorSku: r.vendorSku,
      title: r.title,
      stock: r.stock,
      onOrder: ordered?.units ?? 0,
      onOrderRuns: ordered?.runs ?? [],
      capacity: r.capacity,
      demand: {
        ratePerDay: r4(demand.ratePerDay),
        sigmaDaily: r4(demand.sigmaDaily),
        measured: demand.measured,
        windowDays: d.salesWindowDays,
        observedDays: demand.observedDays,
        inStockDays: demand.inStockDays,
        stockedOutDays: demand.stockedOutDays,
        unitsSold: demand.unitsSold,
        fallbackReason: demand.fallbackReason,
      },
      leadTime: { ...lead, fulfiller },
      reviewPeriodDays,
      safetyStock: p.safetyStock,
      reorderPoint: p.reorderPoint,
      target: p.target,
      cappedAtCapacity: p.cappedAtCapacity,
      fromDepot: p.fromDepot,
      depotHeld: p.depotHeld,
      depotIncoming: p.depotIncoming,
      quantityEach: p.quantityEach,
      quantity: p.quantity,
      unit: p.unit,
      contains: p.contains,
      orderedEach: p.orderedEach,
      unitPriceFen: p.unitPriceFen,
      costEstimateFen: p.costEstimateFen,
      carriedByFulfiller: res === undefined ? true : res !== null,
      ...(res !== undefined ? { supply: res ? supplyOf(res, sim) : null } : {}),
    };
  }
}

function supplyOf(res: Resolution, sim: string | null): PlanSupply {
  return {
    skuId: res.offer.sku_id,
    namespace: res.offer.namespace,
    vendorSku: res.offer.vendor_sku,
    via: res.offer.via,
    chosenBecause: res.reason,
    orderedFrom: sim ?? res.offer.namespace,
    candidates: res.candidates.map((c) => ({ skuId: c.sku_id, eachPriceFen: c.eachPriceFen })),
  };
}

/** A plan line as a need of its resolved supplier's good (for the per-supplier totals). */
function toNeed(l: PlanLine) {
  const s = l.supply!;
  return {
    slot_id: l.slotId,
    supplier: s.orderedFrom,
    item_id: s.skuId,
    vendor_sku: s.vendorSku,
    title: l.title,
    quantity_each: l.quantityEach,
    contains: l.contains,
    unit_price_fen: l.unitPriceFen ?? 0,
  };
}
