import { ok, UcpMessage } from '../common/envelope';

const CAPS = ['com.example.svc.pricing'];

type Amount = { amount: number; currency: string };

/** What a price update did: the moves made, the approvals parked for the rest, and the messages about them. */
export interface PriceUpdate {
  location: string;
  updated: { item: { id: string }; previous: Amount; price: Amount }[];
  actions: Record<string, unknown>[];
  /** Each requested item's reference price of the day, which the per-item cap holds against (issue 26). */
  references: { item: { id: string }; price: Amount; source: string; since: string }[];
  messages: UcpMessage[];
}

/** The UCP answer of `PUT /locations/{id}/prices` (built here, not in the service). */
export function renderPriceUpdate(u: PriceUpdate) {
  return ok({ location: u.location, updated: u.updated, actions: u.actions, references: u.references }, { capabilities: CAPS, messages: u.messages });
}
