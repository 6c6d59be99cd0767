import { Injectable } from '@nestjs/common';
import { Errors } from '../../common/errors/errors';
import { Tx } from '../../database/tx';
import { BudgetService } from '../../guards/budget.service';
import { CheckoutEvaluationService } from '../checkout-evaluation.service';
import { CheckoutSessionEntity } from '../checkout-session.entity';
import { CheckoutRepository } from '../checkout.repository';
import { CHECKOUT_SPEND_SOURCE, CheckoutStatus, isEditable, nextStatus } from '../checkout.rules';

/** What the claim decided: `claimed` (amount held, complete_in_progress), `parked` (evaluated, not ready) or `conflict`. */
export interface CheckoutClaim {
  row: CheckoutSessionEntity;
  outcome: 'claimed' | 'parked' | 'conflict';
}

/**
 * The guarded spend decision of a complete, in one transaction: the row lock serialises concurrent completes; the
 * session is evaluated again under it (with the request's guard snapshot and the budget under its lock), the
 * amount is held, and the status moves to complete_in_progress with the claim's time.
 */
@Injectable()
export class CheckoutClaimService {
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly tx: Tx,
    private readonly budget: BudgetService,
    private readonly evaluation: CheckoutEvaluationService,
  ) {}

  claim(id: string): Promise<CheckoutClaim> {
    return this.tx.run(async () => {
      const row = await this.repo.findForUpdate(id);
      if (!row) throw Errors.notFound(`checkout session ${id}`);
      if (!isEditable(row.status as CheckoutStatus)) return { row, outcome: 'conflict' as const };
      await this.budget.lock();
      await this.evaluation.evaluateInto(row);
      if (row.status !== 'ready_for_complete') {
        await this.repo.save(row);
        return { row, outcome: 'parked' as const };
      }
      await this.budget.hold(row.totalFen, CHECKOUT_SPEND_SOURCE, id);
      row.status = nextStatus('ready_for_complete', 'claim')!;
      await this.repo.save(row);
      row.claimedAt = await this.repo.markClaimed(id);
      return { row, outcome: 'claimed' as const };
    });
  }
}
