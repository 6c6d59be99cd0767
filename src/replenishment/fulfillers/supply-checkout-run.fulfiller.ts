import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/errors';
import { CheckoutCompletionService } from '../../checkout/completion/checkout-completion.service';
import { CheckoutRecoveryService } from '../../checkout/completion/checkout-recovery.service';
import { CheckoutSessionEntity } from '../../checkout/checkout-session.entity';
import { CheckoutRepository } from '../../checkout/checkout.repository';
import { orderUncertain as hasUncertainOrder } from '../../checkout/checkout.rules';
import { CheckoutService } from '../../checkout/checkout.service';
import { BudgetService } from '../../guards/budget.service';
import { PartnerRegistry } from '../../partners/registry/partner-registry';
import { FULFILLER_KIND } from '../fulfiller-kind';
import { ReplenishmentRunEntity, RunLine } from '../runs/replenishment-run.entity';
import { ClaimBudgetOutcome, FulfillerRead, FulfillerRunDraft, FulfillerTraits, PlacementOutcome, RunFulfiller, RunLease, sendInOrder } from './run-fulfiller';
import { allocateOrders, checkoutLines, purchaseOrdersOutcome, runCheckoutId, runOrders, runPurchaseFulfillment } from '../runs/run-lines.rules';
import { RunPartnerOrders, RunPurchaseOrderState } from '../runs/run.types';
import { refusedItemIds } from '../unavailable/unavailable.rules';
import { parseSkuId } from '../../identifiers/identifiers';
import type { CheckoutSessionInput } from '../../checkout/checkout-session.input';


/**
 * A supply-checkout run: one checkout session per supplier (id `<run id>.<supplier>` = purchase-order number =
 * the supplier's ref), each completed through CheckoutCompletionService, i.e. under exactly the guards of
 * checkout complete (kill switch, guard rules, budget with the run's approval, probation, hard no-go), with its
 * claim, its single supplier call and its recovery by reading. Money is held per session by checkout, not by the
 * run. A session already completed is never completed again, so a retried place sends only what is missing.
 */
@Injectable()
export class SupplyCheckoutRunFulfiller implements RunFulfiller {
  static readonly kind = FULFILLER_KIND.supplyCheckout;
  static readonly traits: FulfillerTraits = {
    sourcing: 'resolved_supplier',
    // Its own runs, per supplier they list: one run buys from several.
    leadSamples: { from: 'runs_listing_supplier', runKinds: [FULFILLER_KIND.supplyCheckout] },
    needsConfirm: true,
    manyNamespaces: true,
    buysThroughPurchaseOrders: true,
    deliveredByPlatform: false,
  };
  readonly kind = SupplyCheckoutRunFulfiller.kind;
  readonly traits = SupplyCheckoutRunFulfiller.traits;
  constructor(
    private readonly sessions: CheckoutRepository,
    private readonly checkout: CheckoutService,
    private readonly completion: CheckoutCompletionService,
    private readonly checkoutRecovery: CheckoutRecoveryService,
    private readonly registry: PartnerRegistry,
    private readonly budget: BudgetService,
  ) {}

  /** One purchase order per resolved supplier: each must take orders. */
  draft(carried: RunLine[]): FulfillerRunDraft {
    const suppliers = [...new Set(carried.map((l) => l.supply!.ordered_from))].sort();
    for (const ns of suppliers) this.registry.supply(ns, 'orders', '$.fulfiller');
    const namespace = suppliers.join(',');
    const { lines, totalFen } = allocateOrders(carried, namespace);
    return { namespace, lines, totalFen };
  }

  checkClaim(): void {}

  /**
   * Checked against the budget as a whole (over it: the run's approval) without a run-level hold: each purchase
   * order's checkout holds what it spends. An approved run passes.
   */
  async claimBudget(run: ReplenishmentRunEntity, approved: boolean): Promise<ClaimBudgetOutcome> {
    return approved ? { ok: true } : this.budget.check(run.totalCostFen ?? 0, new Date());
  }

  /** Checkout settled each purchase order's money; the run records which ones took. */
  recovered(_run: ReplenishmentRunEntity, placed: boolean): Promise<string> {
    return Promise.resolve(
      placed
        ? 'every purchase order was completed, so the run is placed; nothing was ordered again'
        : 'placing it again completes only the purchase orders not completed yet; a completed one is never ordered again',
    );
  }

  async partnerOrders(run: ReplenishmentRunEntity): Promise<RunPartnerOrders> {
    return { purchaseOrders: await this.purchaseOrders(run) };
  }

  /** One purchase order per supplier, in order, each completed under the guards of checkout complete. */
  async place(run: ReplenishmentRunEntity, lease: RunLease): Promise<PlacementOutcome> {
    const orders = runOrders(run.lines, run.fulfiller);
    const ids = orders.map((o) => runCheckoutId(run.id, o.supplier));
    const { accepted, failed } = await sendInOrder(
      orders,
      async (o) => {
        const id = runCheckoutId(run.id, o.supplier);
        const session = (await this.sessions.find(id)) ?? (await this.open(run, id, o.supplier, checkoutLines(o)));
        if (session.status !== 'completed') await this.completion.complete(id, true);
      },
      lease,
    );
    if (failed) return this.notPlaced(run, runCheckoutId(run.id, failed.part.supplier), failed.part.supplier, accepted, orders.length, failed.error);
    return {
      placed: true,
      supplierOrderId: null,
      hold: 'none',
      event: {
        summary: `replenishment run ${run.id} placed as ${orders.length} purchase order(s): ${ids.join(', ')}`,
        reasoning: `one checkout session per supplier, each completed under the guards of checkout complete; estimated ${run.totalCostFen ?? 0} fen in all`,
        data: { run_id: run.id, action: 'placed', fulfiller: run.fulfiller, checkout_ids: ids },
      },
    };
  }

  /**
   * An interrupted place, from its purchase orders: a session still in complete_in_progress, or left with an
   * uncertain supplier answer, is settled by checkout's recovery, which READS GET /orders/{ref} (never a second
   * POST). Every session completed → placed; any unsettled → unknown; otherwise not placed (ready again: the
   * retry completes only the missing ones).
   */
  async read(run: ReplenishmentRunEntity): Promise<FulfillerRead> {
    const states: { status: string | null; uncertain: boolean }[] = [];
    const notes: string[] = [];
    for (const o of runOrders(run.lines, run.fulfiller)) {
      const id = runCheckoutId(run.id, o.supplier);
      let row = await this.sessions.find(id);
      if (row) row = await this.settle(row);
      const uncertain = row ? hasUncertainOrder(row) : false;
      states.push({ status: row?.status ?? null, uncertain });
      notes.push(`${id}: ${row ? row.status + (uncertain ? ' (order uncertain)' : '') : 'not opened'}`);
    }
    const outcome = purchaseOrdersOutcome(states);
    return { outcome, why: `its purchase orders are ${notes.join(', ')}`, supplierOrderId: null };
  }

  /** Purchase orders of a run, in supplier order; one not opened yet is `not_opened`. */
  private async purchaseOrders(run: ReplenishmentRunEntity): Promise<RunPurchaseOrderState[]> {
    const orders = runOrders(run.lines, run.fulfiller);
    const rows = new Map((await this.sessions.byRun(run.id)).map((r) => [r.id, r]));
    return orders.map((o) => {
      const id = runCheckoutId(run.id, o.supplier);
      const r = rows.get(id);
      return {
        checkoutId: id,
        supplier: o.supplier,
        status: r?.status ?? 'not_opened',
        totalFen: r?.totalFen ?? o.total_fen,
        orderId: r?.status === 'completed' ? (r.supplierOrderId ?? r.id) : null,
      };
    });
  }

  private async settle(row: CheckoutSessionEntity): Promise<CheckoutSessionEntity> {
    if (row.status === 'complete_in_progress') return (await this.checkoutRecovery.recoverIfExpired(row)).row;
    return (await this.checkoutRecovery.settleUncertain(row)).row;
  }

  private async open(run: ReplenishmentRunEntity, id: string, supplier: string, lines: CheckoutSessionInput['line_items']): Promise<CheckoutSessionEntity> {
    const body = {
      id,
      line_items: lines,
      // The goods go to the route's machines (the supplier's `restock` method); the locations are the destination.
      fulfillment: runPurchaseFulfillment(run.id, run.lines, supplier),
    } as unknown as CheckoutSessionInput;
    // No idempotency key: the run's place has its own; the session id is the supplier's ref.
    return this.checkout.create(body, {}, { runId: run.id });
  }

  /**
   * A purchase order of the run was not placed. An uncertain supplier answer (502 upstream_unreachable: the order
   * may exist) keeps the run claimed: it is settled by recovery, which reads the supplier, never by ordering again.
   * Any other failure (guard, approval, refusal) puts the run back to `ready`; the completed sessions stay so.
   */
  private async notPlaced(run: ReplenishmentRunEntity, id: string, supplier: string, done: number, total: number, err: unknown): Promise<PlacementOutcome> {
    const session = await this.sessions.find(id);
    const uncertain = session !== null && hasUncertainOrder(session);
    // Lines the supplier refused as unavailable: marked, so the next plan passes over this supplier for them.
    const refused = session && !uncertain ? refusedItemIds(session.messages as { code?: string; path?: string }[], session.lineItems) : [];
    const unavailable = refused.flatMap((item) => {
      const p = parseSkuId(item);
      return p ? [{ namespace: p.namespace, vendorSku: p.vendorSku, note: `refused for purchase order ${id}` }] : [];
    });
    return {
      placed: false,
      error: err,
      claim: uncertain ? 'keep' : 'release',
      hold: 'none',
      unavailable,
      event: {
        summary: `replenishment run ${run.id}: purchase order ${id} to ${supplier} not placed`,
        reasoning: `${(err as Error).message}; ${done} of ${total} purchase order(s) were placed before it and are never ordered again; ${
          uncertain
            ? 'the supplier may hold the order, so the run stays placing until recovery reads GET /orders/{ref}'
            : 'the run is ready again and is not retried automatically'
        }${refused.length ? `; refused as unavailable: ${refused.join(', ')} (drop those lines to place the rest; the next plan does not choose ${supplier} for them until its catalog offers them again)` : ''}`,
        data: {
          run_id: run.id,
          action: uncertain ? 'place_uncertain' : 'place_failed',
          fulfiller: run.fulfiller,
          checkout_id: id,
          code: err instanceof DomainError ? err.code : 'error',
          ...(refused.length ? { unavailable: refused } : {}),
        },
      },
    };
  }
}
