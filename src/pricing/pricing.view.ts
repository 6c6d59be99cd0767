import { ok, UcpMessage } from '../common/envelope';

const CAPS = ['com.example.svc.pricing'];

type Amount = { amount: number; currency: string };

/** What a price update did: the moves made, the approvals parked for the rest, and the messages about them. */
export interface PriceUpdate {
  location: string;
  updated: { item: { id: string }; previous: Amount; price: Amount }[];
  actions: Record<string, unknown>[];
  messages: UcpMessage[];
}

/** The UCP answer of `PUT /locations/{id}/prices` (built here, not in the service). */
export function renderPriceUpdate(u: PriceUpdate) {
  return ok({ location: u.location, updated: u.updated, actions: u.actions }, { capabilities: CAPS, messages: u.messages });
}
