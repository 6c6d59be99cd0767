/** The OpenAPI description of the order operations. */
import { ApiEndpoint, describeProperty } from '../../common/envelope/api-docs';
import { ListOrdersQuery } from './orders.dto';
import { OrderResponse, OrdersListResponse } from './orders.responses';

describeProperty(ListOrdersQuery, 'kind', { required: false, default: 'sale', description: '`sale` reads the machine ledger (synced copy); `purchase` the purchase orders placed through checkout.' });
describeProperty(ListOrdersQuery, 'trade_status', { required: false, default: 'settled', description: 'Sale orders: `settled` (default, the only state that counts as a sale), `all`, or one of the six states. An unknown value is 400 `invalid`, never an empty list.' });
describeProperty(ListOrdersQuery, 'from', { required: false, format: 'date-time', description: 'Inclusive lower bound on `taken_at` (RFC 3339, any offset).' });
describeProperty(ListOrdersQuery, 'to', { required: false, format: 'date-time', description: 'Exclusive upper bound on `taken_at`.' });
describeProperty(ListOrdersQuery, 'updated_from', { required: false, format: 'date-time', description: 'Filter on `updated_at` instead (oldest change first, for polling late-settling, revised or refunded orders).' });
describeProperty(ListOrdersQuery, 'updated_to', { required: false, format: 'date-time', description: 'Exclusive upper bound on `updated_at`.' });
describeProperty(ListOrdersQuery, 'limit', { required: false, default: 100, description: 'Page size, 1 to 100.' });
describeProperty(ListOrdersQuery, 'cursor', { required: false, description: 'Opaque: `pagination.cursor` of the previous page.' });
describeProperty(ListOrdersQuery, 'location', { required: false, description: 'Machine id; filtered by the service (the upstream ledger covers the whole account).' });

export const OrdersDocs = {
  list: ApiEndpoint({
    operationId: 'orders_list',
    summary: 'List sale or purchase orders (the sales ledger)',
    description:
      'Core (`kind=sale`). Sales come from the synced ledger, newest first by `taken_at`; a ledger outage never empties the list: a `stale_data` warning says the copy is old. ' +
      'Orders with `finalized: false` can still change: deduplicate on (`id`, `updated_at`). Follow `pagination.cursor` while `pagination.has_next_page`.',
    type: OrdersListResponse,
    returns: 'A page of orders, `pagination` and `messages` (warnings such as `stale_data`).',
    errors: { 400: ['invalid'], 502: ['upstream_unreachable'] },
  }),
  find: ApiEndpoint({
    operationId: 'orders_get',
    summary: 'Read one order (purchase status and logistics, or a sale)',
    description: 'A current-state snapshot: for a purchase order the supplier status (re-read when older than 30 s) and logistics; for a sale the ledger record.',
    headers: ['UCP-Agent'],
    type: OrderResponse,
    returns: 'The order.',
    errors: { 404: ['not_found'], 502: ['upstream_unreachable'] },
  }),
};
