import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Errors } from '../common/errors';
import { toPlus8, toPlus8OrNull } from '../common/time';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { AfterCommit } from './after-commit';
import { ApprovalEntity } from './approval.entity';
import { ApprovalKind, publicStatus, Resolver, resolverRefusal, storedStatusesFor } from './approval.rules';
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

export interface ApprovalHandler {
  /** Runs before the approval is marked approved; a throw leaves it pending and answers the error. */
  onApproved(approval: ApprovalView, manager?: EntityManager): Promise<void>;
  onRejected?(approval: ApprovalView, manager?: EntityManager): Promise<void>;
}

export interface NewApproval {
  kind: ApprovalKind;
  subject: Record<string, unknown>;
  summary: string;
  location?: string;
  /** The id the approval is about (session, slot, run); defaults to subject.id / subject.session_id / subject.run_id. */
  subjectKey?: string;
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
  private readonly handlers = new Map<string, ApprovalHandler>();
  private readonly afterCommit: AfterCommit;

  constructor(
    private readonly repo: ApprovalsRepository,
    private readonly events: EventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() ds: DataSource,
  ) {
    this.afterCommit = new AfterCommit(ds);
  }

  registerHandler(kind: ApprovalKind, handler: ApprovalHandler): void {
    this.handlers.set(kind, handler);
  }

  async create(input: NewApproval, manager?: EntityManager): Promise<ApprovalView> {
    const s = input.subject;
    const key = input.subjectKey ?? [s.id, s.session_id, s.slot_id, s.run_id].find((v): v is string => typeof v === 'string') ?? null;
    const row = await this.repo.insert(
      { kind: input.kind, status: 'pending', subject: input.subject, subjectKey: key, summary: input.summary, location: input.location ?? null },
      manager,
    );
    const view = toApprovalView(row);
    const event = await this.events.record(
      {
        kind: 'approval.requested',
        summary: `approval ${input.kind} requested: ${input.summary}`,
        reasoning: `an owner approval is needed before this proceeds (approval ${row.id})`,
        location: input.location ?? null,
        data: { approval_id: row.id, kind: input.kind, subject: input.subject },
      },
      manager,
    );
    // Inside a caller's transaction the event commits with the approval: it is fanned out once that transaction
    // commits, and never if it rolls back (callers need not publish it). Without a manager `record` published it.
    if (manager) this.afterCommit.defer(manager, () => void this.events.publish(event));
    return view;
  }

  async list(q: { status?: string; kind?: string; limit?: number }): Promise<ApprovalView[]> {
    const rows = await this.repo.list({ statuses: storedStatusesFor(q.status ?? 'pending'), kind: q.kind, limit: q.limit ?? 200 });
    return rows.map(toApprovalView);
  }

  async get(id: string): Promise<ApprovalView> {
    const row = isUuid(id) ? await this.repo.find(id) : null;
    if (!row) throw Errors.notFound(`approval ${id}`);
    return toApprovalView(row);
  }

  /** Approvals about one subject (newest first), e.g. a session's checkout approvals. */
  async forSubject(subjectKey: string, kind?: string, manager?: EntityManager): Promise<ApprovalView[]> {
    return (await this.repo.bySubject(subjectKey, kind, manager)).map(toApprovalView);
  }

  async findPending(kind: ApprovalKind, subjectKey: string, manager?: EntityManager): Promise<ApprovalView | null> {
    return (await this.forSubject(subjectKey, kind, manager)).find((a) => a.status === 'pending') ?? null;
  }

  async resolve(id: string, approved: boolean, resolverIn?: Resolver): Promise<ApprovalView> {
    const resolver: Resolver = resolverIn ?? { channel: 'dashboard' };
    const refusal = resolverRefusal(resolver, this.config.adminChats);
    const row = isUuid(id) ? await this.repo.find(id) : null;
    if (!row) throw Errors.notFound(`approval ${id}`);
    if (refusal) {
      await this.events.record({
        kind: 'approval.resolved',
        summary: `approval ${id} resolution refused`,
        reasoning: `${refusal}; nothing changed`,
        location: row.location,
        data: { approval_id: id, refused: true, channel: resolver.channel },
      });
      throw Errors.forbidden(refusal);
    }
    if (row.status !== 'pending') {
      throw Errors.conflict('already_resolved', `approval ${id} is ${publicStatus(row.status)}; it cannot be resolved again`);
    }
    // Claim in one statement: a second resolver, on this or another instance, gets 409.
    const claimed = await this.repo.transition(id, 'pending', 'executing');
    if (!claimed) throw Errors.conflict('already_resolved', `approval ${id} is already being resolved or was resolved`);
    const view = toApprovalView(claimed);
    const handler = this.handlers.get(claimed.kind);
    try {
      if (approved) await handler?.onApproved(view);
      else await handler?.onRejected?.(view);
    } catch (err) {
      await this.repo.transition(id, 'executing', 'pending').catch((e: Error) => this.logger.error(`approval ${id} stuck executing: ${e.message}`));
      await this.events.record({
        kind: 'approval.resolved',
        summary: `approval ${id} not resolved: its action failed`,
        reasoning: `${(err as Error).message}; the approval stays pending`,
        location: claimed.location,
        data: { approval_id: id, kind: claimed.kind, approved, failed: true },
      });
      throw err;
    }
    const stored = { channel: resolver.channel, ...(resolver.chat_id ? { chat_id: resolver.chat_id } : {}), ...(resolver.sender_id ? { sender_id: resolver.sender_id } : {}) };
    const done = await this.repo.transition(id, 'executing', approved ? 'approved' : 'rejected', { resolvedAt: new Date(), resolver: stored });
    if (!done) throw Errors.conflict('already_resolved', `approval ${id} changed while it was being resolved`);
    await this.events.record({
      kind: 'approval.resolved',
      summary: `approval ${claimed.kind} ${approved ? 'approved' : 'rejected'}: ${claimed.summary}`,
      reasoning: `resolved on the ${resolver.channel} channel${resolver.sender_id ? ` by ${resolver.sender_id}` : ''}`,
      location: claimed.location,
      data: { approval_id: id, kind: claimed.kind, approved, subject: claimed.subject },
    });
    return toApprovalView(done);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(s: string): boolean {
  return UUID.test(s);
}
