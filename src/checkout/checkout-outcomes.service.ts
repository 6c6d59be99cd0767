import { Injectable } from '@nestjs/common';
import { EventsService } from '../events/events.service';
import { BudgetService } from '../guards/budget.service';
import { SupplyOrderStatus } from '../partners/adapter.types';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { CheckoutRepository } from './checkout.repository';
import { CHECKOUT_MACHINE, CHECKOUT_SPEND_SOURCE } from './checkout.rules';

/** The same claim: a complete_in_progress session still held by the claim stamped `claimedAt`. */
export function sameClaim(row: CheckoutSessionEntity, claimedAt: Date | null): boolean {
  return row.status === 'complete_in_progress' && (row.claimedAt?.getTime() ?? null) === (claimedAt?.getTime() ?? null);
}

/** Messages of a previous supplier outcome, replaced by the next one. */
export function withoutOutcomeNotes(messages: Record<string, unknown>[]): Record<string, unknown>[] {
  return messages.filter((x) => x.code !== 'supplier_rejected' && x.code !== 'order_uncertain' && x.code !== 'order_not_placed');
}

/** Records the supplier's outcome of a complete, whether it came from the call itself or from recovery. */
@Injectable()
export class CheckoutOutcomesService {
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly budget: BudgetService,
    private readonly events: EventsService,
  ) {}

  /** Records an order the supplier holds (accepted, or found on recovery): completed, spend counted, event (published once the transaction commits). */
  async recordPlaced(
    row: CheckoutSessionEntity,
    s: { orderId?: string | null; state: string; rawStatus: string | null; logistics?: SupplyOrderStatus['logistics'] },
    why: { reasoning: string; recovered?: boolean },
  ) {
    row.status = CHECKOUT_MACHINE.move(row.status, 'completed');
    row.completedAt = new Date();
    if (s.orderId !== undefined) row.supplierOrderId = s.orderId;
    row.supplierState = s.state;
    row.supplierRawStatus = s.rawStatus;
    if (s.logistics) row.logistics = s.logistics.map((l) => ({ ...l }));
    row.supplierCheckedAt = new Date();
    row.messages = [];
    await this.repo.save(row);
    await this.budget.recordSpend(row.totalFen, CHECKOUT_SPEND_SOURCE, row.id);
    return this.events.record(
      {
        kind: 'checkout.completed',
        summary: `purchase order ${row.id} placed with ${row.namespace} (${row.totalFen} fen)`,
        reasoning: why.reasoning,
        data: {
          session_id: row.id,
          namespace: row.namespace,
          total_fen: row.totalFen,
          supplier_order_id: row.supplierOrderId,
          ...(why.recovered ? { recovered: true, supplier_state: s.state } : {}),
        },
      },
    );
  }
}
