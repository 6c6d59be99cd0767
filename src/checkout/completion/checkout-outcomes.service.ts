import { Injectable } from '@nestjs/common';
import { EventsService } from '../../events/events.service';
import { BudgetService } from '../../guards/budget.service';
import { message, UcpMessage } from '../../common/envelope/envelope';
import { SupplyOrderStatus } from '../../partners/adapter.types';
import { CheckoutSessionEntity } from '../checkout-session.entity';
import { CheckoutRepository } from '../checkout.repository';
import { withoutOutcomeNotes } from './checkout-complete.rules';
import { CHECKOUT_MACHINE, CHECKOUT_SPEND_SOURCE, nextStatus } from '../checkout.rules';

/** Records the supplier's outcome of a complete (placed, or a failed call), whether it came from the call itself or from recovery. */
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

  /**
   * Records a supplier call that failed, on the session its claim still holds: back to ready_for_complete with the
   * failure's note, the held amount released (refused: nothing was ordered) or marked uncertain (the order may
   * exist), and the event (published once the transaction commits).
   */
  async recordFailed(row: CheckoutSessionEntity, failure: { refused: boolean; reason: string; note: UcpMessage }): Promise<void> {
    const { refused, reason, note } = failure;
    row.status = nextStatus('complete_in_progress', refused ? 'refused' : 'unreachable')!;
    row.messages = [...withoutOutcomeNotes(row.messages), note as unknown as Record<string, unknown>];
    await this.repo.save(row);
    if (refused) await this.budget.release(CHECKOUT_SPEND_SOURCE, row.id);
    else await this.budget.markUncertain(CHECKOUT_SPEND_SOURCE, row.id);
    await this.events.record({
      kind: 'checkout.rejected',
      summary: `checkout ${row.id}: ${refused ? 'the supplier refused the order' : 'the supplier could not be reached'}`,
      reasoning: `${reason}; the session is back to ready_for_complete; nothing is retried automatically`,
      data: { session_id: row.id, namespace: row.namespace, total_fen: row.totalFen, outcome: refused ? 'supplier_rejected' : 'upstream_unreachable' },
    });
  }

  /**
   * Records an interrupted complete that placed no order (the supplier does not know the ref): an expired claim
   * goes back to ready_for_complete (an uncertain session already is there), the held amount is released.
   */
  async recordNotPlaced(row: CheckoutSessionEntity, found: { claimed: string; reason: string }): Promise<void> {
    const { claimed, reason } = found;
    if (row.status === 'complete_in_progress') row.status = nextStatus('complete_in_progress', 'refused')!;
    const note = message(
      'order_not_placed',
      'recoverable',
      `a complete claimed at ${claimed} was interrupted and the supplier does not know ref ${row.id} (${reason}): nothing was ordered; the session is ready to complete again`,
      '$',
    );
    row.messages = [...withoutOutcomeNotes(row.messages), note as unknown as Record<string, unknown>];
    await this.repo.save(row);
    await this.budget.release(CHECKOUT_SPEND_SOURCE, row.id);
    await this.events.record({
      kind: 'checkout.rejected',
      summary: `checkout ${row.id}: an interrupted complete placed no order`,
      reasoning: `the complete claimed at ${claimed} did not finish; GET /orders/${row.id} answered that the supplier does not know the ref; the held amount is released and the session is back to ready_for_complete`,
      data: { session_id: row.id, namespace: row.namespace, total_fen: row.totalFen, outcome: 'not_placed', recovered: true },
    });
  }
}
