import type { PackUnit } from '../partners/adapter.types';
/**
 * What a request asks of a checkout session, as the services read it; the edge validates it (api/checkout.dto.ts),
 * and a replenishment run opens its supplier sessions with the same shape.
 */
export interface CheckoutLineInput {
  item: { id: string };
  /** >= 1 on create; on update 0 removes the line. */
  quantity: number;
  quantity_unit?: { unit: PackUnit };
}

export interface FulfillmentInput {
  methods: { type: 'shipping' | 'pickup'; destinations?: { street_address?: string; first_name?: string; phone_number?: string }[] }[];
}

/** Create and update: every field optional here (an absent `line_items` keeps the lines on update). */
export interface CheckoutSessionInput {
  /** Becomes the purchase-order number and the supplier's order ref. */
  id?: string;
  fulfillment?: FulfillmentInput;
  line_items?: CheckoutLineInput[];
}
