import { Injectable, Logger } from '@nestjs/common';
import { UcpMessage, warning } from '../common/envelope/envelope';
import { Errors } from '../common/errors/errors';
import { toPlus8 } from '../common/time';
import { CheckoutSessionEntity } from '../checkout/checkout-session.entity';
import { CheckoutRepository } from '../checkout/checkout.repository';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { SupplyAdapter } from '../partners/adapter.types';
import { failureReason } from '../partners/partner-failure';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { PurchaseOrder, PurchaseOrdersPage } from './purchase-order-reader';
import { decodeCursor, encodeCursor, isOpen } from './purchase-order.rules';

/** In a list, a purchase order's supplier status is read again when older than this (one order is always read). */
export const STATUS_CACHE_MS = 30_000;

/**
 * Purchase orders: completed checkout sessions, with the supplier's status (GET /orders/{ref}) read on every
 * GET /orders/{id}, refreshed in lists when older than STATUS_CACHE_MS, and every 10 minutes for open orders by
 * one instance (PurchaseOrdersRefreshJob).
 */
@Injectable()
export class PurchaseOrdersService {
  private readonly logger = new Logger(PurchaseOrdersService.name);
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly registry: PartnerRegistry,
    private readonly events: EventsService,
    private readonly tx: Tx,
  ) {}

  async list(q: { cursor?: string; limit: number }): Promise<PurchaseOrdersPage> {
    const after = q.cursor ? decodeCursor(q.cursor) : undefined;
    if (q.cursor && !after) throw Errors.invalid('$.cursor', 'the cursor is not one this service issued');
    const rows = await this.repo.listCompleted({ limit: q.limit + 1, after: after ?? undefined });
    const page = rows.slice(0, q.limit);
    const messages: UcpMessage[] = [];
    await Promise.all(
      page.map(async (r, i) => {
        const failed = await this.refreshIfStale(r);
        if (failed) messages.push(warning('stale_data', `the supplier status of ${r.id} could not be refreshed (${failed}); the last known status is shown`, `$.orders[${i}].supplier_status`));
      }),
    );
    const last = page[page.length - 1];
    return {
      orders: page.map(purchaseOrderOf),
      cursor: rows.length > q.limit && last ? encodeCursor(last.completedAt!, last.id) : null,
      messages,
    };
  }

  /**
   * One purchase order: a current-state read of the supplier (GET /orders/{ref}) on every call. Only when the supplier
   * cannot be read is the stored copy served, with a `stale_data` warning; with nothing stored that is a 502.
   */
  async find(id: string): Promise<{ order: PurchaseOrder; messages: UcpMessage[] } | null> {
    const row = await this.repo.find(id);
    if (!row || row.status !== 'completed') return null;
    const failed = await this.refresh(row);
    if (!failed) return { order: purchaseOrderOf(row), messages: [] };
    if (!row.supplierState) throw Errors.upstreamUnreachable(`the supplier ${row.namespace}`, failed);
    const asOf = row.supplierCheckedAt ? ` as of ${toPlus8(row.supplierCheckedAt)}` : '';
    return {
      order: purchaseOrderOf(row),
      messages: [warning('stale_data', `the supplier could not be read (${failed}); the stored status${asOf} is shown`, '$.supplier_status')],
    };
  }

  /** Refreshes up to `limit` open orders, least recently checked first; returns how many were read. */
  async refreshOpen(limit = 100): Promise<number> {
    const rows = await this.repo.openOrders(limit);
    let n = 0;
    for (const r of rows) if (!(await this.refresh(r))) n++;
    return n;
  }

  private async refreshIfStale(row: CheckoutSessionEntity): Promise<string | null> {
    if (!isOpen(row.supplierState)) return null;
    if (row.supplierCheckedAt && Date.now() - row.supplierCheckedAt.getTime() < STATUS_CACHE_MS) return null;
    return this.refresh(row);
  }

  /** Reads GET /orders/{ref} (a read: safe to repeat); returns why it failed, or null. Updates `row` in place. */
  private async refresh(row: CheckoutSessionEntity): Promise<string | null> {
    let adapter: SupplyAdapter;
    try {
      adapter = this.registry.supply(row.namespace, 'orders');
    } catch (err) {
      return (err as Error).message;
    }
    try {
      const s = await adapter.getOrder(row.id);
      const logistics = s.logistics.map((l) => ({ ...l }));
      const changed = s.state !== row.supplierState;
      await this.tx.run(async () => {
        await this.repo.saveSupplierStatus(row.id, { state: s.state, rawStatus: s.rawStatus, logistics });
        if (!changed) return;
        await this.events.record({
          kind: 'purchase.status',
          summary: `purchase order ${row.id}: ${row.supplierState ?? 'unknown'} -> ${s.state}`,
          reasoning: `read from the supplier ${row.namespace} (GET /orders/${row.id}); raw status ${s.rawStatus ?? 'none'}`,
          data: { order_id: row.id, state: s.state, raw_status: s.rawStatus },
        });
      });
      row.supplierState = s.state;
      row.supplierRawStatus = s.rawStatus;
      row.logistics = logistics;
      row.supplierCheckedAt = new Date();
      return null;
    } catch (err) {
      const why = failureReason(err);
      this.logger.warn(`purchase order ${row.id}: supplier status not refreshed (${why})`);
      return why;
    }
  }
}

/** A completed session as a purchase order (what the orders view renders). */
function purchaseOrderOf(row: CheckoutSessionEntity): PurchaseOrder {
  return {
    id: row.id,
    namespace: row.namespace,
    lineItems: row.lineItems,
    fulfillment: row.fulfillment,
    totalFen: row.totalFen,
    supplierState: row.supplierState,
    supplierRawStatus: row.supplierRawStatus,
    logistics: row.logistics,
    completedAt: row.completedAt ?? row.updatedAt,
    supplierCheckedAt: row.supplierCheckedAt,
  };
}
