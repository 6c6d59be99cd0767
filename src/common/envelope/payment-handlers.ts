/**
 * The one payment handler of the service, as discovery and every checkout session show it (issue 17: one config
 * in both). UCP names handlers in reverse-domain form; the handler's `id` stays `supplier_account`, the
 * `handler_id` of a complete's payment instrument (spec "Checkout").
 */
import { UCP_VERSION } from './envelope';

export const SUPPLIER_ACCOUNT_HANDLER = 'com.example.svc.supplier_account';

export interface PaymentHandler {
  id: string;
  version: string;
  config: Record<string, unknown>;
}

/** A fresh copy each call, so no answer can change another's. */
export function paymentHandlers(): Record<string, PaymentHandler[]> {
  return { [SUPPLIER_ACCOUNT_HANDLER]: [{ id: 'supplier_account', version: UCP_VERSION, config: { instrument_types: ['on_account'] } }] };
}
