import { Inject, Injectable, Logger } from '@nestjs/common';
import { message } from '../common/envelope';
import { toPlus8 } from '../common/time';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { BudgetService } from '../guards/budget.service';
import { PartnerError, SupplyOrderStatus } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { CheckoutOutcomesService, sameClaim, withoutOutcomeNotes } from './checkout-outcomes.service';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { CheckoutRepository } from './checkout.repository';
import { CHECKOUT_SPEND_SOURCE, claimExpired, completeLeaseMs, nextStatus, orderUncertain, RecoveryOutcome, recoveryOutcome } from './checkout.rules';

export interface RecoveryRun {
  checked: number;
  completed: number;
  released: number;
  left: number;
}

/**
 * Recovery of interrupted completes: a session left in complete_in_progress past its claim's lease (the process
 * that claimed it died before recording the supplier's answer) is settled by reading the supplier's
 * GET /orders/{ref}; never by POSTing again.
 */
@Injectable()
export class CheckoutRecoveryService {
  private readonly logger = new Logger(CheckoutRecoveryService.name);
  private readonly leaseMs: number;
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly registry: PartnerRegistry,
    private readonly budget: BudgetService,
    private readonly events: EventsService,
    private readonly outcomes: CheckoutOutcomesService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.leaseMs = completeLeaseMs(config.partnerTimeoutMs);
  }

  /** Settles the session when its claim expired; other sessions are returned as they are (`outcome` null). */
  async recoverIfExpired(row: CheckoutSessionEntity): Promise<{ row: CheckoutSessionEntity; outcome: RecoveryOutcome | 'moved' | null }> {
    if (row.status !== 'complete_in_progress' || !claimExpired(row.claimedAt, new Date(), this.leaseMs)) return { row, outcome: null };
    return this.recover(row);
  }

  /**
   * A session whose last complete got no usable answer (`order_uncertain`: the supplier may hold the order) is
   * settled the same way, by READING GET /orders/{ref}, before anything would send it again. Used by
   * supply-checkout runs, which never complete an uncertain purchase order a second time. Other sessions are
   * returned as they are.
   */
  async settleUncertain(row: CheckoutSessionEntity): Promise<{ row: CheckoutSessionEntity; outcome: RecoveryOutcome | 'moved' | null }> {
    if (!orderUncertain(row)) return { row, outcome: null };
    return this.recover(row, (r) => orderUncertain(r));
  }

  /** Scheduled: every expired claim (database clock), oldest first, up to `limit`. */
  async recoverExpired(limit = 50): Promise<RecoveryRun> {
    const out: RecoveryRun = { checked: 0, completed: 0, released: 0, left: 0 };
    for (const row of await this.repo.expiredClaims(this.leaseMs, limit)) {
      out.checked++;
      const { outcome } = await this.recover(row);
      if (outcome === 'placed') out.completed++;
      else if (outcome === 'not_placed') out.released++;
      else if (outcome === 'unknown') out.left++;
    }
    return out;
  }

  /** `stillStuck`: the row is still in the state this recovery was started for (else someone settled it meanwhile). */
  private async recover(
    stuck: CheckoutSessionEntity,
    stillStuck: (row: CheckoutSessionEntity) => boolean = (row) => sameClaim(row, stuck.claimedAt),
  ): Promise<{ row: CheckoutSessionEntity; outcome: RecoveryOutcome | 'moved' }> {
    let status: SupplyOrderStatus | null = null;
    let failure: { kind: 'unreachable' | 'rejected' | 'unauthorized' | 'malformed' | 'other'; reason: string } | null = null;
    try {
      status = await this.registry.supply(stuck.namespace, 'orders').getOrder(stuck.id);
    } catch (err) {
      failure = err instanceof PartnerError ? { kind: err.kind, reason: err.reason } : { kind: 'other', reason: (err as Error).message };
    }
    const outcome = recoveryOutcome(status ? { found: true } : { failed: failure!.kind });
    if (outcome === 'unknown') {
      this.logger.warn(`checkout ${stuck.id}: interrupted complete not settled, the supplier's order could not be read (${failure!.kind}: ${failure!.reason}); retried on the next tick`);
      return { row: stuck, outcome };
    }
    const settled = await this.repo.transaction(async (m) => {
      const row = await this.repo.findForUpdate(stuck.id, m);
      if (!row || !stillStuck(row)) return { row: row ?? stuck, view: null };
      const claimed = row.claimedAt ? toPlus8(row.claimedAt) : 'an unknown time';
      if (status) {
        const view = await this.outcomes.recordPlaced(row, { state: status.state, rawStatus: status.rawStatus, logistics: status.logistics }, m, {
          recovered: true,
          reasoning: `a complete claimed at ${claimed} was interrupted before the supplier's answer was recorded; GET /orders/${row.id} shows the order (state ${status.state}), so it is recorded as placed; nothing was sent again`,
        });
        return { row, view };
      }
      // An expired claim goes back to ready_for_complete; an uncertain session already is there.
      if (row.status === 'complete_in_progress') row.status = nextStatus('complete_in_progress', 'refused')!;
      const note = message(
        'order_not_placed',
        'recoverable',
        `a complete claimed at ${claimed} was interrupted and the supplier does not know ref ${row.id} (${failure!.reason}): nothing was ordered; the session is ready to complete again`,
        '$',
      );
      row.messages = [...withoutOutcomeNotes(row.messages), note as unknown as Record<string, unknown>];
      await this.repo.save(row, m);
      await this.budget.release(CHECKOUT_SPEND_SOURCE, row.id, m);
      const view = await this.events.record(
        {
          kind: 'checkout.rejected',
          summary: `checkout ${row.id}: an interrupted complete placed no order`,
          reasoning: `the complete claimed at ${claimed} did not finish; GET /orders/${row.id} answered that the supplier does not know the ref; the held amount is released and the session is back to ready_for_complete`,
          data: { session_id: row.id, namespace: row.namespace, total_fen: row.totalFen, outcome: 'not_placed', recovered: true },
        },
        m,
      );
      return { row, view };
    });
    if (!settled.view) return { row: settled.row, outcome: 'moved' };
    await this.events.publish(settled.view);
    return { row: settled.row, outcome };
  }
}
