/**
 * A registered supplier served over the partner contract (decisions.md section 8, supply role).
 * POST /orders places a real purchase: it is sent exactly once and never retried (see PartnerHttpClient); a timeout
 * leaves the outcome unknown, and the caller re-reads GET /orders/{ref} or resends the same idempotent `ref`.
 */
import {
  PartnerError,
  RejectedRecord,
  SupplyAdapter,
  SupplyOrderAck,
  SupplyOrderRequest,
  SupplyOrderStatus,
  SupplyProduct,
} from '../adapter.types';
import { Registration } from '../registry/registration';
import { parseCatalog, parseOrderAck, parseOrderStatus } from './contract-parsers';
import { PartnerHttpClient, PartnerHttpOptions } from './partner-http.client';

export class HttpSupplyAdapter implements SupplyAdapter {
  readonly namespace: string;
  readonly vendor: string;
  readonly capabilities: ReadonlySet<string>;
  readonly simulated = false;
  private readonly client: PartnerHttpClient;

  constructor(reg: Registration, http: PartnerHttpOptions) {
    this.namespace = reg.namespace;
    this.vendor = reg.vendor;
    this.capabilities = new Set(reg.capabilities);
    this.client = new PartnerHttpClient(reg.namespace, reg.baseUrl, reg.token, http);
  }

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

  private require(capability: string): void {
    if (!this.capabilities.has(capability)) {
      throw new PartnerError('rejected', this.namespace, `capability ${capability} is not declared in the registration`);
    }
  }
}
