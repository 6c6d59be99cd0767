import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { message, ok, UcpMessage } from '../common/envelope';
import { DomainError, Errors } from '../common/errors';
import { toPlus8 } from '../common/time';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { ApprovalsService, ApprovalView } from '../approvals/approvals.service';
import { SupplyCatalogService } from '../catalog/supply-catalog.service';
import { EventsService } from '../events/events.service';
import { BudgetService } from '../guards/budget.service';
import { GuardRules, hardNoGo, onProbation } from '../guards/guard.rules';
import { GuardsService } from '../guards/guards.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import { parseSkuId } from '../identifiers/identifiers';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { PartnerError, SupplyAdapter, SupplyOrderAck, SupplyOrderRequest, SupplyOrderStatus } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { CheckoutSessionEntity, StoredLine } from './checkout-session.entity';
import { CheckoutLineBody, CheckoutSessionBody, FulfillmentBody } from './checkout.dto';
import { CheckoutRepository } from './checkout.repository';
import {
  CHECKOUT_SPEND_SOURCE,
  CheckoutStatus,
  claimExpired,
  completeLeaseMs,
  evaluateSession,
  isEditable,
  nextStatus,
  RecoveryOutcome,
  recoveryOutcome,
  sessionKey,
  sessionTotal,
} from './checkout.rules';

export const SPEND_SOURCE = CHECKOUT_SPEND_SOURCE;
const CAPS = ['com.example.svc.order'];

export interface RequestContext {
  base: string;
  idempotencyKey?: string;
  rawBody: string;
  ucpAgent?: string;
}

export type Answer = { status: number; body: unknown; replayed: boolean };

export interface RecoveryRun {
  checked: number;
  completed: number;
  released: number;
  left: number;
}

/** The same claim: a complete_in_progress session still held by the claim stamped `claimedAt`. */
function sameClaim(row: CheckoutSessionEntity, claimedAt: Date | null): boolean {
  return row.status === 'complete_in_progress' && (row.claimedAt?.getTime() ?? null) === (claimedAt?.getTime() ?? null);
}

/**
 * Checkout sessions: wholesale purchase orders, one supply namespace per session. Create/update price the lines
 * from the supplier catalog and evaluate the session; complete is the money path: confirm, kill switch, guards,
 * then the supplier's createOrder exactly once with ref = session id.
 */
@Injectable()
export class CheckoutService implements OnModuleInit {
  private readonly logger = new Logger(CheckoutService.name);
  private readonly leaseMs: number;
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly registry: PartnerRegistry,
    private readonly catalog: SupplyCatalogService,
    private readonly guards: GuardsService,
    private readonly killSwitch: KillSwitchService,
    private readonly budget: BudgetService,
    private readonly approvals: ApprovalsService,
    private readonly events: EventsService,
    private readonly idempotency: IdempotencyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.leaseMs = completeLeaseMs(config.partnerTimeoutMs);
  }

  onModuleInit(): void {
    const handler = {
      onApproved: (a: ApprovalView) => this.onApprovalResolved(a, 'approved'),
      onRejected: (a: ApprovalView) => this.onApprovalResolved(a, 'rejected'),
    };
    this.approvals.registerHandler('checkout_budget', handler);
    this.approvals.registerHandler('checkout_probation', handler);
  }

  // ---- create / get / update / cancel ----

  async create(body: CheckoutSessionBody, ctx: RequestContext): Promise<Answer> {
    return this.idempotency.run(ctx.idempotencyKey, { operation: 'checkout.create', resourceId: body.id ?? '', rawBody: ctx.rawBody }, async () => {
      const id = body.id ?? `po_${randomBytes(9).toString('base64url')}`;
      if (await this.repo.find(id)) throw Errors.conflict('already_exists', `checkout session ${id} already exists`, '$.id');
      (body.line_items ?? []).forEach((l, i) => {
        if (l.quantity < 1) throw Errors.invalid(`$.line_items[${i}].quantity`, 'quantity must be an integer >= 1');
      });
      const requested = this.mergeLines([], body.line_items ?? []);
      const namespace = this.namespaceOf(requested, null);
      const lines = await this.priceLines(namespace, requested);
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
      });
      await this.repo.transaction(async (m) => {
        await this.evaluateInto(row, m);
        if (!(await this.repo.insert(row, m))) throw Errors.conflict('already_exists', `checkout session ${id} already exists`, '$.id');
      });
      return { status: 201, body: this.render(row, ctx.base) };
    });
  }

  async get(id: string, base: string): Promise<unknown> {
    const { row } = await this.recoverIfExpired(await this.load(id));
    return this.render(row, base);
  }

  async update(id: string, body: CheckoutSessionBody, base: string): Promise<unknown> {
    const current = await this.load(id);
    if (!isEditable(current.status as CheckoutStatus)) throw this.stateConflict(current, base);
    if (body.id !== undefined && body.id !== id) throw Errors.invalid('$.id', 'the session id cannot be changed');
    const requested = this.mergeLines(current.lineItems, body.line_items ?? []);
    const namespace = this.namespaceOf(requested, current.lineItems.length ? current.namespace : null);
    const lines = await this.priceLines(namespace, requested);
    const row = await this.repo.transaction(async (m) => {
      const locked = await this.repo.findForUpdate(id, m);
      if (!locked) throw Errors.notFound(`checkout session ${id}`);
      if (!isEditable(locked.status as CheckoutStatus)) throw this.stateConflict(locked, base);
      locked.namespace = namespace;
      locked.lineItems = lines;
      if (body.fulfillment) locked.fulfillment = body.fulfillment as unknown as Record<string, unknown>;
      await this.evaluateInto(locked, m);
      await this.repo.save(locked, m);
      return locked;
    });
    return this.render(row, base);
  }

  async cancel(id: string, base: string): Promise<unknown> {
    const { row } = await this.recoverIfExpired(await this.load(id));
    const to = nextStatus(row.status as CheckoutStatus, 'cancel');
    if (!to || !(await this.repo.transition(id, ['incomplete', 'requires_escalation', 'ready_for_complete'], 'canceled'))) {
      throw this.stateConflict((await this.repo.find(id)) ?? row, base);
    }
    await this.events.record({
      kind: 'checkout.canceled',
      summary: `checkout session ${id} canceled`,
      reasoning: 'canceled by the operator; no supplier call was made',
      data: { session_id: id },
    });
    return this.render((await this.repo.find(id))!, base);
  }

  // ---- complete: the money path ----

  async complete(id: string, confirm: unknown, ctx: RequestContext): Promise<Answer> {
    return this.idempotency.run(ctx.idempotencyKey, { operation: 'checkout.complete', resourceId: id, rawBody: ctx.rawBody }, async () => {
      if (confirm !== true) throw Errors.confirmationRequired();
      const recovered = await this.recoverIfExpired(await this.load(id));
      // The interrupted complete did place the order: this complete's answer is that order.
      if (recovered.outcome === 'placed') return { status: 200, body: this.render(recovered.row, ctx.base) };
      const session = recovered.row;
      if (session.status === 'completed' || session.status === 'canceled' || session.status === 'complete_in_progress') {
        throw this.stateConflict(session, ctx.base);
      }
      await this.refuseUnless(session, ctx.base, () => this.killSwitch.assertOff());
      const entry = this.registry.entry(session.namespace);
      const adapter = await this.refuseUnless(session, ctx.base, async () => this.registry.supply(session.namespace, 'orders'));
      if (this.config.env === 'staging' && !entry?.simulated) {
        await this.recordRefusal(session, 'staging_no_spend', 'staging never spends on a registered HTTP supplier');
        throw new DomainError(409, 'staging_no_spend', `staging never places orders with the registered supplier ${session.namespace}; nothing was called`, {
          severity: 'unrecoverable',
          body: this.sessionBody(session, ctx.base),
        });
      }
      await this.refuseUnless(session, ctx.base, () => this.guards.rules());

      // Claim in one transaction: the row lock serialises concurrent completes; the kill switch, the guards and the
      // budget are checked again under it, the amount is held, and the status moves to complete_in_progress.
      const claim = await this.repo.transaction(async (m) => {
        const row = await this.repo.findForUpdate(id, m);
        if (!row) throw Errors.notFound(`checkout session ${id}`);
        if (!isEditable(row.status as CheckoutStatus)) return { row, outcome: 'conflict' as const };
        await this.killSwitch.assertOff(m);
        await this.budget.lock(m);
        await this.evaluateInto(row, m);
        if (row.status !== 'ready_for_complete') {
          await this.repo.save(row, m);
          return { row, outcome: 'parked' as const };
        }
        await this.budget.hold(row.totalFen, SPEND_SOURCE, id, m);
        row.status = nextStatus('ready_for_complete', 'claim')!;
        await this.repo.save(row, m);
        row.claimedAt = await this.repo.markClaimed(id, m);
        return { row, outcome: 'claimed' as const };
      });
      if (claim.outcome === 'conflict') throw this.stateConflict(claim.row, ctx.base);
      if (claim.outcome === 'parked') {
        const pending = claim.row.status === 'requires_escalation';
        await this.recordRefusal(claim.row, pending ? 'approval_required' : 'incomplete', pending ? 'an owner approval is needed' : 'the session is not ready');
        if (pending) {
          throw new DomainError(409, 'approval_required', 'an owner approval is needed before this session can be completed', {
            severity: 'requires_buyer_review',
            body: this.sessionBody(claim.row, ctx.base),
          });
        }
        throw new DomainError(409, 'invalid_state', 'the session is not ready for complete; see messages', {
          severity: 'recoverable',
          extra: claim.row.messages as unknown as UcpMessage[],
          body: this.sessionBody(claim.row, ctx.base),
        });
      }
      return this.place(claim.row, adapter, ctx.base);
    });
  }

  /**
   * The one supplier call. Never retried: a failure returns the session to ready_for_complete for a person.
   * The answer is recorded only while this claim still holds the session; if recovery settled it meanwhile (the
   * claim outlived its lease), a failure changes nothing, and an acceptance is recorded unless the session is
   * already completed (the supplier accepted the order: that fact wins over a "not placed" read made too early).
   */
  private async place(claimed: CheckoutSessionEntity, adapter: SupplyAdapter, base: string): Promise<{ status: number; body: unknown }> {
    const method = (claimed.fulfillment as { methods?: { type: string; destinations?: Record<string, unknown>[] }[] } | null)?.methods?.[0];
    const req: SupplyOrderRequest = {
      ref: claimed.id,
      lines: claimed.lineItems.map((l) => ({ vendorSku: parseSkuId(l.item_id)!.vendorSku, quantity: l.quantity, unit: l.unit === 'BX' ? 'pack' : 'each' })),
      fulfillment: { method: (method?.type as 'shipping' | 'pickup') ?? 'shipping', ...(method?.destinations?.[0] ? { destination: method.destinations[0] } : {}) },
    };
    let ack: SupplyOrderAck;
    try {
      ack = await adapter.createOrder(req);
    } catch (err) {
      const refused = err instanceof PartnerError && err.kind === 'rejected';
      const reason = err instanceof PartnerError ? err.reason : (err as Error).message;
      const note = refused
        ? message('supplier_rejected', 'recoverable', `the supplier refused the order: ${reason}; the session is ready to retry`, '$')
        : message(
            'order_uncertain',
            'requires_buyer_review',
            `the supplier could not be reached (${reason}); the order may or may not exist. Completing again sends the same ref (${claimed.id}), which the supplier treats as the same order`,
            '$',
          );
      const settled = await this.repo.transaction(async (m) => {
        const row = await this.repo.findForUpdate(claimed.id, m);
        if (!row || !sameClaim(row, claimed.claimedAt)) return { row: row ?? claimed, view: null };
        row.status = nextStatus('complete_in_progress', refused ? 'refused' : 'unreachable')!;
        row.messages = [...withoutOutcomeNotes(row.messages), note as unknown as Record<string, unknown>];
        await this.repo.save(row, m);
        if (refused) await this.budget.release(SPEND_SOURCE, row.id, m);
        else await this.budget.markUncertain(SPEND_SOURCE, row.id, m);
        const view = await this.events.record(
          {
            kind: 'checkout.rejected',
            summary: `checkout ${row.id}: ${refused ? 'the supplier refused the order' : 'the supplier could not be reached'}`,
            reasoning: `${reason}; the session is back to ready_for_complete; nothing is retried automatically`,
            data: { session_id: row.id, namespace: row.namespace, total_fen: row.totalFen, outcome: refused ? 'supplier_rejected' : 'upstream_unreachable' },
          },
          m,
        );
        return { row, view };
      });
      if (settled.view) await this.events.publish(settled.view);
      const row = settled.row;
      if (refused) {
        const e = Errors.supplierRejected(reason);
        throw new DomainError(e.status, e.code, e.message, { severity: 'recoverable', body: this.sessionBody(row, base) });
      }
      throw new DomainError(502, 'upstream_unreachable', `the supplier ${row.namespace} could not be reached: ${reason}`, {
        severity: 'recoverable',
        extra: [note],
        body: this.sessionBody(row, base),
      });
    }
    const settled = await this.repo.transaction(async (m) => {
      const row = await this.repo.findForUpdate(claimed.id, m);
      if (!row) throw Errors.notFound(`checkout session ${claimed.id}`);
      if (row.status === 'completed') return { row, view: null };
      const late = !sameClaim(row, claimed.claimedAt);
      const view = await this.recordPlaced(row, { orderId: ack.orderId, state: ack.state, rawStatus: ack.rawStatus }, m, {
        reasoning: late
          ? `the supplier accepted the order after this complete's claim had expired and the session had moved to ${row.status}; the acceptance is recorded`
          : 'confirm was true, the kill switch was off and the guards passed; the supplier accepted the order',
      });
      return { row, view };
    });
    if (settled.view) await this.events.publish(settled.view);
    return { status: 200, body: this.render(settled.row, base) };
  }

  /** Records an order the supplier holds (accepted, or found on recovery): completed, spend counted, event (publish after commit). */
  private async recordPlaced(
    row: CheckoutSessionEntity,
    s: { orderId?: string | null; state: string; rawStatus: string | null; logistics?: SupplyOrderStatus['logistics'] },
    m: EntityManager,
    why: { reasoning: string; recovered?: boolean },
  ) {
    row.status = 'completed';
    row.completedAt = new Date();
    if (s.orderId !== undefined) row.supplierOrderId = s.orderId;
    row.supplierState = s.state;
    row.supplierRawStatus = s.rawStatus;
    if (s.logistics) row.logistics = s.logistics.map((l) => ({ ...l }));
    row.supplierCheckedAt = new Date();
    row.messages = [];
    await this.repo.save(row, m);
    await this.budget.recordSpend(row.totalFen, SPEND_SOURCE, row.id, m);
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
      m,
    );
  }

  // ---- recovery of interrupted completes ----

  /**
   * A session left in complete_in_progress past its claim's lease (the process that claimed it died before
   * recording the supplier's answer) is settled by reading the supplier's GET /orders/{ref}; never by POSTing
   * again. Other sessions are returned as they are (`outcome` null).
   */
  async recoverIfExpired(row: CheckoutSessionEntity): Promise<{ row: CheckoutSessionEntity; outcome: RecoveryOutcome | 'moved' | null }> {
    if (row.status !== 'complete_in_progress' || !claimExpired(row.claimedAt, new Date(), this.leaseMs)) return { row, outcome: null };
    return this.recover(row);
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

  private async recover(stuck: CheckoutSessionEntity): Promise<{ row: CheckoutSessionEntity; outcome: RecoveryOutcome | 'moved' }> {
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
      if (!row || !sameClaim(row, stuck.claimedAt)) return { row: row ?? stuck, view: null };
      const claimed = row.claimedAt ? toPlus8(row.claimedAt) : 'an unknown time';
      if (status) {
        const view = await this.recordPlaced(row, { state: status.state, rawStatus: status.rawStatus, logistics: status.logistics }, m, {
          recovered: true,
          reasoning: `a complete claimed at ${claimed} was interrupted before the supplier's answer was recorded; GET /orders/${row.id} shows the order (state ${status.state}), so it is recorded as placed; nothing was sent again`,
        });
        return { row, view };
      }
      row.status = nextStatus('complete_in_progress', 'refused')!;
      const note = message(
        'order_not_placed',
        'recoverable',
        `a complete claimed at ${claimed} was interrupted and the supplier does not know ref ${row.id} (${failure!.reason}): nothing was ordered; the session is ready to complete again`,
        '$',
      );
      row.messages = [...withoutOutcomeNotes(row.messages), note as unknown as Record<string, unknown>];
      await this.repo.save(row, m);
      await this.budget.release(SPEND_SOURCE, row.id, m);
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

  // ---- approvals ----

  /** An approval of a checkout escalation was resolved: re-evaluate the session (approved: it may be ready). */
  private async onApprovalResolved(a: ApprovalView, decision: 'approved' | 'rejected'): Promise<void> {
    const id = a.subject.session_id;
    if (typeof id !== 'string') return;
    // The approval row is 'executing' while this runs; evaluation treats the one being resolved as decided.
    await this.repo.transaction(async (m) => {
      const row = await this.repo.findForUpdate(id, m);
      if (!row || !isEditable(row.status as CheckoutStatus)) return;
      await this.evaluateInto(row, m, { deciding: { id: a.id, status: decision } });
      await this.repo.save(row, m);
    });
  }

  // ---- helpers ----

  private async load(id: string): Promise<CheckoutSessionEntity> {
    const row = await this.repo.find(id);
    if (!row) throw Errors.notFound(`checkout session ${id}`);
    return row;
  }

  /** Adds or changes lines (matched by item id and unit); quantity 0 removes a line. */
  private mergeLines(current: StoredLine[], changes: CheckoutLineBody[]): { item_id: string; quantity: number; unit: 'EA' | 'BX' }[] {
    const out = current.map((l) => ({ item_id: l.item_id, quantity: l.quantity, unit: l.unit }));
    changes.forEach((c, i) => {
      const parsed = parseSkuId(c.item.id);
      if (!parsed) throw Errors.invalid(`$.line_items[${i}].item.id`, `${c.item.id} is not a sku id <vendor>-supply:<vendor_sku>`);
      if (parsed.role !== 'supply') {
        throw Errors.namespaceMismatch(`$.line_items[${i}].item.id`, `${c.item.id} is a machine id; checkout takes supply ids only`);
      }
      const unit = c.quantity_unit?.unit ?? 'EA';
      const at = out.findIndex((l) => l.item_id === c.item.id && l.unit === unit);
      if (c.quantity === 0) {
        if (at >= 0) out.splice(at, 1);
      } else if (at >= 0) out[at].quantity = c.quantity;
      else out.push({ item_id: c.item.id, quantity: c.quantity, unit });
    });
    return out;
  }

  private namespaceOf(lines: { item_id: string }[], current: string | null): string {
    const spaces = [...new Set(lines.map((l) => parseSkuId(l.item_id)!.namespace))];
    if (spaces.length > 1) {
      throw Errors.namespaceMismatch('$.line_items', `one session holds one supply namespace; got ${spaces.join(', ')}`);
    }
    const ns = spaces[0] ?? current ?? this.registry.defaults().supply;
    if (!ns) throw Errors.namespaceUnsupported('(none)', 'no supply namespace is registered', '$.line_items');
    this.registry.usable(ns, 'supply', undefined, '$.line_items');
    return ns;
  }

  /** Prices each line from the supplier catalog (a catalog outage is 502, never an empty session). */
  private async priceLines(namespace: string, lines: { item_id: string; quantity: number; unit: 'EA' | 'BX' }[]): Promise<StoredLine[]> {
    if (!lines.length) return [];
    const snap = await this.catalog.snapshot(namespace);
    return lines.map((l, i) => {
      const vendorSku = parseSkuId(l.item_id)!.vendorSku;
      const product = snap.bySku.get(vendorSku);
      const base: StoredLine = { id: `li_${i + 1}`, item_id: l.item_id, quantity: l.quantity, unit: l.unit, title: null, unit_price_fen: null, contains: null, increment: null, problem: null };
      if (!product) return { ...base, problem: 'the supplier does not carry this item' };
      const unit = this.catalog.saleUnit(product, l.unit);
      if (!unit) return { ...base, title: product.title, problem: `not sold in unit ${l.unit}` };
      return {
        ...base,
        title: product.title,
        unit_price_fen: unit.price.amount,
        contains: unit.contains ?? null,
        increment: unit.increment,
        problem: product.stock <= 0 ? 'out of stock at the supplier' : null,
      };
    });
  }

  /**
   * Evaluates the session against the current guard rules, budget and approvals, requesting missing approvals.
   * `deciding`: an approval being resolved right now (its row still says pending).
   */
  private async evaluateInto(row: CheckoutSessionEntity, m: EntityManager, opts: { deciding?: { id: string; status: string } } = {}): Promise<void> {
    const lines = row.lineItems;
    const total = sessionTotal(lines.map((l) => ({ quantity: l.quantity, unitPriceFen: l.unit_price_fen })));
    row.totalFen = total;
    const key = sessionKey(lines.map((l) => ({ itemId: l.item_id, unit: l.unit, quantity: l.quantity })), total);
    const state = await this.guards.state(m);
    const rules: GuardRules | null = state.rules;
    const vendor = row.namespace.replace(/-supply$/, '');
    const guards = rules
      ? {
          budget: await this.budget.check(total, new Date(), m, { source: SPEND_SOURCE, ref: row.id }),
          probation: onProbation(rules, vendor),
          hardNoGo: lines.map((l) => hardNoGo(rules, { vendor, skuId: l.item_id })),
        }
      : null;
    const existing = await this.approvals.forSubject(row.id, undefined, m);
    const facts = existing.map((a) => ({
      kind: a.kind,
      status: opts.deciding && a.id === opts.deciding.id ? opts.deciding.status : a.status,
      key: typeof a.subject.key === 'string' ? a.subject.key : null,
      id: a.id,
    }));
    const fulfillment = row.fulfillment as { methods?: { destinations?: unknown[] }[] } | null;
    const hasDestination = !!fulfillment?.methods?.some((x) => Array.isArray(x.destinations) && x.destinations.length > 0);
    const ev = evaluateSession({
      lines: lines.map((l) => ({ itemId: l.item_id, vendor, quantity: l.quantity, unitPriceFen: l.unit_price_fen, increment: l.increment, problem: l.problem })),
      hasDestination,
      guards,
      guardProblem: state.problem,
      sessionKey: key,
      approvals: facts,
    });
    row.status = ev.status;
    row.messages = ev.messages as unknown as Record<string, unknown>[];
    for (const kind of ev.toRequest) {
      const why = kind === 'checkout_budget' ? `over budget (${total} fen)` : `vendor ${vendor} is on probation`;
      await this.approvals.create(
        {
          kind,
          subject: { session_id: row.id, namespace: row.namespace, total_fen: total, key, lines: lines.map((l) => ({ id: l.item_id, quantity: l.quantity, unit: l.unit })) },
          summary: `checkout ${row.id} to ${row.namespace}: ${why}`,
          subjectKey: row.id,
        },
        m,
      );
    }
  }

  private async refuseUnless<T>(session: CheckoutSessionEntity, base: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof DomainError) {
        await this.recordRefusal(session, err.code, err.message);
        throw new DomainError(err.status, err.code, err.message, { severity: err.messages[0].severity, path: err.messages[0].path, body: this.sessionBody(session, base) });
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

  private stateConflict(row: CheckoutSessionEntity, base: string): DomainError {
    const code = row.status === 'complete_in_progress' ? 'complete_in_progress' : 'invalid_state';
    return new DomainError(409, code, `checkout session ${row.id} is ${row.status}`, { severity: 'requires_buyer_review', body: this.sessionBody(row, base) });
  }

  private sessionBody(row: CheckoutSessionEntity, base: string): Record<string, unknown> {
    const { ucp: _u, messages: _m, ...rest } = this.render(row, base) as Record<string, unknown>;
    void _u;
    void _m;
    return rest;
  }

  /** The session as the API shows it (UCP checkout shape, decisions.md section 9). */
  render(row: CheckoutSessionEntity, base: string): unknown {
    const lineItems = row.lineItems.map((l) => {
      const amount = l.unit_price_fen === null ? null : l.unit_price_fen * l.quantity;
      return {
        id: l.id,
        item: { id: l.item_id, title: l.title, ...(l.unit_price_fen === null ? {} : { price: { amount: l.unit_price_fen, currency: 'CNY' } }), quantity_unit: l.unit },
        quantity: l.quantity,
        quantity_unit: { unit: l.unit, ...(l.contains ? { contains: l.contains } : {}) },
        totals: amount === null ? [] : [{ type: 'subtotal', amount }, { type: 'total', amount }],
      };
    });
    const view: Record<string, unknown> = {
      id: row.id,
      status: row.status,
      currency: 'CNY',
      namespace: row.namespace,
      line_items: lineItems,
      fulfillment: row.fulfillment ?? { methods: [] },
      totals: [
        { type: 'subtotal', amount: row.totalFen },
        { type: 'total', amount: row.totalFen },
      ],
      links: [{ type: 'self', url: `${base}/ucp/v1/checkout-sessions/${encodeURIComponent(row.id)}` }],
      created_at: toPlus8(row.createdAt ?? new Date()),
      updated_at: toPlus8(row.updatedAt ?? new Date()),
    };
    if (row.status === 'requires_escalation') view.continue_url = `${base}/ucp/v1/approvals?status=pending`;
    if (row.status === 'completed') {
      view.order = { id: row.id, label: `PO ${row.id}`, permalink_url: `${base}/ucp/v1/orders/${encodeURIComponent(row.id)}` };
    }
    const body = ok({ ...view, messages: row.messages as unknown as UcpMessage[] }, { capabilities: CAPS }) as unknown as Record<string, unknown> & { ucp: Record<string, unknown> };
    body.ucp.payment_handlers = { supplier_account: [{ id: 'supplier_account', version: '2026-08-25', config: { type: 'on_account' } }] };
    return body;
  }
}

/** Messages of a previous supplier outcome, replaced by the next one. */
function withoutOutcomeNotes(messages: Record<string, unknown>[]): Record<string, unknown>[] {
  return messages.filter((x) => x.code !== 'supplier_rejected' && x.code !== 'order_uncertain' && x.code !== 'order_not_placed');
}
