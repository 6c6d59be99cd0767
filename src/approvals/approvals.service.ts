import { Inject, Injectable, Logger } from '@nestjs/common';
import { ReadOutcome, RecoveryTally } from '../claims/claim.rules';
import { MoneyClaims } from '../claims/money-claims.service';
import type { Credential } from '../common/auth/credential';
import { Errors } from '../common/errors';
import { toPlus8, toPlus8OrNull } from '../common/time';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { ApprovalEntity } from './approval.entity';
import { ApprovalKind, publicStatus, Resolver, resolverRefusal, storedStatusesFor } from './approval.rules';
import { ApprovalSubjects, readSubject, subjectKeyOf } from './approval-subjects';
import { ApprovalsRepository } from './approvals.repository';

export interface ApprovalView {
  id: string;
  kind: string;
  status: string;
  subject: Record<string, unknown>;
  summary: string;
  requested_at: string;
  resolved_at: string | null;
  resolver: Record<string, unknown> | null;
  location?: string;
}

/** What a capability does when one of its approvals is resolved; `subject` is the kind's typed subject. */
export interface ApprovalHandler<S> {
  /** Runs before the approval is marked approved; a throw leaves it pending and answers the error. */
  onApproved(approval: ApprovalView, subject: S): Promise<void>;
  onRejected?(approval: ApprovalView, subject: S): Promise<void>;
  /**
   * An execution of this decision was interrupted (the process died while the approval was `executing`): find out,
   * by READING the partner or the subject's state, whether its effect took place, finishing the local record of it
   * when it did: `placed` (done: the approval is resolved), `not_placed` (nothing happened: pending again, for the
   * owner to resolve again) or `unknown` (cannot tell now: left for the next attempt). Never executes a partner
   * call again. Without it, an interrupted execution goes back to pending.
   */
  recover?(approval: ApprovalView, subject: S, approved: boolean): Promise<ReadOutcome>;
}

/** A registered handler, with the subject read from the stored row. */
interface StoredApprovalHandler {
  onApproved(approval: ApprovalView): Promise<void>;
  onRejected?(approval: ApprovalView): Promise<void>;
  recover?(approval: ApprovalView, approved: boolean): Promise<ReadOutcome>;
}

/** A new approval: its kind's typed subject (approval-subjects.ts), which also names what it is about. */
export interface NewApproval<K extends ApprovalKind = ApprovalKind> {
  kind: K;
  subject: ApprovalSubjects[K];
  summary: string;
  location?: string;
}

export function toApprovalView(a: ApprovalEntity): ApprovalView {
  const v: ApprovalView = {
    id: a.id,
    kind: a.kind,
    status: publicStatus(a.status),
    subject: a.subject,
    summary: a.summary,
    requested_at: toPlus8(a.requestedAt),
    resolved_at: toPlus8OrNull(a.resolvedAt),
    resolver: a.resolver,
  };
  if (a.location) v.location = a.location;
  return v;
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
    const subjectOf = (a: ApprovalView): ApprovalSubjects[K] => {
      const subject = readSubject(kind, a.subject);
      if (!subject) throw Errors.conflict('invalid_state', `approval ${a.id} does not name what its ${kind} is about`);
      return subject;
    };
    const { onRejected, recover } = handler;
    this.handlers.set(kind, {
      onApproved: (a) => handler.onApproved(a, subjectOf(a)),
      ...(onRejected ? { onRejected: (a: ApprovalView) => onRejected.call(handler, a, subjectOf(a)) } : {}),
      ...(recover ? { recover: (a: ApprovalView, approved: boolean) => recover.call(handler, a, subjectOf(a), approved) } : {}),
    });
  }

  async create<K extends ApprovalKind>(input: NewApproval<K>): Promise<ApprovalView> {
    const key = subjectKeyOf(input.kind, input.subject);
    const subject = input.subject as unknown as Record<string, unknown>;
    // The approval and its event in one transaction (the caller's, when there is one); published once it commits.
    return this.tx.run(async () => {
      const row = await this.repo.insert({ kind: input.kind, status: 'pending', subject, subjectKey: key, summary: input.summary, location: input.location ?? null });
      await this.events.record({
        kind: 'approval.requested',
        summary: `approval ${input.kind} requested: ${input.summary}`,
        reasoning: `an owner approval is needed before this proceeds (approval ${row.id})`,
        location: input.location ?? null,
        data: { approval_id: row.id, kind: input.kind, subject },
      });
      return toApprovalView(row);
    });
  }

  async list(q: { status?: string; kind?: string; limit?: number }): Promise<ApprovalView[]> {
    const rows = await this.repo.list({ statuses: storedStatusesFor(q.status ?? 'pending'), kind: q.kind, limit: q.limit ?? 200 });
    return rows.map(toApprovalView);
  }

  async get(id: string): Promise<ApprovalView> {
    const row = isUuid(id) ? await this.repo.find(id) : null;
    if (!row) throw Errors.notFound(`approval ${id}`);
    return toApprovalView(await this.recoverIfExpired(row));
  }

  /** Approvals about one subject (newest first), e.g. a session's checkout approvals. */
  async forSubject(subjectKey: string, kind?: string): Promise<ApprovalView[]> {
    return (await this.repo.bySubject(subjectKey, kind)).map(toApprovalView);
  }

  async findPending(kind: ApprovalKind, subjectKey: string): Promise<ApprovalView | null> {
    return (await this.forSubject(subjectKey, kind)).find((a) => a.status === 'pending') ?? null;
  }

  /**
   * Withdraws a pending approval whose subject went away (a cancelled run), inside the caller's transaction: nobody
   * can approve it afterwards. False when it is not pending (being resolved, or resolved): the caller refuses.
   */
  async withdraw(id: string, why: string): Promise<boolean> {
    const moved = await this.repo.transition(id, 'pending', 'withdrawn', { resolvedAt: new Date() });
    if (!moved) return false;
    await this.events.record({
      kind: 'approval.resolved',
      summary: `approval ${moved.kind} withdrawn: ${moved.summary}`,
      reasoning: why,
      location: moved.location,
      data: { approval_id: id, kind: moved.kind, withdrawn: true, subject: moved.subject },
    });
    return true;
  }

  /** `credential` is the one the request was authenticated with (checked by AuthGuard); `sender_id` is kept as given. */
  async resolve(id: string, approved: boolean, resolverIn: Resolver | undefined, credential: Credential): Promise<ApprovalView> {
    const resolver: Resolver = resolverIn ?? { channel: 'dashboard' };
    const refusal = resolverRefusal(resolver, this.config.adminChats);
    const found = isUuid(id) ? await this.repo.find(id) : null;
    if (!found) throw Errors.notFound(`approval ${id}`);
    // An execution interrupted past its lease is settled first (pending again, or resolved).
    const row = await this.recoverIfExpired(found);
    if (refusal) {
      await this.events.record({
        kind: 'approval.resolved',
        summary: `approval ${id} resolution refused`,
        reasoning: `${refusal}; nothing changed`,
        location: row.location,
        data: { approval_id: id, refused: true, channel: resolver.channel, credential },
      });
      throw Errors.forbidden(refusal);
    }
    if (row.status !== 'pending') {
      throw Errors.conflict('already_resolved', `approval ${id} is ${publicStatus(row.status)}; it cannot be resolved again`);
    }
    const stored = { channel: resolver.channel, credential, ...(resolver.chat_id ? { chat_id: resolver.chat_id } : {}), ...(resolver.sender_id ? { sender_id: resolver.sender_id } : {}) };
    // Claim in one statement, with a lease and the decision: a second resolver, on this or another instance, gets
    // 409; a process that dies while executing leaves a claim that ApprovalRecoveryService settles.
    const claimed = await this.repo.claimExecution(id, { approved, resolver: stored });
    if (!claimed) throw Errors.conflict('already_resolved', `approval ${id} is already being resolved or was resolved`);
    const view = toApprovalView(claimed);
    const handler = this.handlers.get(claimed.kind);
    try {
      if (approved) await handler?.onApproved(view);
      else await handler?.onRejected?.(view);
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
    const done = await this.tx.run(async () => {
      const moved = await this.repo.transition(id, 'executing', approved ? 'approved' : 'rejected', { resolvedAt: new Date(), resolver: stored });
      if (!moved) return null;
      await this.events.record({
        kind: 'approval.resolved',
        summary: `approval ${claimed.kind} ${approved ? 'approved' : 'rejected'}: ${claimed.summary}`,
        reasoning: `resolved on the ${resolver.channel} channel with the ${credential} credential${resolver.sender_id ? ` (sender_id given: ${resolver.sender_id}, not verified)` : ''}`,
        location: claimed.location,
        data: { approval_id: id, kind: claimed.kind, approved, subject: claimed.subject, resolver: stored },
      });
      return moved;
    });
    if (!done) throw Errors.conflict('already_resolved', `approval ${id} changed while it was being resolved`);
    return toApprovalView(done);
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
    const view = toApprovalView(row);
    const handler = this.handlers.get(row.kind);
    let outcome: ReadOutcome;
    if (!decision) outcome = 'not_placed'; // claimed before decisions were kept: the owner decides again
    else if (!handler?.recover) outcome = handler ? 'not_placed' : 'placed';
    else {
      try {
        outcome = await handler.recover(view, decision.approved);
      } catch (err) {
        this.logger.warn(`approval ${row.id}: interrupted execution not settled (${(err as Error).message}); retried later`);
        outcome = 'unknown';
      }
    }
    if (outcome === 'unknown') return outcome;
    const claimed = row.claimedAt ? toPlus8(row.claimedAt) : 'an unknown time';
    if (outcome === 'placed' && decision) {
      return this.tx.run(async () => {
        const done = await this.repo.transition(row.id, 'executing', decision.approved ? 'approved' : 'rejected', { resolvedAt: new Date(), resolver: decision.resolver });
        if (!done) return 'moved';
        await this.events.record({
          kind: 'approval.resolved',
          summary: `approval ${row.kind} ${decision.approved ? 'approved' : 'rejected'}: ${row.summary}`,
          reasoning: `its execution, claimed at ${claimed}, was interrupted; reading its effect showed it took place, so the decision is recorded; nothing was executed again`,
          location: row.location,
          data: { approval_id: row.id, kind: row.kind, approved: decision.approved, subject: row.subject, resolver: decision.resolver, recovered: true },
        });
        return outcome;
      });
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
