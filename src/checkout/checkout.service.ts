import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Errors } from '../common/errors/errors';
import { EventsService } from '../events/events.service';
import { CheckoutEvaluationService } from './checkout-evaluation.service';
import { CheckoutPricingService } from './checkout-pricing.service';
import { CheckoutRecoveryService } from './completion/checkout-recovery.service';
import { CheckoutSessionEntity } from './checkout-session.entity';
import type { CheckoutSessionInput } from './checkout-session.input';
import { CheckoutRepository } from './checkout.repository';
import { CHECKOUT_MACHINE, CheckoutStatus, isEditable, nextStatus, stateConflict } from './checkout.rules';
import { Tx } from '../database/tx';
import type { CarriedAnswer } from '../idempotency/idempotency.service';

/** What a create records of its request (the Idempotency-Key is handled by the controller, see replyOnce). */
export interface RequestContext {
  ucpAgent?: string;
}

/**
 * Checkout sessions (wholesale purchase orders, one supply namespace per session): create, read, update, cancel.
 * Pricing lives in CheckoutPricingService, evaluation in CheckoutEvaluationService, complete in
 * CheckoutCompletionService, recovery of an interrupted complete in CheckoutRecoveryService, the JSON in checkout.view.ts.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly tx: Tx,
    private readonly pricing: CheckoutPricingService,
    private readonly evaluation: CheckoutEvaluationService,
    private readonly recovery: CheckoutRecoveryService,
    private readonly events: EventsService,
  ) {}

  /**
   * `opts.runId`: the replenishment run opening this session as one of its purchase orders. `opts.carryAnswer` gives
   * the write of the Idempotency-Key and its answer for the new session, which the session's insert carries (one
   * statement, inside the create's transaction); it throws when the key is in use (the transaction rolls back).
   */
  async create(
    body: CheckoutSessionInput,
    ctx: RequestContext,
    opts: { runId?: string; carryAnswer?: (row: CheckoutSessionEntity) => CarriedAnswer | null } = {},
  ): Promise<CheckoutSessionEntity> {
    const id = body.id ?? `po_${randomBytes(9).toString('base64url')}`;
    // A chosen id is checked before pricing calls the supplier; a generated one cannot exist (nor can approvals naming
    // it), so the create is one transaction (issue 13). The insert's conflict check below guards both.
    if (body.id !== undefined && (await this.repo.find(id))) throw Errors.conflict('already_exists', `checkout session ${id} already exists`, '$.id');
    (body.line_items ?? []).forEach((l, i) => {
      if (l.quantity < 1) throw Errors.invalid(`$.line_items[${i}].quantity`, 'quantity must be an integer >= 1');
    });
    const requested = this.pricing.mergeLines([], body.line_items ?? []);
    const namespace = this.pricing.namespaceOf(requested, null);
    const lines = await this.pricing.priceLines(namespace, requested);
    const row = new CheckoutSessionEntity();
    Object.assign(row, {
      id,
      namespace,
      status: 'incomplete',
      lineItems: lines,
      fulfillment: (body.fulfillment as unknown as Record<string, unknown>) ?? null,
      totalFen: 0,
      messages: [],
      ucpAgent: ctx.ucpAgent ? { header: ctx.ucpAgent } : null,
      logistics: [],
      runId: opts.runId ?? null,
      pricedAt: new Date(),
    });
    // One transaction: the guard read, the insert and any approvals it needs (issue 13: 4 round trips, it was 5; a
    // generated id needs no approval read).
    await this.tx.run(async () => {
      const approvals = await this.evaluation.evaluate(row, { newSession: body.id === undefined });
      const carried = opts.carryAnswer?.(row) ?? null;
      const written = carried ? await this.repo.insertCarrying(row, carried) : { main: await this.repo.insert(row), carried: true };
      if (!written.main) throw Errors.conflict('already_exists', `checkout session ${id} already exists`, '$.id');
      carried?.settle(written.carried);
      await this.evaluation.requestApprovals(approvals);
    });
    return row;
  }

  async get(id: string): Promise<CheckoutSessionEntity> {
    const { row } = await this.recovery.recoverIfExpired(await this.load(id));
    return row;
  }

  async update(id: string, body: CheckoutSessionInput): Promise<CheckoutSessionEntity> {
    const current = await this.load(id);
    if (!isEditable(current.status as CheckoutStatus)) throw stateConflict(current);
    if (body.id !== undefined && body.id !== id) throw Errors.invalid('$.id', 'the session id cannot be changed');
    const requested = this.pricing.mergeLines(current.lineItems, body.line_items ?? []);
    const namespace = this.pricing.namespaceOf(requested, current.lineItems.length ? current.namespace : null);
    const lines = await this.pricing.priceLines(namespace, requested);
    const row = await this.tx.run(async () => {
      const locked = await this.repo.findForUpdate(id);
      if (!locked) throw Errors.notFound(`checkout session ${id}`);
      if (!isEditable(locked.status as CheckoutStatus)) throw stateConflict(locked);
      locked.namespace = namespace;
      locked.lineItems = lines;
      locked.pricedAt = new Date();
      if (body.fulfillment) locked.fulfillment = body.fulfillment as unknown as Record<string, unknown>;
      await this.evaluation.evaluateInto(locked);
      await this.repo.save(locked);
      return locked;
    });
    return row;
  }

  async cancel(id: string): Promise<CheckoutSessionEntity> {
    const { row } = await this.recovery.recoverIfExpired(await this.load(id));
    const to = nextStatus(row.status as CheckoutStatus, 'cancel');
    // The change and its event in one transaction; the event is published once it commits.
    const canceled = await this.tx.run(async () => {
      if (!to || !(await this.repo.transition(id, CHECKOUT_MACHINE.sourcesOf(to), to))) return null;
      await this.events.record({
        kind: 'checkout.canceled',
        summary: `checkout session ${id} canceled`,
        reasoning: 'canceled by the operator; no supplier call was made',
        data: { session_id: id },
      });
      return (await this.repo.find(id))!;
    });
    if (!canceled) throw stateConflict((await this.repo.find(id)) ?? row);
    return canceled;
  }

  private async load(id: string): Promise<CheckoutSessionEntity> {
    const row = await this.repo.find(id);
    if (!row) throw Errors.notFound(`checkout session ${id}`);
    return row;
  }
}
