/** The OpenAPI description of the price update. */
import { ApiEndpoint, describeProperty } from '../common/api-docs';
import { SetPricesBody } from './pricing.dto';
import { SetPricesResponse } from './pricing.responses';

describeProperty(SetPricesBody, 'confirm', {
  type: Boolean,
  enum: [true],
  required: true,
  description: 'Must be the JSON boolean `true` (a string or number is refused with 400 `confirmation_required`).',
});

export const PricingDocs = {
  setPrices: ApiEndpoint({
    operationId: 'prices_update',
    summary: 'Change live customer prices on a machine (real write)',
    description:
      'Core. REAL WRITE: changes the price customers pay now. Requires `confirm: true`. Items are machine sku_ids of this location\'s namespace. ' +
      'Refused when the kill switch is engaged (409 `kill_switch_engaged`: do not retry in a loop) or the guard rules cannot be read (503 `guard_unverifiable`). ' +
      'A move over the per-item cap (`priceCapPerItem`) changes nothing for that item: it is parked as a `price_change` approval, answered with 200, an `approval_required` message pointing at the item and an entry in `actions`; an owner approves it in `POST /approvals/{id}`, which then executes it. Other items of the request go through.',
    headers: ['Idempotency-Key'],
    type: SetPricesResponse,
    returns: 'What changed (`updated`) and what waits for approval (`actions`).',
    errors: {
      400: ['missing', 'invalid', 'confirmation_required', 'namespace_mismatch', 'namespace_unsupported', 'request_too_large'],
      404: ['not_found'],
      409: ['kill_switch_engaged', 'idempotency_key_mismatch', 'idempotency_key_in_use'],
      502: ['upstream_unreachable', 'upstream_rejected'],
      503: ['guard_unverifiable', 'idempotency_unavailable'],
    },
  }),
};
