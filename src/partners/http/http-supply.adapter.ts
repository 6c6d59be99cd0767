/**
 * A registered supplier served over the partner contract (docs/contract/, supply role).
 * POST /orders places a real purchase: it is sent exactly once and never retried (see PartnerHttpClient); a timeout
 * leaves the outcome unknown, and the caller re-reads GET /orders/{ref} or resends the same idempotent `ref`.
 */
import {
  RejectedRecord,
  SupplyAdapter,
  SupplyOrderAck,
  SupplyOrderRequest,
  SupplyOrderStatus,
  SupplyProduct,
} from '../adapter.types';
import { parseCatalog, parseOrderAck, parseOrderStatus } from './contract-parsers';
import { HttpPartnerAdapter } from './http-partner.adapter';

export class HttpSupplyAdapter extends HttpPartnerAdapter implements SupplyAdapter {
  async getCatalog(): Promise<{ products: SupplyProduct[]; rejected: RejectedRecord[] }> {
    this.require('catalog');
    return parseCatalog(await this.client.get('/catalog'), this.namespace);
  }

  async createOrder(req: SupplyOrderRequest): Promise<SupplyOrderAck> {
    this.require('orders');
    const fulfillment: SupplyOrderRequest['fulfillment'] = { method: req.fulfillment.method };
    if (req.fulfillment.destination !== undefined) fulfillment.destination = req.fulfillment.destination;
    const body = {
      ref: req.ref,
      lines: req.lines.map((l) => ({ vendorSku: l.vendorSku, quantity: l.quantity, unit: l.unit })),
      fulfillment,
    };
    return parseOrderAck(await this.client.post('/orders', body), this.namespace);
  }

  async getOrder(ref: string): Promise<SupplyOrderStatus> {
    this.require('orders');
    return parseOrderStatus(await this.client.get(`/orders/${encodeURIComponent(ref)}`), this.namespace);
  }
}
