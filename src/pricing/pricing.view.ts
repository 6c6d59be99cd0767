import { ok, UcpMessage } from '../common/envelope';

const CAPS = ['com.example.svc.pricing'];

type Amount = { amount: number; currency: string };

/** A line parked for an owner's approval: nothing changed for it yet. */
export interface PendingPrice {
  item: { id: string };
  approval_id: string;
  previous: Amount;
  price: Amount;
}

/** `updated` when every line changed, `pending_approval` when none did (all wait for an owner), else `partly_pending_approval`. */
export type PriceUpdateStatus = 'updated' | 'pending_approval' | 'partly_pending_approval';

export function priceUpdateStatus(updated: number, pending: number): PriceUpdateStatus {
  if (pending === 0) return 'updated';
  return updated === 0 ? 'pending_approval' : 'partly_pending_approval';
}

/** What a price update did: the moves made, the approvals parked for the rest, and the messages about them. */
export interface PriceUpdate {
  location: string;
  updated: { item: { id: string }; previous: Amount; price: Amount }[];
  pending: PendingPrice[];
  actions: Record<string, unknown>[];
  /** Each requested item's reference price of the day, which the per-item cap holds against (issue 26). */
  references: { item: { id: string }; price: Amount; source: string; since: string }[];
  messages: UcpMessage[];
}

/** The UCP answer of `PUT /locations/{id}/prices` (built here, not in the service). */
export function renderPriceUpdate(u: PriceUpdate) {
  const status = priceUpdateStatus(u.updated.length, u.pending.length);
  return ok({ status, location: u.location, updated: u.updated, pending: u.pending, actions: u.actions, references: u.references }, { capabilities: CAPS, messages: u.messages });
}
