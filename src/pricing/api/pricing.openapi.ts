/** The OpenAPI description of the price update. */
import { ApiEndpoint, describeProperty } from '../../common/envelope/api-docs';
import { FEN } from '../../common/envelope/money-docs';
import { PriceBody, SetPricesBody } from './pricing.dto';
import { SetPricesResponse } from './pricing.responses';

describeProperty(SetPricesBody, 'confirm', {
  type: Boolean,
  enum: [true],
  required: true,
  description: 'Must be the JSON boolean `true` (a string or number is refused with 400 `confirmation_required`).',
});

describeProperty(PriceBody, 'amount', { type: 'integer', minimum: 0, required: true, description: `The new price customers pay. ${FEN}` });

export const PricingDocs = {
  setPrices: ApiEndpoint({
    operationId: 'prices_update',
    summary: 'Change live customer prices on a machine (real write)',
    description:
      'Core. REAL WRITE: changes the price customers pay now. Requires `confirm: true`. Items are machine sku_ids of this location\'s namespace. ' +
      'Refused when the kill switch is engaged (409 `kill_switch_engaged`: do not retry in a loop) or the guard rules cannot be read (503 `guard_unverifiable`). ' +
      'Amounts are integer fen (350 = ¥3.50). A line below the good\'s purchase cost (where the supply resolution knows it) or cut by more than 90% refuses the whole request with 400 `invalid` at its amount unless the line says `allow_below_cost: true` / `allow_deep_cut: true`. ' +
      'A move over the per-item cap (`priceCapPerItem`) changes nothing for that item: it is parked as a `price_change` approval, answered with 200, `status` `pending_approval` (or `partly_pending_approval`), the line in `pending` with its `approval_id`, and an `approval_required` message pointing at the item; an owner approves it in `POST /approvals/{id}`, which then executes it. Other items of the request go through.',
    headers: ['Idempotency-Key'],
    type: SetPricesResponse,
    returns: 'What changed (`updated`) and what waits for approval (`pending`, with each approval id), summed up in `status`.',
    errors: {
      400: ['missing', 'invalid', 'confirmation_required', 'namespace_mismatch', 'namespace_unsupported', 'request_too_large'],
      404: ['not_found'],
      409: ['kill_switch_engaged', 'idempotency_key_mismatch', 'idempotency_key_in_use'],
      502: ['upstream_unreachable', 'upstream_rejected'],
      503: ['guard_unverifiable', 'idempotency_unavailable'],
    },
  }),
};
