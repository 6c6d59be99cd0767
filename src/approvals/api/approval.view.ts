/** The UCP JSON of an approval, rendered at the edge from the record (its declared type is the response class). */
import { toPlus8, toPlus8OrNull } from '../../common/time';
import type { Approval } from '../approval';
import { approvalShows, ApprovalShows } from '../approval-shows.rules';
import type { ApprovalShowsView, ApprovalView } from './approvals.responses';

export function renderApproval(a: Approval): ApprovalView {
  const v: ApprovalView = {
    id: a.id,
    kind: a.kind,
    status: a.status,
    subject: a.subject,
    summary: a.summary,
    shows: renderShows(approvalShows(a.kind, a.subject)),
    requested_at: toPlus8(a.requestedAt),
    resolved_at: toPlus8OrNull(a.resolvedAt),
    resolver: a.resolver,
    requested_by: a.requestedBy,
  };
  if (a.location) v.location = a.location;
  return v;
}

function renderShows(s: ApprovalShows): ApprovalShowsView {
  const v: ApprovalShowsView = {
    headline: s.headline,
    lines: s.lines.map((l) => ({ ...(l.machine ? { machine: l.machine } : {}), good: l.good, item_id: l.itemId, units: l.units, quantity: l.quantity, unit: l.unit, amount_fen: l.amountFen, text: l.text })),
    total_fen: s.totalFen,
  };
  if (s.supplier) v.supplier = s.supplier;
  if (s.destination) v.destination = s.destination;
  if (s.price) v.price = { machine: s.price.machine, good: s.price.good, item_id: s.price.itemId, from_fen: s.price.fromFen, to_fen: s.price.toFen };
  if (s.link) v.link = s.link;
  return v;
}
