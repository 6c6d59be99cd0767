/** A registered machine platform served over the partner contract (docs/contract/, machine role). */
import {
  LedgerPage,
  LedgerQuery,
  MachineAdapter,
  MachineInventoryItem,
  PriceChange,
  PriceUpdateResult,
  RejectedRecord,
  RestockAck,
  RestockRequest,
  RestockState,
} from '../adapter.types';
import { parseInventory, parseLedgerPage, parsePriceResult, parseRestockAck, parseRestockState } from './contract-parsers';
import { HttpPartnerAdapter } from './http-partner.adapter';

export class HttpMachineAdapter extends HttpPartnerAdapter implements MachineAdapter {
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
    this.require('replenishment.order', 'replenishment.recommend');
    return parseRestockState(await this.client.get(`/restock/${encodeURIComponent(ref)}`), this.namespace);
  }
}
