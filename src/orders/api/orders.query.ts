import { registerFastQuery } from '../../common/edge/validation';
import { ListOrdersQuery } from './orders.dto';
import { ORDERS_MAX_LIMIT, TRADE_STATUS_FILTERS } from '../orders.rules';

/**
 * The hot `GET /orders` queries read without class-validator (issue 13): only kind, limit, location, cursor and
 * trade_status, each a single plainly valid value; anything else (time windows, unknown keys, repeated keys, odd
 * characters) returns null and takes the full validation.
 */
const LIMIT = /^[1-9][0-9]{0,2}$/;
const LOCATION = /^[A-Za-z0-9._-]{1,64}$/;
const CURSOR = /^[A-Za-z0-9_-]{1,1000}$/;
const STATUSES: ReadonlySet<string> = new Set(TRADE_STATUS_FILTERS);

export function fastOrdersQuery(q: Record<string, unknown>): ListOrdersQuery | null {
  const out = new ListOrdersQuery();
  for (const key in q) {
    const v = q[key];
    if (typeof v !== 'string') return null;
    if (key === 'kind' && (v === 'sale' || v === 'purchase')) out.kind = v;
    else if (key === 'limit' && LIMIT.test(v) && Number(v) <= ORDERS_MAX_LIMIT) out.limit = Number(v);
    else if (key === 'location' && LOCATION.test(v)) out.location = v;
    else if (key === 'cursor' && CURSOR.test(v)) out.cursor = v;
    else if (key === 'trade_status' && STATUSES.has(v)) out.trade_status = v;
    else return null;
  }
  return out;
}

registerFastQuery(ListOrdersQuery, fastOrdersQuery);
