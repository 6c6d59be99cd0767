import { Injectable } from '@nestjs/common';
import { MoneyClaims } from '../../claims/money-claims.service';
import { Errors } from '../../common/errors/errors';
import type { Attempt } from '../../idempotency/idempotency.service';
import { CheckoutClaimService } from './checkout-claim.service';
import { CheckoutGatesService } from '../checkout-gates.service';
import { CheckoutPlacementService } from './checkout-placement.service';
import { CheckoutRecoveryService } from './checkout-recovery.service';
import { CheckoutSessionEntity } from '../checkout-session.entity';
import { CheckoutRepository } from '../checkout.repository';
import { stateConflict } from '../checkout.rules';

/**
 * Checkout complete, the money path, one step per concern: confirm; an expired claim recovered first; the gates
 * (kill switch, supplier, staging, guards: CheckoutGatesService); the claim (amount held, complete_in_progress:
 * CheckoutClaimService); then the supplier's createOrder exactly once with ref = session id, and the answer
 * recorded (CheckoutPlacementService).
 */
@Injectable()
export class CheckoutCompletionService {
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly recovery: CheckoutRecoveryService,
    private readonly claims: MoneyClaims,
    private readonly gates: CheckoutGatesService,
    private readonly claiming: CheckoutClaimService,
    private readonly placement: CheckoutPlacementService,
  ) {}

  /** `attempt`: a retry under the Idempotency-Key of a first attempt that died answers that attempt's outcome. */
  async complete(id: string, confirm: unknown, attempt: Attempt = { resumed: false }): Promise<CheckoutSessionEntity> {
    // One guard snapshot for the request: the gates below and the claim's evaluation read the guard row once.
    return this.gates.withSnapshot(() => this.completeOnce(id, confirm, attempt));
  }

  private async completeOnce(id: string, confirm: unknown, attempt: Attempt): Promise<CheckoutSessionEntity> {
    if (confirm !== true) throw Errors.confirmationRequired();
    const recovered = await this.recovery.recoverIfExpired(await this.load(id));
    // The interrupted complete did place the order: this complete's answer is that order.
    if (recovered.outcome === 'placed') return recovered.row;
    const session = recovered.row;
    // A retry of a complete whose process died: the session it completed (itself, or through the lease's recovery
    // on any instance) is its answer, not a 409 that a client could read as "not done" (issue 27).
    if (attempt.resumed && session.status === 'completed') return session;
    if (session.status === 'complete_in_progress') throw stateConflict(session).with({ retryAfterSeconds: this.claims.retryAfter(session.claimedAt) });
    if (session.status === 'completed' || session.status === 'canceled') throw stateConflict(session);
    const adapter = await this.gates.open(session);
    const claim = await this.claiming.claim(id);
    if (claim.outcome === 'conflict') throw stateConflict(claim.row);
    if (claim.outcome === 'parked') return this.gates.refuseParked(claim.row);
    return this.placement.place(claim.row, adapter);
  }

  private async load(id: string): Promise<CheckoutSessionEntity> {
    const row = await this.repo.find(id);
    if (!row) throw Errors.notFound(`checkout session ${id}`);
    return row;
  }
}
