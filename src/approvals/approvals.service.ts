import { currentRequester } from '../common/auth/requester.context';
import { readRequester } from '../common/auth/requester.rules';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ReadOutcome, RecoveryTally } from '../claims/claim.rules';
import { MoneyClaims } from '../claims/money-claims.service';
import type { Caller } from '../common/auth/credential';
import { Errors } from '../common/errors/errors';
import { toPlus8 } from '../common/time';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { ApprovalEntity } from './approval.entity';
import { Approval, approvalOf } from './approval';
import { ApprovalKind, publicStatus, RESOLUTION_REFUSED, Resolver, resolverRefusal, resolverShownTo, storedStatusesFor, withdrawRefusal } from './approval.rules';
import { ApprovalSubjects, readSubject, subjectKeyOf } from './approval-subjects';
import { ApprovalsRepository } from './approvals.repository';
import type { ApprovalHandler, ExecutionRead, RecordEffect, StoredApprovalHandler } from './approval-handler.types';

export type { ApprovalHandler, ExecutionRead, RecordEffect } from './approval-handler.types';
export type { Approval } from './approval';

/** A new approval: its kind's typed subject (approval-subjects.ts), which also names what it is about. */
export interface NewApproval<K extends ApprovalKind = ApprovalKind> {
  /** Chosen beforehand when the answer that asks for the approval names it (a checkout's message); generated otherwise. */
  id?: string;
  kind: K;
  subject: ApprovalSubjects[K];
  summary: string;
  location?: string;
}

/**
 * Owner approvals. Capabilities create them and register a handler per kind; resolving runs the handler
 * (approving a parked price change executes it) and records `approval.resolved`.
 */
@Injectable()
export class ApprovalsService {
  private readonly logger = new Logger(ApprovalsService.name);
  private readonly handlers = new Map<string, StoredApprovalHandler>();

  constructor(
    private readonly repo: ApprovalsRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly claims: MoneyClaims,
  ) {}

  registerHandler<K extends ApprovalKind>(kind: K, handler: ApprovalHandler<ApprovalSubjects[K]>): void {
    const subjectOf = (a: Approval): ApprovalSubjects[K] => {
      const subject = readSubject(kind, a.subject);
      if (!subject) throw Errors.conflict('invalid_state', `approval ${a.id} does not name what its ${kind} is about`);
      return subject;
    };
    const { onRejected, recover } = handler;
    this.handlers.set(kind, {
      onApproved: (a) => handler.onApproved(a, subjectOf(a)),
      ...(onRejected ? { onRejected: (a: Approval) => onRejected.call(handler, a, subjectOf(a)) } : {}),
      ...(recover ? { recover: (a: Approval, approved: boolean) => recover.call(handler, a, subjectOf(a), approved) } : {}),
    });
  }

  async create<K extends ApprovalKind>(input: NewApproval<K>): Promise<Approval> {
    const key = subjectKeyOf(input.kind, input.subject);
    const subject = input.subject as unknown as Record<string, unknown>;
    // The approval and its event in one transaction (the caller's, when there is one); published once it commits.
    return this.tx.run(async () => {
      const requestedBy = currentRequester() as unknown as Record<string, unknown>;
      const row = await this.repo.insert({ ...(input.id ? { id: input.id } : {}), kind: input.kind, status: 'pending', subject, subjectKey: key, summary: input.summary, location: input.location ?? null, requestedBy });
      await this.events.record({
        kind: 'approval.requested',
        summary: `approval ${input.kind} requested: ${input.summary}`,
        reasoning: `an owner approval is needed before this proceeds (approval ${row.id})`,
        location: input.location ?? null,
        data: { approval_id: row.id, kind: input.kind, subject },
      });
      return approvalOf(row);
    });
  }

  /** `caller`: who reads (the admins' chat and sender ids are shown to the approver only, see resolverShownTo). */
  async list(q: { status?: string; kind?: string; limit?: number }, caller: Caller | null = null): Promise<Approval[]> {
    const rows = await this.repo.list({ statuses: storedStatusesFor(q.status ?? 'pending'), kind: q.kind, limit: q.limit ?? 200 });
    return rows.map((r) => this.shownTo(approvalOf(r), caller));
  }

  async get(id: string, caller: Caller | null = null): Promise<Approval> {
    const row = isUuid(id) ? await this.repo.find(id) : null;
    if (!row) throw Errors.notFound(`approval ${id}`);
    return this.shownTo(approvalOf(await this.recoverIfExpired(row)), caller);
  }

  /** The record as `caller` may read it (the resolver's chat ids only to the approver when separation is on). */
  private shownTo(a: Approval, caller: Caller | null): Approval {
    return { ...a, resolver: resolverShownTo(a.resolver, caller, this.config.approverToken !== null) };
  }

  /** Approvals about one subject (newest first), e.g. a session's checkout approvals. */
  async forSubject(subjectKey: string, kind?: string): Promise<Approval[]> {
    return (await this.repo.bySubject(subjectKey, kind)).map(approvalOf);
  }

  async findPending(kind: ApprovalKind, subjectKey: string): Promise<Approval | null> {
    return (await this.forSubject(subjectKey, kind)).find((a) => a.status === 'pending') ?? null;
  }

  /**
   * Closes a pending approval whose subject went away (a cancelled run, issue 25), inside the caller's transaction:
   * nobody can approve it afterwards. It ends `rejected` (the spec's states) with `resolver.channel: "withdrawn"`, as a
   * requester's withdrawal does, but runs no rejection handler (the caller already changed the subject). False when it
   * is not pending (being resolved, or resolved): the caller refuses.
   */
  async withdrawForGoneSubject(id: string, why: string): Promise<boolean> {
    const moved = await this.repo.transition(id, 'pending', 'rejected', { resolvedAt: new Date(), resolver: { channel: 'withdrawn', credential: 'service', reason: why } });
    if (!moved) return false;
    await this.events.record({
      kind: 'approval.resolved',
      summary: `approval ${moved.kind} withdrawn: ${moved.summary}`,
      reasoning: why,
      location: moved.location,
      data: { approval_id: id, kind: moved.kind, approved: false, withdrawn: true, subject: moved.subject },
    });
    return true;
  }

  /** `caller` is who the request was authenticated as (checked by AuthGuard); `sender_id` is kept as given. */
  async resolve(id: string, approved: boolean, resolverIn: Resolver | undefined, caller: Caller): Promise<Approval> {
    const resolver: Resolver = resolverIn ?? { channel: 'dashboard' };
    const separation = this.config.approverToken !== null;
    const refusal = resolverRefusal(resolver, caller, { adminChats: this.config.adminChats, separation });
    const credential = caller.credential;
    const found = isUuid(id) ? await this.repo.find(id) : null;
    if (!found) throw Errors.notFound(`approval ${id}`);
    // An execution interrupted past its lease is settled first (pending again, or resolved).
    const row = await this.recoverIfExpired(found);
    if (refusal) {
      // The event (read by every token holder) and the answer say the rule, never which chat or sender was unknown.
      this.logger.warn(`approval ${id}: resolution refused: ${refusal}`);
      await this.events.record({
        kind: 'approval.resolved',
        summary: `approval ${id} resolution refused`,
        reasoning: `${RESOLUTION_REFUSED}; nothing changed`,
        location: row.location,
        data: { approval_id: id, refused: true, channel: resolver.channel, credential },
      });
      throw Errors.forbidden(RESOLUTION_REFUSED);
    }
    if (row.status !== 'pending') {
      throw Errors.conflict('already_resolved', `approval ${id} is ${publicStatus(row.status)}; it cannot be resolved again`);
    }
    const stored = { channel: resolver.channel, credential, ...(resolver.chat_id ? { chat_id: resolver.chat_id } : {}), ...(resolver.sender_id ? { sender_id: resolver.sender_id } : {}) };
    return this.decide(id, approved, stored, {
      verb: approved ? 'approved' : 'rejected',
      reasoning: `resolved on the ${resolver.channel} channel with the ${credential} credential${resolver.sender_id && !separation ? ` (sender_id given: ${resolver.sender_id}, not verified)` : ''}`,
    }, caller);
  }

  /**
   * The requester takes back its own pending request (issue 29: a mistaken price change blocked the correct one). It
   * ends `rejected` (the spec's states are pending, approved, rejected) with `resolver.channel: "withdrawn"` and the
   * reason, and the kind's rejection runs (a parked price unlocks, a run is rejected, a session must change its lines
   * to ask again). It needs no approver: withdrawing never lets anything happen.
   */
  async withdraw(id: string, reason: string, caller: Caller): Promise<Approval> {
    const credential = caller.credential;
    const found = isUuid(id) ? await this.repo.find(id) : null;
    if (!found) throw Errors.notFound(`approval ${id}`);
    const row = await this.recoverIfExpired(found);
    if (row.status !== 'pending') {
      throw Errors.conflict('already_resolved', `approval ${id} is ${publicStatus(row.status)}; only a pending request can be withdrawn`);
    }
    const refusal = withdrawRefusal(readRequester(row.requestedBy), caller);
    if (refusal) throw Errors.forbidden(refusal);
    return this.decide(id, false, { channel: 'withdrawn', credential, reason }, { verb: 'withdrawn', reasoning: `withdrawn by its requester with the ${credential} credential: ${reason}`, withdrawn: true }, caller);
  }

  /**
   * Claims the decision in one statement, with a lease: a second resolver, on this or another instance, gets 409; a
   * process that dies while executing leaves a claim that ApprovalRecoveryService settles. Then runs the kind's action
   * and records the decision with its event.
   */
  private async decide(id: string, approved: boolean, stored: Record<string, unknown>, words: { verb: string; reasoning: string; withdrawn?: boolean }, caller: Caller | null): Promise<Approval> {
    // The event is read by every token holder: with separation on, it names no admin (the approval record does, to the approver).
    const separationOn = this.config.approverToken !== null;
    const claimed = await this.repo.claimExecution(id, { approved, resolver: stored });
    if (!claimed) throw Errors.conflict('already_resolved', `approval ${id} is already being resolved or was resolved`);
    const approval = approvalOf(claimed);
    const handler = this.handlers.get(claimed.kind);
    let record: RecordEffect | undefined;
    try {
      record = approved ? await handler?.onApproved(approval) : await handler?.onRejected?.(approval);
    } catch (err) {
      await this.tx
        .run(async () => {
          await this.repo.transition(id, 'executing', 'pending');
          await this.events.record({
            kind: 'approval.resolved',
            summary: `approval ${id} not resolved: its action failed`,
            reasoning: `${(err as Error).message}; the approval stays pending`,
            location: claimed.location,
            data: { approval_id: id, kind: claimed.kind, approved, failed: true },
          });
        })
        .catch((e: Error) => this.logger.error(`approval ${id} stuck executing: ${e.message}`));
      throw err;
    }
    // The effect and the outcome in one transaction. When it fails, the action already ran (a partner may have
    // applied it): the approval stays `executing`, and the lease's recovery reads whether the effect took place.
    const done = await this.tx.run(async () => {
      await record?.();
      const moved = await this.repo.transition(id, 'executing', approved ? 'approved' : 'rejected', { resolvedAt: new Date(), resolver: stored });
      if (!moved) throw Errors.conflict('already_resolved', `approval ${id} changed while it was being resolved`);
      await this.events.record({
        kind: 'approval.resolved',
        summary: `approval ${claimed.kind} ${words.verb}: ${claimed.summary}`,
        reasoning: words.reasoning,
        location: claimed.location,
        data: { approval_id: id, kind: claimed.kind, approved, subject: claimed.subject, resolver: resolverShownTo(stored, null, separationOn), ...(words.withdrawn ? { withdrawn: true } : {}) },
      });
      return moved;
    });
    return this.shownTo(approvalOf(done), caller);
  }

  // ---- recovery of interrupted executions (the money-claims core's claim, lease and read) ----

  /** An approval left `executing` past its lease is settled; any other is returned as it is. */
  async recoverIfExpired(row: ApprovalEntity): Promise<ApprovalEntity> {
    if (row.status !== 'executing' || !this.claims.expired(row.claimedAt)) return row;
    await this.recoverExecution(row);
    return (await this.repo.find(row.id)) ?? row;
  }

  /** Scheduled: every approval left `executing` past its lease (database clock), oldest claim first. */
  async recoverExpired(limit = 50): Promise<RecoveryTally> {
    return this.claims.recoverAll(await this.repo.expiredExecuting(this.claims.leaseMs, limit), (row) => this.recoverExecution(row));
  }

  /**
   * Reads whether the interrupted execution took effect (the kind's handler reads its partner or subject; it never
   * calls a partner again): done → resolved with the stored decision; not done → pending again; unknown → left.
   */
  private async recoverExecution(row: ApprovalEntity): Promise<ReadOutcome | 'moved'> {
    const decision = row.execution;
    const approval = approvalOf(row);
    const handler = this.handlers.get(row.kind);
    let read: ExecutionRead;
    if (!decision) read = { outcome: 'not_placed' }; // claimed before decisions were kept: the owner decides again
    else if (!handler?.recover) read = { outcome: handler ? 'not_placed' : 'placed' };
    else {
      try {
        read = await handler.recover(approval, decision.approved);
      } catch (err) {
        this.logger.warn(`approval ${row.id}: interrupted execution not settled (${(err as Error).message}); retried later`);
        read = { outcome: 'unknown' };
      }
    }
    const outcome = read.outcome;
    if (outcome === 'unknown') return outcome;
    const claimed = row.claimedAt ? toPlus8(row.claimedAt) : 'an unknown time';
    if (outcome === 'placed' && decision) {
      const record = read.outcome === 'placed' ? read.record : undefined;
      try {
        return await this.tx.run(async (): Promise<ReadOutcome | 'moved'> => {
          const done = await this.repo.transition(row.id, 'executing', decision.approved ? 'approved' : 'rejected', { resolvedAt: new Date(), resolver: decision.resolver });
          if (!done) return 'moved';
          // The effect read from the partner is recorded with the outcome (one transaction, as when executed).
          await record?.();
          await this.events.record({
            kind: 'approval.resolved',
            summary: `approval ${row.kind} ${decision.approved ? 'approved' : 'rejected'}: ${row.summary}`,
            reasoning: `its execution, claimed at ${claimed}, was interrupted; reading its effect (the service's own record first, then the partner) showed it took place, so the decision is recorded; nothing was executed again`,
            location: row.location,
            data: { approval_id: row.id, kind: row.kind, approved: decision.approved, subject: row.subject, resolver: decision.resolver, recovered: true },
          });
          return outcome;
        });
      } catch (err) {
        // Nothing of it committed: still executing, read again on the next pass.
        this.logger.warn(`approval ${row.id}: recovered execution not recorded (${(err as Error).message}); retried later`);
        return 'unknown';
      }
    }
    return this.tx.run(async () => {
      if (!(await this.repo.transition(row.id, 'executing', 'pending'))) return 'moved';
      await this.events.record({
        kind: 'approval.resolved',
        summary: `approval ${row.id} not resolved: its interrupted execution did not take effect`,
        reasoning: `its execution, claimed at ${claimed}, was interrupted and its effect is not there; the approval is pending again for the owner to resolve`,
        location: row.location,
        data: { approval_id: row.id, kind: row.kind, approved: decision?.approved ?? null, failed: true, recovered: true },
      });
      return 'not_placed';
    });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(s: string): boolean {
  return UUID.test(s);
}
