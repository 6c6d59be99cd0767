import { Injectable, Optional } from '@nestjs/common';
import { UcpMessage, warning } from '../common/envelope/envelope';
import { DomainError, Errors } from '../common/errors/errors';
import { parseRfc3339 } from '../common/time';
import { requireLocationId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { SalesRepository, StoredSale } from '../sales/sales.repository';
import { SyncStateRepository } from '../sync/sync-state.repository';
import { ledgerJob } from '../sync/sync.rules';
import { isStale } from '../sync/sync.rules';
import { decodeCursor, encodeCursor, ORDERS_DEFAULT_LIMIT, OrderSortKey, tradeStatusFilter } from './orders.rules';
import { PurchaseOrder, PurchaseOrderReader } from '../purchases/purchase-order-reader';

/** A page of orders (order.view.ts renders it); `cursor` reads the next page, null on the last. */
export type OrdersPage =
  | { kind: 'sale'; rows: StoredSale[]; cursor: string | null; messages: UcpMessage[] }
  | { kind: 'purchase'; orders: PurchaseOrder[]; cursor: string | null; messages: UcpMessage[] };

/** One order found by id, with the messages its read left. */
export type FoundOrder =
  | { kind: 'sale'; sale: StoredSale; messages: UcpMessage[] }
  | { kind: 'purchase'; order: PurchaseOrder; messages: UcpMessage[] };

/** The filters of an orders page, as the edge validated them (api/orders.dto.ts). */
export interface OrdersFilters {
  kind?: 'sale' | 'purchase';
  location?: string;
  from?: string;
  to?: string;
  trade_status?: string;
  updated_from?: string;
  updated_to?: string;
  cursor?: string;
  limit?: number;
}

/**
 * `GET /orders` and `GET /orders/{id}`. Sales are read from the synced ledger copy (a ledger outage does not fail
 * the read; `stale_data` says the copy may be behind); purchases come from the PurchaseOrderReader.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly sales: SalesRepository,
    private readonly syncState: SyncStateRepository,
    private readonly registry: PartnerRegistry,
    @Optional() private readonly purchases?: PurchaseOrderReader,
  ) {}

  async list(q: OrdersFilters): Promise<OrdersPage> {
    const limit = q.limit ?? ORDERS_DEFAULT_LIMIT;
    if ((q.kind ?? 'sale') === 'purchase') {
      return { kind: 'purchase', ...(await this.purchaseReader().list({ cursor: q.cursor, limit })) };
    }
    const time = (v: string | undefined, name: string): Date | undefined => {
      if (v === undefined) return undefined;
      const d = parseRfc3339(v);
      if (!d) throw Errors.invalid(`$.${name}`, `${name} must be an RFC 3339 date-time with an offset, from 1970 to 2999, got ${JSON.stringify(v.slice(0, 60))}`);
      return d;
    };
    const takenFrom = time(q.from, 'from');
    const takenTo = time(q.to, 'to');
    const updatedFrom = time(q.updated_from, 'updated_from');
    const updatedTo = time(q.updated_to, 'updated_to');
    const locationId = q.location === undefined ? undefined : requireLocationId(q.location, '$.location');
    const sortBy: OrderSortKey = updatedFrom || updatedTo ? 'updated' : 'taken';
    let after: { t: string; id: string } | undefined;
    if (q.cursor !== undefined) {
      const c = decodeCursor(q.cursor);
      if (!c) throw Errors.invalid('$.cursor', 'cursor is not a cursor this service issued');
      if (c.k !== sortBy) throw Errors.invalid('$.cursor', 'cursor belongs to a listing with other updated_from/updated_to parameters');
      after = { t: c.t, id: c.id };
    }
    const [rows, stale] = await Promise.all([this.sales.list({
      locationId,
      tradeStatus: tradeStatusFilter(q.trade_status),
      takenFrom,
      takenTo,
      updatedFrom,
      updatedTo,
      sortBy,
      after,
      limit: limit + 1,
    }), this.staleness()]);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const messages: UcpMessage[] = [];
    if (stale) messages.push(warning('stale_data', `sales are read from the synced ledger copy, which may be behind: ${stale}`, '$.orders'));
    page.forEach((r, i) => {
      for (const w of r.data_warnings ?? []) messages.push(warning(w.code, w.content, `$.orders[${i}]${w.path.slice(1)}`));
    });
    const last = page[page.length - 1];
    return { kind: 'sale', rows: page, cursor: more ? encodeCursor({ k: sortBy, t: last.sort_key, id: last.id }) : null, messages };
  }

  /** A sale by ledger number, else a purchase order by id; 404 when neither exists. */
  async find(id: string): Promise<FoundOrder> {
    const sale = await this.sales.find(id);
    if (sale) return { kind: 'sale', sale, messages: (sale.data_warnings ?? []).map((w) => warning(w.code, w.content, w.path)) };
    const purchase = this.purchases ? await this.purchases.find(id) : null;
    if (!purchase) throw Errors.notFound(`order ${id}`, '$.id');
    return { kind: 'purchase', ...purchase };
  }

  private purchaseReader(): PurchaseOrderReader {
    if (!this.purchases) throw new DomainError('not_implemented', 'purchase orders are not available in this deployment', { path: '$.kind' });
    return this.purchases;
  }

  /** Why the ledger copy of the default machine namespace may be behind, or null when it is fresh. */
  private async staleness(): Promise<string | null> {
    const ns = this.registry.defaults().machine;
    if (!ns) return 'no machine namespace is configured';
    const s = isStale(await this.syncState.get(ledgerJob(ns)), Date.now());
    return s.stale ? s.why : null;
  }
}
