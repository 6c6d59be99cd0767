/**
 * A registered machine platform served over the partner contract (decisions.md section 8, machine role).
 * Capabilities come from the registration; calling an undeclared one is refused here as a second line behind the
 * registry, so an adapter handed out by mistake still never calls an endpoint the partner did not promise.
 */
import {
  LedgerPage,
  LedgerQuery,
  MachineAdapter,
  MachineInventoryItem,
  PartnerError,
  PriceChange,
  PriceUpdateResult,
  RejectedRecord,
  RestockAck,
  RestockRequest,
  RestockState,
} from '../adapter.types';
import { Registration } from '../registry/registration';
import { parseInventory, parseLedgerPage, parsePriceResult, parseRestockAck, parseRestockState } from './contract-parsers';
import { PartnerHttpClient, PartnerHttpOptions } from './partner-http.client';

export class HttpMachineAdapter implements MachineAdapter {
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

  async getInventory(locationId: string): Promise<{ items: MachineInventoryItem[]; rejected: RejectedRecord[] }> {
    this.require('inventory');
    return parseInventory(await this.client.get('/inventory', { locationId }), this.namespace);
  }

  async getLedger(q: LedgerQuery): Promise<LedgerPage> {
    this.require('ledger');
    const query: Record<string, number | string> = { fromMs: q.fromMs, toMs: q.toMs, page: q.page, size: q.size };
    // Without `by`, the contract's default is the order's take time; `by=updated` asks for last-update time.
    if (q.by === 'updated') query.by = 'updated';
    return parseLedgerPage(await this.client.get('/ledger', query), q.size, this.namespace);
  }

  /** The answer may also carry `rejected` (confirmations with a bad amount), as parsePriceResult returns it. */
  async setPrices(locationId: string, prices: PriceChange[]): Promise<PriceUpdateResult> {
    this.require('pricing');
    const body = { locationId, prices: prices.map((p) => ({ vendorSku: p.vendorSku, priceFen: p.priceFen })) };
    return parsePriceResult(await this.client.post('/prices', body), this.namespace);
  }

  async sendRestock(req: RestockRequest): Promise<RestockAck> {
    this.require(req.binding ? 'replenishment.order' : 'replenishment.recommend');
    const body = { ref: req.ref, locationId: req.locationId, binding: req.binding, lines: req.lines };
    return parseRestockAck(await this.client.post('/restock', body), req.lines.length, this.namespace);
  }

  async getRestock(ref: string): Promise<RestockState> {
    if (!this.capabilities.has('replenishment.order') && !this.capabilities.has('replenishment.recommend')) {
      this.require('replenishment.order');
    }
    return parseRestockState(await this.client.get(`/restock/${encodeURIComponent(ref)}`), this.namespace);
  }

  private require(capability: string): void {
    if (!this.capabilities.has(capability)) {
      throw new PartnerError('rejected', this.namespace, `capability ${capability} is not declared in the registration`);
    }
  }
}
