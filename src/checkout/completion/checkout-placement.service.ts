import { Injectable } from '@nestjs/common';
import { MoneyClaims } from '../../claims/money-claims.service';
import { Errors } from '../../common/errors/errors';
import { Tx } from '../../database/tx';
import { SupplyAdapter } from '../../partners/adapter.types';
import { partnerFailure } from '../../partners/partner-failure';
import { placementFailureNote, sameClaim, supplyOrderRequest } from './checkout-complete.rules';
import { CheckoutOutcomesService } from './checkout-outcomes.service';
import { CheckoutSessionEntity } from '../checkout-session.entity';
import { CheckoutRepository } from '../checkout.repository';

/**
 * The one supplier call of a claimed session, through the money-claims core. Never retried: a failure returns the
 * session to ready_for_complete for a person. The answer is recorded only while this claim still holds the
 * session; if recovery settled it meanwhile (the claim outlived its lease), a failure changes nothing, and an
 * acceptance is recorded unless the session is already completed (the supplier accepted the order: that fact wins
 * over a "not placed" read made too early).
 */
@Injectable()
export class CheckoutPlacementService {
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly tx: Tx,
    private readonly claims: MoneyClaims,
    private readonly outcomes: CheckoutOutcomesService,
  ) {}

  async place(claimed: CheckoutSessionEntity, adapter: SupplyAdapter): Promise<CheckoutSessionEntity> {
    // The one call, never retried (ref = session id, so a later manual complete is the same order for the supplier).
    const call = await this.claims.callOnce(() => adapter.createOrder(supplyOrderRequest(claimed)));
    if (!call.ok) {
      const refused = call.failure === 'refused';
      const note = placementFailureNote(refused, call.reason, claimed.id);
      const row = await this.tx.run(async () => {
        const held = await this.repo.findForUpdate(claimed.id);
        if (!held || !sameClaim(held, claimed.claimedAt)) return held ?? claimed;
        await this.outcomes.recordFailed(held, { refused, reason: call.reason, note });
        return held;
      });
      const failure = partnerFailure(call.error, { who: `the supplier ${row.namespace}`, refused: (e) => Errors.supplierRejected(e.reason) });
      throw failure.with({ extra: refused ? [] : [note], subject: row });
    }
    const ack = call.value;
    return this.tx.run(async () => {
      const row = await this.repo.findForUpdate(claimed.id);
      if (!row) throw Errors.notFound(`checkout session ${claimed.id}`);
      if (row.status === 'completed') return row;
      const late = !sameClaim(row, claimed.claimedAt);
      await this.outcomes.recordPlaced(row, { orderId: ack.orderId, state: ack.state, rawStatus: ack.rawStatus }, {
        reasoning: late
          ? `the supplier accepted the order after this complete's claim had expired and the session had moved to ${row.status}; the acceptance is recorded`
          : 'confirm was true, the kill switch was off and the guards passed; the supplier accepted the order',
      });
      return row;
    });
  }
}
