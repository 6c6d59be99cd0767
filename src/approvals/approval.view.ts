/** The UCP JSON of an approval, rendered at the edge from the record (its declared type is the response class). */
import { toPlus8, toPlus8OrNull } from '../common/time';
import type { Approval } from './approval';
import type { ApprovalView } from './approvals.responses';

export function renderApproval(a: Approval): ApprovalView {
  const v: ApprovalView = {
    id: a.id,
    kind: a.kind,
    status: a.status,
    subject: a.subject,
    summary: a.summary,
    requested_at: toPlus8(a.requestedAt),
    resolved_at: toPlus8OrNull(a.resolvedAt),
    resolver: a.resolver,
    requested_by: a.requestedBy,
  };
  if (a.location) v.location = a.location;
  return v;
}
