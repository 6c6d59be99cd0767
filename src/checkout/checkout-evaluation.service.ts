import { randomUUID } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { CheckoutApprovalSubject, readSubject } from '../approvals/approval-subjects';
import { ApprovalHandler, ApprovalsService, Approval, NewApproval } from '../approvals/approvals.service';
import { BudgetService } from '../guards/budget.service';
import { GuardRules, hardNoGo, onProbation } from '../guards/guard.rules';
import { GuardsService } from '../guards/guards.service';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { CheckoutRepository } from './checkout.repository';
import { CHECKOUT_MACHINE, CHECKOUT_SPEND_SOURCE, CheckoutStatus, evaluateSession, isEditable, sessionExpiresAt, sessionTotal } from './checkout.rules';
import { purchaseKey, sessionKey, subjectFulfillment } from './checkout-subject.rules';
import { fulfillmentProblems } from './completion/fulfillment.rules';
import { toPlus8 } from '../common/time';
import { Tx } from '../database/tx';

export type ApprovalRequest = NewApproval<'checkout_budget' | 'checkout_probation'>;
/** What an evaluation asks of approvals: new ones to request, stale pending ones to withdraw (issue 37). */
export interface ApprovalPlan {
  requests: ApprovalRequest[];
  stale: string[];
  sessionId: string;
}
export interface EvaluationOptions {
  deciding?: { id: string; status: string };
  newSession?: boolean;
}

/**
 * Evaluation of a checkout session (its lines are priced by CheckoutPricingService): the session evaluated against guards, budget and approvals (requesting the missing approvals), and re-evaluated when one of
 * its approvals is resolved.
 */
@Injectable()
export class CheckoutEvaluationService implements OnModuleInit {
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly tx: Tx,
    private readonly guards: GuardsService,
    private readonly budget: BudgetService,
    private readonly approvals: ApprovalsService,
  ) {}

  onModuleInit(): void {
    // The effect is a local re-evaluation of the session (no partner call, the same result however often it runs),
    // recorded in the transaction that records the approval's outcome; an interrupted one is simply finished.
    const handler: ApprovalHandler<CheckoutApprovalSubject> = {
      onApproved: async (a, s) => () => this.onApprovalResolved(a, s, 'approved'),
      onRejected: async (a, s) => () => this.onApprovalResolved(a, s, 'rejected'),
      recover: async (a, s, approved) => ({ outcome: 'placed', record: () => this.onApprovalResolved(a, s, approved ? 'approved' : 'rejected') }),
    };
    this.approvals.registerHandler('checkout_budget', handler);
    this.approvals.registerHandler('checkout_probation', handler);
  }

  /**
   * Evaluates the session against the current guard rules, budget and approvals, requesting missing approvals.
   * `deciding`: an approval being resolved right now (its row still says pending).
   */
  async evaluateInto(row: CheckoutSessionEntity, opts: EvaluationOptions = {}): Promise<void> {
    await this.requestApprovals(await this.evaluate(row, opts));
  }

  /** The session's subject key (checkout-subject.rules): supplier, lines, prices, total and fulfillment. */
  private keyOf(row: CheckoutSessionEntity): string {
    const lines = row.lineItems.map((l) => ({ itemId: l.item_id, unit: l.unit, quantity: l.quantity, unitPriceFen: l.unit_price_fen }));
    return sessionKey({ namespace: row.namespace, lines, totalFen: sessionTotal(lines), fulfillment: row.fulfillment });
  }

  /**
   * Evaluates the session (reads only) and returns the approvals it still needs, and the pending ones asked for
   * another subject (stale). `newSession`: the id was generated for this request, so no approval can name it yet and
   * none is read (issue 13: one round trip less per create).
   */
  evaluate(row: CheckoutSessionEntity, opts: EvaluationOptions = {}): Promise<ApprovalPlan> {
    // One guard state for the whole evaluation (the rules and the budget check), joining the request's snapshot.
    return this.guards.withSnapshot(() => this.evaluateOnce(row, opts));
  }

  private async evaluateOnce(row: CheckoutSessionEntity, opts: EvaluationOptions): Promise<ApprovalPlan> {
    const lines = row.lineItems;
    const total = sessionTotal(lines.map((l) => ({ quantity: l.quantity, unitPriceFen: l.unit_price_fen })));
    row.totalFen = total;
    const key = this.keyOf(row);
    const state = await this.guards.state();
    const rules: GuardRules | null = state.rules;
    const vendor = row.namespace.replace(/-supply$/, '');
    const guards = rules
      ? {
          budget: await this.budget.check(total, new Date(), { source: CHECKOUT_SPEND_SOURCE, ref: row.id }),
          probation: onProbation(rules, vendor),
          hardNoGo: lines.map((l) => hardNoGo(rules, { vendor, skuId: l.item_id })),
        }
      : null;
    // One the service withdrew because the session changed (withdrawStale) was never the owner's decision: it counts
    // for nothing, so coming back to that subject asks again.
    const existing = (opts.newSession ? [] : await this.approvals.forSubject(row.id, undefined)).filter((a) => !withdrawnByService(a));
    const facts = existing.map((a) => ({
      kind: a.kind,
      status: opts.deciding && a.id === opts.deciding.id ? opts.deciding.status : a.status,
      key: a.kind === 'checkout_budget' || a.kind === 'checkout_probation' ? (readSubject(a.kind, a.subject)?.key ?? null) : null,
      id: a.id,
    }));
    // A session opened by a replenishment run: the run's approved budget approval covers it, up to the approved total,
    // when it named this very purchase order (supplier, lines and destination, issue 37).
    if (row.runId) {
      const po = purchaseKey({ namespace: row.namespace, lines: lines.map((l) => ({ itemId: l.item_id, unit: l.unit, quantity: l.quantity })), fulfillment: row.fulfillment });
      for (const a of await this.approvals.forSubject(row.runId, 'replenishment_run')) {
        const s = readSubject('replenishment_run', a.subject);
        const named = s?.purchase_orders?.some((o) => o.key === po) ?? false;
        if (a.status === 'approved' && named && total <= (s?.total_cost_fen ?? -1)) facts.push({ kind: 'checkout_budget', status: 'approved', key, id: a.id });
      }
    }
    const newApprovalIds = { checkout_budget: randomUUID(), checkout_probation: randomUUID() };
    const expiresAt = sessionExpiresAt(row.pricedAt ?? new Date());
    const ev = evaluateSession({
      lines: lines.map((l) => ({ itemId: l.item_id, vendor, quantity: l.quantity, unitPriceFen: l.unit_price_fen, increment: l.increment, problem: l.problem })),
      fulfillmentProblems: fulfillmentProblems(row.fulfillment),
      expired: expiresAt.getTime() <= Date.now() ? { at: toPlus8(expiresAt) } : null,
      guards,
      guardProblem: state.problem,
      sessionKey: key,
      approvals: facts,
      newApprovalIds,
    });
    row.status = CHECKOUT_MACHINE.move(row.status, ev.status);
    row.messages = ev.messages as unknown as Record<string, unknown>[];
    // A pending approval asked for another subject (the lines, prices, supplier or fulfillment changed since): withdrawn
    // by requestApprovals, so nobody approves what is no longer asked (issue 37).
    const stale = existing.filter((a) => a.status === 'pending' && a.id !== opts.deciding?.id && facts.find((f) => f.id === a.id)?.key !== key && (a.kind === 'checkout_budget' || a.kind === 'checkout_probation'));
    const requests = ev.toRequest.map((kind): ApprovalRequest => {
      const why = kind === 'checkout_budget' ? `over budget (${total} fen)` : `vendor ${vendor} is on probation`;
      return {
        id: newApprovalIds[kind],
        kind,
        subject: {
          session_id: row.id,
          namespace: row.namespace,
          total_fen: total,
          key,
          lines: lines.map((l) => ({ id: l.item_id, quantity: l.quantity, unit: l.unit, title: l.title, unit_price_fen: l.unit_price_fen })),
          fulfillment: subjectFulfillment(row.fulfillment),
        },
        summary: `checkout ${row.id} to ${row.namespace}: ${why}`,
      };
    });
    return { requests, stale: stale.map((a) => a.id), sessionId: row.id };
  }

  /**
   * Withdraws the stale approvals and requests the missing ones `evaluate` returned (in the caller's transaction, with
   * the session's write). One being resolved right now is left; its decision does not count for the new subject.
   */
  async requestApprovals(plan: ApprovalPlan): Promise<void> {
    for (const id of plan.stale) {
      await this.approvals.withdrawForGoneSubject(id, `checkout session ${plan.sessionId} changed after this approval was asked (lines, prices, supplier or fulfillment): it no longer covers the order`);
    }
    for (const r of plan.requests) await this.approvals.create(r);
  }

  /** An approval of a checkout escalation was resolved: re-evaluate the session (approved: it may be ready). */
  private async onApprovalResolved(a: Approval, subject: CheckoutApprovalSubject, decision: 'approved' | 'rejected'): Promise<void> {
    const id = subject.session_id;
    // The approval row is 'executing' while this runs; evaluation treats the one being resolved as decided.
    await this.tx.run(async () => {
      const row = await this.repo.findForUpdate(id);
      if (!row || !isEditable(row.status as CheckoutStatus)) return;
      await this.evaluateInto(row, { deciding: { id: a.id, status: decision } });
      await this.repo.save(row);
    });
  }
}

function withdrawnByService(a: Approval): boolean {
  return a.resolver?.channel === 'withdrawn' && (a.resolver.credential as string | undefined) === 'service';
}
