/** The JSON of `PUT /locations/{id}/prices`, rendered at the edge from the update (its declared type is the response class). */
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { cny } from '../../common/money';
import { toPlus8 } from '../../common/time';
import { priceUpdateStatus, type PendingPrice, type PriceUpdate } from '../price-update';
import type { ApprovalActionView, SetPricesResponse } from './pricing.responses';

/** What to call to approve a parked change (an owner decides, not the agent). */
function approvalAction(p: PendingPrice): ApprovalActionView {
  return { type: 'approval', approval_id: p.approvalId, item: { id: p.itemId }, method: 'POST', url: p.approvalUrl, body: { approved: true } };
}

export function renderPriceUpdate(u: PriceUpdate): ResponseBody<SetPricesResponse> {
  return {
    status: priceUpdateStatus(u.updated.length, u.pending.length),
    location: u.locationId,
    updated: u.updated.map((c) => ({ item: { id: c.itemId }, previous: cny(c.previousFen), price: cny(c.priceFen) })),
    pending: u.pending.map((p) => ({ item: { id: p.itemId }, approval_id: p.approvalId, previous: cny(p.previousFen), price: cny(p.priceFen) })),
    actions: u.pending.map(approvalAction),
    references: u.references.map((r) => ({ item: { id: r.itemId }, price: cny(r.fen), source: r.source, since: toPlus8(r.since) })),
  };
}
