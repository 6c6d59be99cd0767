import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { message, UcpMessage, warning } from '../common/envelope/envelope';
import { Errors } from '../common/errors/errors';
import { LocationsRepository } from '../locations/locations.repository';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { InventorySyncResult, InventorySyncService, machineAdapter } from './inventory-sync.service';
import { LedgerSyncResult, LedgerSyncService } from './ledger-sync.service';
import { capped, DAY_MS, LEDGER_LOOKBACK_MS, ledgerWindow } from './sync.rules';

export type { InventorySyncResult } from './inventory-sync.service';

export interface SyncSummary {
  locations: number;
  products: number;
  slots: number;
  sales: number;
  messages: UcpMessage[];
}

/**
 * Pulls machine inventory into `slots` and the sales ledger (LedgerSyncService) into `sale_orders`/`sale_lines`.
 * Inventory: one upsert per machine, at most SYNC_CONCURRENCY machines in flight. Ledger: pages of 100 read by
 * update time, each page upserted in one transaction (the next page is fetched while one is written). A failure
 * keeps everything already stored (nothing is deleted or blanked), is recorded as `partner.error` and `sync.failed`
 * events, and marks the ledger copy stale. Partner reads are never retried here: the next tick is the retry.
 */
@Injectable()
export class SyncService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly locations: LocationsRepository,
    private readonly inventory: InventorySyncService,
    private readonly ledger: LedgerSyncService,
    private readonly clock: Clock,
  ) {}

  // ---- entry points ----

  /**
   * `POST /locations/sync`: every registered machine's inventory, and the ledger over the window, now: of the window,
   * the whole window again (a platform may file a record late with an earlier update time).
   */
  async syncNow(salesWindowDays: number, now = this.clock.nowMs()): Promise<SyncSummary> {
    const all = await this.locations.all();
    const namespaces = new Set(all.map((l) => l.namespace));
    const def = this.registry.defaults().machine;
    if (def) namespaces.add(def);
    const messages: UcpMessage[] = [];
    // Inventory (16 machines at a time) and the ledger pages (one namespace after another) are read side by side.
    const readLedgers = async () => {
      const out: LedgerSyncResult[] = [];
      for (const ns of [...namespaces].sort()) {
        const adapter = machineAdapter(this.registry, ns, 'ledger');
        if (!adapter.ok) {
          messages.push(message('upstream_unreachable', 'recoverable', `sales ledger of ${ns} not read: ${adapter.why}`, '$.sales'));
          continue;
        }
        // A manual sync reads the whole window again: a platform may file a record late with an earlier update time.
        const { fromMs, toMs } = ledgerWindow(now, salesWindowDays * DAY_MS);
        out.push(await this.ledger.syncLedger(adapter.adapter, fromMs, toMs, 'manual'));
      }
      return out;
    };
    const [inventory, ledgers] = await Promise.all([this.inventory.syncInventory(all, 'manual', () => this.clock.now()), readLedgers()]);
    for (const f of inventory.failures) {
      messages.push(message('upstream_unreachable', 'recoverable', `machine ${f.location} (${f.namespace}) not synced: ${f.reason}`, '$.locations'));
    }
    for (const l of ledgers) {
      if (l.failure) messages.push(message('upstream_unreachable', 'recoverable', `sales ledger of ${l.namespace} not fully read: ${l.failure}`, '$.sales'));
    }
    const dataWarnings = [...inventory.warnings, ...ledgers.flatMap((l) => [...l.refused, ...l.warnings])];
    messages.push(...capped(dataWarnings).map((w) => warning('partner_data_refused', w)));
    const inventoryGotNothing = inventory.synced === 0;
    const ledgerGotNothing = ledgers.every((l) => l.failure !== null && l.pages === 0);
    const failure = messages.find((m) => m.code === 'upstream_unreachable');
    if (failure && inventoryGotNothing && ledgerGotNothing) {
      // Nothing at all could be read: that is a failed sync, not a sync of zero things.
      throw Errors.upstreamUnreachable('the machine platform', failure.content);
    }
    return {
      locations: inventory.synced,
      products: inventory.products.size,
      slots: inventory.slots,
      sales: ledgers.reduce((n, l) => n + l.read, 0),
      messages,
    };
  }

  /** The hourly job: inventory of every machine of the default machine namespace. */
  async scheduledInventory(): Promise<InventorySyncResult | null> {
    const ns = this.registry.defaults().machine;
    if (!ns) return null;
    return this.inventory.syncInventory(await this.locations.all(ns), 'scheduled', () => this.clock.now());
  }

  /** The 5-minute job: the default machine namespace's ledger over the last 3 hours, by update time. */
  async scheduledLedger(now = this.clock.nowMs()): Promise<LedgerSyncResult | null> {
    const ns = this.registry.defaults().machine;
    if (!ns) return null;
    const adapter = machineAdapter(this.registry, ns, 'ledger');
    if (!adapter.ok) {
      await this.ledger.recordNotRun(ns, adapter.why);
      return null;
    }
    const { fromMs, toMs } = ledgerWindow(now, LEDGER_LOOKBACK_MS);
    return this.ledger.syncLedger(adapter.adapter, fromMs, toMs, 'scheduled');
  }

}
