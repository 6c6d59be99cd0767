/**
 * Whether a session's fulfillment can reach a person (issue 17): pure, no Nest, no TypeORM.
 * A supplier order without an address cannot be delivered, so a session is not ready until every destination of
 * every method carries the three fields of the spec's request shape as non-blank strings.
 */
import { message, UcpMessage } from '../../common/envelope/envelope';

/** The destination fields the spec's checkout request names (spec "Checkout"), all required to complete. */
export const DESTINATION_FIELDS = ['street_address', 'first_name', 'phone_number'] as const;

/**
 * Methods opened by the service itself, not by a client: a supply-checkout replenishment run sends the goods to the
 * route's machines (`restock`, destinations `{name, locations}`). The public request takes shipping or pickup only.
 */
const SERVICE_METHODS = new Set(['restock']);

/**
 * Every reason the fulfillment cannot be sent to the supplier, each a `recoverable` message with its path:
 * no method or a method without destinations (`missing` at `...destinations`), a destination field absent or blank
 * (`missing`), or not a string (`invalid`, only reachable by a stored body the request validation did not see).
 */
export function fulfillmentProblems(fulfillment: unknown): UcpMessage[] {
  const methods = (fulfillment as { methods?: unknown } | null)?.methods;
  if (!Array.isArray(methods) || methods.length === 0) {
    return [message('missing', 'recoverable', 'a fulfillment method with a destination is required', '$.fulfillment.methods[0].destinations')];
  }
  const out: UcpMessage[] = [];
  methods.forEach((m: unknown, i) => {
    const method = (m ?? {}) as { type?: unknown; destinations?: unknown };
    if (typeof method.type === 'string' && SERVICE_METHODS.has(method.type)) return;
    const at = `$.fulfillment.methods[${i}].destinations`;
    if (!Array.isArray(method.destinations) || method.destinations.length === 0) {
      out.push(message('missing', 'recoverable', `fulfillment method ${i} has no destination; one with ${DESTINATION_FIELDS.join(', ')} is required`, at));
      return;
    }
    method.destinations.forEach((d: unknown, j) => {
      const dest = (d !== null && typeof d === 'object' ? d : {}) as Record<string, unknown>;
      for (const field of DESTINATION_FIELDS) {
        const v = dest[field];
        const path = `${at}[${j}].${field}`;
        if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
          out.push(message('missing', 'recoverable', `${field} of the destination is required (a non-blank string) before the order can be placed`, path));
        } else if (typeof v !== 'string') {
          out.push(message('invalid', 'recoverable', `${field} of the destination must be a string`, path));
        }
      }
    });
  });
  return out;
}
