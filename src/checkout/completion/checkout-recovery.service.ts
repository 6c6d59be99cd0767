import { Injectable, Logger } from '@nestjs/common';
import { ReadOutcome } from '../../claims/claim.rules';
import { MoneyClaims } from '../../claims/money-claims.service';
import { toPlus8 } from '../../common/time';
import { PartnerRegistry } from '../../partners/registry/partner-registry';
import { sameClaim } from './checkout-complete.rules';
import { CheckoutOutcomesService } from './checkout-outcomes.service';
import { CheckoutSessionEntity } from '../checkout-session.entity';
import { CheckoutRepository } from '../checkout.repository';
import { orderUncertain } from '../checkout.rules';

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
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly registry: PartnerRegistry,
    private readonly outcomes: CheckoutOutcomesService,
    private readonly claims: MoneyClaims,
  ) {}

  /** Settles the session when its claim expired; other sessions are returned as they are (`outcome` null). */
  async recoverIfExpired(row: CheckoutSessionEntity): Promise<{ row: CheckoutSessionEntity; outcome: ReadOutcome | 'moved' | null }> {
    if (row.status !== 'complete_in_progress' || !this.claims.expired(row.claimedAt)) return { row, outcome: null };
    return this.recover(row);
  }

  /**
   * A session whose last complete got no usable answer (`order_uncertain`: the supplier may hold the order) is
   * settled the same way, by READING GET /orders/{ref}, before anything would send it again. Used by
   * supply-checkout runs, which never complete an uncertain purchase order a second time. Other sessions are
   * returned as they are.
   */
  async settleUncertain(row: CheckoutSessionEntity): Promise<{ row: CheckoutSessionEntity; outcome: ReadOutcome | 'moved' | null }> {
    if (!orderUncertain(row)) return { row, outcome: null };
    return this.recover(row, (r) => orderUncertain(r));
  }

  /** Scheduled: every expired claim (database clock), oldest first, up to `limit`. */
  async recoverExpired(limit = 50): Promise<RecoveryRun> {
    const stuck = await this.repo.expiredClaims(this.claims.leaseMs, limit);
    const t = await this.claims.recoverAll(stuck, async (row) => (await this.recover(row)).outcome);
    return { checked: t.checked, completed: t.placed, released: t.released, left: t.left };
  }

  /** `stillStuck`: the row is still in the state this recovery was started for (else someone settled it meanwhile). */
  private async recover(
    stuck: CheckoutSessionEntity,
    stillStuck: (row: CheckoutSessionEntity) => boolean = (row) => sameClaim(row, stuck.claimedAt),
  ): Promise<{ row: CheckoutSessionEntity; outcome: ReadOutcome | 'moved' }> {
    // Read, never POST again: only a clear "ref unknown" releases the hold; any other failure leaves it for later.
    let settledRow = stuck;
    const outcome = await this.claims.settleByReading(
      `checkout ${stuck.id}`,
      () => this.claims.read(() => this.registry.supply(stuck.namespace, 'orders').getOrder(stuck.id)),
      (r) => (r.outcome === 'placed' ? '' : `the supplier's order could not be read: ${r.failure.kind}${r.failure.httpStatus ? ` HTTP ${r.failure.httpStatus}` : ''}: ${r.failure.reason}`),
      async (read) => {
        const row = await this.repo.findForUpdate(stuck.id);
        settledRow = row ?? stuck;
        if (!row || !stillStuck(row)) return false;
        const claimed = row.claimedAt ? toPlus8(row.claimedAt) : 'an unknown time';
        if (read.outcome === 'placed') {
          const status = read.value;
          await this.outcomes.recordPlaced(row, { state: status.state, rawStatus: status.rawStatus, logistics: status.logistics }, {
            recovered: true,
            reasoning: `a complete claimed at ${claimed} was interrupted before the supplier's answer was recorded; GET /orders/${row.id} shows the order (state ${status.state}), so it is recorded as placed; nothing was sent again`,
          });
          return true;
        }
        await this.outcomes.recordNotPlaced(row, { claimed, reason: read.failure.reason });
        return true;
      },
    );
    return { row: settledRow, outcome };
  }
}
