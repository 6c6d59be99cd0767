/** The approval record as the service knows it: what ApprovalsService returns and what kinds' handlers receive. */
import type { Credential } from '../common/auth/credential';
import type { ApprovalEntity } from './approval.entity';
import { ApprovalKind, ApprovalStatus, publicStatus } from './approval.rules';
import { readRequester, type Requester } from '../common/auth/requester.rules';

/** Who resolved it, as stored: the channel, the resolving credential, the chat ids given, a withdrawal's reason. */
export type StoredResolver = {
  channel: 'chat_tool' | 'dashboard' | 'withdrawn';
  credential?: Credential;
  chat_id?: string;
  sender_id?: string;
  reason?: string;
};

export interface Approval {
  id: string;
  kind: ApprovalKind;
  /** `executing` (a decision whose action runs) reads as pending. */
  status: ApprovalStatus;
  /** The kind's subject as stored; read it typed with `readSubject(kind, subject)`. */
  subject: Record<string, unknown>;
  summary: string;
  location: string | null;
  requestedAt: Date;
  resolvedAt: Date | null;
  resolver: StoredResolver | null;
  requestedBy: Requester | null;
}

/** A stored row as a record (its kind and resolver were written by the service, from the closed lists). */
export function approvalOf(row: ApprovalEntity): Approval {
  return {
    id: row.id,
    kind: row.kind as ApprovalKind,
    status: publicStatus(row.status),
    subject: row.subject,
    summary: row.summary,
    location: row.location,
    requestedAt: row.requestedAt,
    resolvedAt: row.resolvedAt,
    resolver: row.resolver as StoredResolver | null,
    requestedBy: readRequester(row.requestedBy),
  };
}
