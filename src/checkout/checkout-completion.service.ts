import { Inject, Injectable } from '@nestjs/common';
import { MoneyClaims } from '../claims/money-claims.service';
import { message, UcpMessage } from '../common/envelope';
import { DomainError, Errors } from '../common/errors';
import type { Attempt } from '../idempotency/idempotency.service';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { BudgetService } from '../guards/budget.service';
import { GuardsService } from '../guards/guards.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import { parseSkuId } from '../identifiers/identifiers';
import { SupplyAdapter, SupplyOrderRequest } from '../partners/adapter.types';
import { partnerFailure } from '../partners/partner-failure';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { CheckoutEvaluationService } from './checkout-evaluation.service';
import { CheckoutOutcomesService, sameClaim, withoutOutcomeNotes } from './checkout-outcomes.service';
import { CheckoutRecoveryService } from './checkout-recovery.service';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { CheckoutRepository } from './checkout.repository';
import { CHECKOUT_SPEND_SOURCE as SPEND_SOURCE, CheckoutStatus, isEditable, nextStatus } from './checkout.rules';
import { stateConflict } from './checkout.view';
import { Tx } from '../database/tx';

/**
 * Checkout complete, the money path: confirm, kill switch, guards, the claim (amount held, complete_in_progress),
 * then the supplier's createOrder exactly once with ref = session id, and the answer recorded.
 */
@Injectable()
export class CheckoutCompletionService {
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly tx: Tx,
    private readonly registry: PartnerRegistry,
    private readonly guards: GuardsService,
    private readonly killSwitch: KillSwitchService,
    private readonly budget: BudgetService,
    private readonly events: EventsService,
    private readonly evaluation: CheckoutEvaluationService,
    private readonly recovery: CheckoutRecoveryService,
    private readonly outcomes: CheckoutOutcomesService,
    private readonly claims: MoneyClaims,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // ---- complete: the money path ----

  /** `attempt`: a retry under the Idempotency-Key of a first attempt that died answers that attempt's outcome. */
  async complete(id: string, confirm: unknown, attempt: Attempt = { resumed: false }): Promise<CheckoutSessionEntity> {
    // One guard snapshot for the request: the checks below and the claim's evaluation read the guard row once.
    return this.guards.withSnapshot(() => this.completeOnce(id, confirm, attempt));
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
    await this.refuseUnless(session, () => this.killSwitch.assertOff());
    const entry = this.registry.entry(session.namespace);
    const adapter = await this.refuseUnless(session, async () => this.registry.supply(session.namespace, 'orders'));
    if (this.config.env === 'staging' && !entry?.simulated) {
      await this.recordRefusal(session, 'staging_no_spend', 'staging never spends on a registered HTTP supplier');
      throw new DomainError('staging_no_spend', `staging never places orders with the registered supplier ${session.namespace}; nothing was called`, {
        severity: 'unrecoverable',
        subject: session,
      });
    }
    await this.refuseUnless(session, () => this.guards.rules());

    // Claim in one transaction: the row lock serialises concurrent completes; the session is evaluated again under
    // it (with this request's guard snapshot, already checked above, and the budget under its lock), the amount is
    // held, and the status moves to complete_in_progress.
    const claim = await this.tx.run(async () => {
      const row = await this.repo.findForUpdate(id);
      if (!row) throw Errors.notFound(`checkout session ${id}`);
      if (!isEditable(row.status as CheckoutStatus)) return { row, outcome: 'conflict' as const };
      await this.budget.lock();
      await this.evaluation.evaluateInto(row);
      if (row.status !== 'ready_for_complete') {
        await this.repo.save(row);
        return { row, outcome: 'parked' as const };
      }
      await this.budget.hold(row.totalFen, SPEND_SOURCE, id);
      row.status = nextStatus('ready_for_complete', 'claim')!;
      await this.repo.save(row);
      row.claimedAt = await this.repo.markClaimed(id);
      return { row, outcome: 'claimed' as const };
    });
    if (claim.outcome === 'conflict') throw stateConflict(claim.row);
    if (claim.outcome === 'parked') {
      const pending = claim.row.status === 'requires_escalation';
      await this.recordRefusal(claim.row, pending ? 'approval_required' : 'incomplete', pending ? 'an owner approval is needed' : 'the session is not ready');
      if (pending) {
        // The session's own approval_required messages name the approvals it waits on (their ids).
        const waits = (claim.row.messages as unknown as UcpMessage[]).filter((m) => m.code === 'approval_required').map((m) => m.content);
        throw new DomainError('approval_required', `an owner approval is needed before this session can be completed${waits.length ? `: ${waits.join('; ')}` : ''}`, {
          severity: 'requires_buyer_review',
          subject: claim.row,
        });
      }
      throw new DomainError('invalid_state', 'the session is not ready for complete; see messages', {
        severity: 'recoverable',
        extra: claim.row.messages as unknown as UcpMessage[],
        subject: claim.row,
      });
    }
    return this.place(claim.row, adapter);
  }

  /**
   * The one supplier call. Never retried: a failure returns the session to ready_for_complete for a person.
   * The answer is recorded only while this claim still holds the session; if recovery settled it meanwhile (the
   * claim outlived its lease), a failure changes nothing, and an acceptance is recorded unless the session is
   * already completed (the supplier accepted the order: that fact wins over a "not placed" read made too early).
   */
  private async place(claimed: CheckoutSessionEntity, adapter: SupplyAdapter): Promise<CheckoutSessionEntity> {
    const method = (claimed.fulfillment as { methods?: { type: string; destinations?: Record<string, unknown>[] }[] } | null)?.methods?.[0];
    const req: SupplyOrderRequest = {
      ref: claimed.id,
      lines: claimed.lineItems.map((l) => ({ vendorSku: parseSkuId(l.item_id)!.vendorSku, quantity: l.quantity, unit: l.unit === 'BX' ? 'pack' : 'each' })),
      fulfillment: { method: (method?.type as 'shipping' | 'pickup') ?? 'shipping', ...(method?.destinations?.[0] ? { destination: method.destinations[0] } : {}) },
    };
    // The one call, never retried (ref = session id, so a later manual complete is the same order for the supplier).
    const call = await this.claims.callOnce(() => adapter.createOrder(req));
    if (!call.ok) {
      const refused = call.failure === 'refused';
      const reason = call.reason;
      const note = refused
        ? message('supplier_rejected', 'recoverable', `the supplier refused the order: ${reason}; the session is ready to retry`, '$')
        : message(
            'order_uncertain',
            'requires_buyer_review',
            `the supplier could not be reached (${reason}); the order may or may not exist. Completing again sends the same ref (${claimed.id}), which the supplier treats as the same order`,
            '$',
          );
      const settled = await this.tx.run(async () => {
        const row = await this.repo.findForUpdate(claimed.id);
        if (!row || !sameClaim(row, claimed.claimedAt)) return { row: row ?? claimed, view: null };
        row.status = nextStatus('complete_in_progress', refused ? 'refused' : 'unreachable')!;
        row.messages = [...withoutOutcomeNotes(row.messages), note as unknown as Record<string, unknown>];
        await this.repo.save(row);
        if (refused) await this.budget.release(SPEND_SOURCE, row.id);
        else await this.budget.markUncertain(SPEND_SOURCE, row.id);
        const view = await this.events.record(
          {
            kind: 'checkout.rejected',
            summary: `checkout ${row.id}: ${refused ? 'the supplier refused the order' : 'the supplier could not be reached'}`,
            reasoning: `${reason}; the session is back to ready_for_complete; nothing is retried automatically`,
            data: { session_id: row.id, namespace: row.namespace, total_fen: row.totalFen, outcome: refused ? 'supplier_rejected' : 'upstream_unreachable' },
          },
        );
        return { row, view };
      });
      const row = settled.row;
      const failure = partnerFailure(call.error, { who: `the supplier ${row.namespace}`, refused: (e) => Errors.supplierRejected(e.reason) });
      throw failure.with({ extra: refused ? [] : [note], subject: row });
    }
    const ack = call.value;
    const settled = await this.tx.run(async () => {
      const row = await this.repo.findForUpdate(claimed.id);
      if (!row) throw Errors.notFound(`checkout session ${claimed.id}`);
      if (row.status === 'completed') return { row, view: null };
      const late = !sameClaim(row, claimed.claimedAt);
      const view = await this.outcomes.recordPlaced(row, { orderId: ack.orderId, state: ack.state, rawStatus: ack.rawStatus }, {
        reasoning: late
          ? `the supplier accepted the order after this complete's claim had expired and the session had moved to ${row.status}; the acceptance is recorded`
          : 'confirm was true, the kill switch was off and the guards passed; the supplier accepted the order',
      });
      return { row, view };
    });
    return settled.row;
  }

  private async refuseUnless<T>(session: CheckoutSessionEntity, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof DomainError) {
        await this.recordRefusal(session, err.code, err.message);
        throw err.with({ subject: session });
      }
      throw err;
    }
  }

  private async recordRefusal(session: CheckoutSessionEntity, code: string, why: string): Promise<void> {
    await this.events.record({
      kind: 'checkout.rejected',
      summary: `checkout ${session.id} not completed: ${code}`,
      reasoning: `${why}; nothing was spent and no supplier was called`,
      data: { session_id: session.id, namespace: session.namespace, code },
    });
  }

  private async load(id: string): Promise<CheckoutSessionEntity> {
    const row = await this.repo.find(id);
    if (!row) throw Errors.notFound(`checkout session ${id}`);
    return row;
  }
}
