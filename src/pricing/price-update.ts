/** What a price update asks and what it did, as the pricing services hold it (camelCase, fen); pricing.view.ts renders it. */
import type { UcpMessage } from '../common/envelope/envelope';
import type { ReferenceSource } from './price-reference.rules';

/** What a price request asks (the edge validates it: api/pricing.dto.ts); `confirm` must be the JSON boolean true. */
export interface PriceRequest {
  prices: { item: { id: string }; price: { amount: number; currency: 'CNY' }; allow_below_cost?: boolean; allow_deep_cut?: boolean }[];
  confirm?: unknown;
}

/** A price changed on the machine. */
export interface PriceChanged {
  itemId: string;
  previousFen: number;
  priceFen: number;
}

/** A line parked for an owner's approval: nothing changed for it yet; `approvalUrl` is where an owner approves it. */
export interface PendingPrice {
  itemId: string;
  approvalId: string;
  approvalUrl: string;
  previousFen: number;
  priceFen: number;
}

/** An item's reference price of the day, which the per-item cap holds against (issue 26). */
export interface ItemPriceReference {
  itemId: string;
  fen: number;
  source: ReferenceSource;
  since: Date;
}

/** `updated` when every line changed, `pending_approval` when none did (all wait for an owner), else `partly_pending_approval`. */
export type PriceUpdateStatus = 'updated' | 'pending_approval' | 'partly_pending_approval';

export function priceUpdateStatus(updated: number, pending: number): PriceUpdateStatus {
  if (pending === 0) return 'updated';
  return updated === 0 ? 'pending_approval' : 'partly_pending_approval';
}

/** What a price update did: the moves made, the approvals parked for the rest, and the messages about them. */
export interface PriceUpdate {
  locationId: string;
  updated: PriceChanged[];
  /** In the order their approval actions are answered. */
  pending: PendingPrice[];
  references: ItemPriceReference[];
  messages: UcpMessage[];
}
