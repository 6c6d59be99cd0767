import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { PriceAuditService } from '../price-audit/price-audit.service';
import { message, UcpMessage, warning } from '../common/envelope';
import { Errors } from '../common/errors';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { refusedItemText, toSlotRows } from '../inventory/inventory.rules';
import { failureReason } from '../partners/partner-failure';
import { SlotsRepository } from '../inventory/slots.repository';
import { LocationsRepository } from '../locations/locations.repository';
import { LocationRecord } from '../locations/locations.rules';
import { MachineAdapter } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { LedgerSyncResult, LedgerSyncService } from './ledger-sync.service';
import { SyncStateRepository } from './sync-state.repository';
import { capped, DAY_MS, inventoryJob, ledgerJob, LEDGER_LOOKBACK_MS, ledgerReadWindow, ledgerWindow, mapLimit, SYNC_CONCURRENCY } from './sync.rules';



export interface InventorySyncResult {
  attempted: number;
  synced: number;
  products: Set<string>;
  slots: number;
  removed: number;
  failures: { location: string; namespace: string; reason: string }[];
  warnings: string[];
}

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
  private readonly logger = new Logger(SyncService.name);
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly locations: LocationsRepository,
    private readonly slots: SlotsRepository,
    private readonly state: SyncStateRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
    private readonly ledger: LedgerSyncService,
    private readonly priceAudit: PriceAuditService,
    private readonly clock: Clock,
  ) {}

  // ---- entry points ----

  /**
   * `POST /locations/sync`: every registered machine's inventory, and the ledger over the window, now: of the window,
   * only the part that successful syncs have not read in full yet (from 3 hours before the end of what they read).
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
        const adapter = this.machineAdapter(ns, 'ledger');
        if (!adapter.ok) {
          messages.push(message('upstream_unreachable', 'recoverable', `sales ledger of ${ns} not read: ${adapter.why}`, '$.sales'));
          continue;
        }
        // Only what successful syncs have not read in full yet (with the scheduled look-back as overlap).
        const covered = (await this.state.get(ledgerJob(ns)))?.covered ?? null;
        const { fromMs, toMs } = ledgerReadWindow(ledgerWindow(now, salesWindowDays * DAY_MS), covered, LEDGER_LOOKBACK_MS);
        out.push(await this.ledger.syncLedger(adapter.adapter, fromMs, toMs, 'manual'));
      }
      return out;
    };
    const [inventory, ledgers] = await Promise.all([this.syncInventory(all, 'manual'), readLedgers()]);
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
    return this.syncInventory(await this.locations.all(ns), 'scheduled');
  }

  /** The 5-minute job: the default machine namespace's ledger over the last 3 hours, by update time. */
  async scheduledLedger(now = this.clock.nowMs()): Promise<LedgerSyncResult | null> {
    const ns = this.registry.defaults().machine;
    if (!ns) return null;
    const adapter = this.machineAdapter(ns, 'ledger');
    if (!adapter.ok) {
      await this.tx.run(async () => {
        await this.state.recordFailure(ledgerJob(ns), new Date(), adapter.why);
        await this.events.record({ kind: 'sync.failed', summary: `scheduled ledger sync of ${ns} not run`, reasoning: adapter.why, data: { scope: 'ledger', namespace: ns } });
      });
      return null;
    }
    const { fromMs, toMs } = ledgerWindow(now, LEDGER_LOOKBACK_MS);
    return this.ledger.syncLedger(adapter.adapter, fromMs, toMs, 'scheduled');
  }

  // ---- inventory ----

  async syncInventory(locations: LocationRecord[], trigger: 'manual' | 'scheduled'): Promise<InventorySyncResult> {
    const result: InventorySyncResult = {
      attempted: locations.length,
      synced: 0,
      products: new Set(),
      slots: 0,
      removed: 0,
      failures: [],
      warnings: [],
    };
    if (locations.length === 0) return result;
    const startedAt = Date.now();
    const outcomes = await mapLimit(locations, SYNC_CONCURRENCY, async (loc) => {
      const adapter = this.machineAdapter(loc.namespace, 'inventory');
      if (!adapter.ok) throw new Error(adapter.why);
      const answer = await adapter.adapter.getInventory(loc.id);
      const built = toSlotRows(loc.id, loc.namespace, answer.items, answer.rejected);
      const written = await this.slots.replaceForLocation(loc.id, built.rows, { removeOthersExcept: built.canRemove ? built.keepIds : null });
      const warnings = [
        ...answer.rejected.map((r) => refusedItemText(loc.id, r)),
        ...built.duplicates.map((sku) => `machine ${loc.id}: item ${sku} listed twice; the first entry is kept`),
      ];
      return { rows: built.rows, written, warnings };
    });
    outcomes.forEach((o, i) => {
      const loc = locations[i];
      if (o.ok) {
        result.synced++;
        result.slots += o.value.written.upserted;
        result.removed += o.value.written.removed;
        for (const r of o.value.rows) result.products.add(r.sku_id);
        result.warnings.push(...o.value.warnings);
      } else {
        result.failures.push({ location: loc.id, namespace: loc.namespace, reason: failureReason(o.error) });
      }
    });
    await this.recordInventoryOutcome(result, locations, trigger, Date.now() - startedAt);
    await this.auditPrices(locations.filter((_l, i) => outcomes[i].ok).map((l) => l.id));
    return result;
  }

  /** Issue 30: the machines just read are audited for prices changed at the machine; a failing audit never fails the sync. */
  private async auditPrices(read: string[]): Promise<void> {
    try {
      await this.priceAudit.afterSync(read);
    } catch (err) {
      this.logger.warn(`price audit after the inventory sync failed: ${(err as Error).message}`);
    }
  }

  private async recordInventoryOutcome(r: InventorySyncResult, locations: LocationRecord[], trigger: string, ms: number): Promise<void> {
    const at = new Date();
    const byNs = new Map<string, InventorySyncResult['failures']>();
    for (const f of r.failures) byNs.set(f.namespace, [...(byNs.get(f.namespace) ?? []), f]);
    for (const [ns, failures] of byNs) {
      await this.tx.run(async () => {
        await this.state.recordFailure(inventoryJob(ns), at, failures[0].reason);
        await this.events.record({
          kind: 'partner.error',
          summary: `inventory of ${failures.length} machine(s) could not be read from ${ns}`,
          reasoning: failures.slice(0, 20).map((f) => `${f.location}: ${f.reason}`).join('; '),
          location: failures.length === 1 ? failures[0].location : null,
          data: { namespace: ns, operation: 'inventory', locations: failures.slice(0, 100).map((f) => f.location), count: failures.length },
        });
      });
    }
    for (const ns of new Set(locations.map((l) => l.namespace))) {
      if (!byNs.has(ns)) await this.state.recordSuccess(inventoryJob(ns), at);
    }
    const data = {
      scope: 'inventory',
      trigger,
      machines: r.attempted,
      synced: r.synced,
      failed: r.failures.length,
      slots: r.slots,
      removed_slots: r.removed,
      products: r.products.size,
      duration_ms: ms,
      warnings: capped(r.warnings),
    };
    if (r.failures.length) {
      await this.events.record({
        kind: 'sync.failed',
        summary: `inventory sync: ${r.failures.length} of ${r.attempted} machine(s) failed; what was stored is kept`,
        reasoning: r.failures.slice(0, 20).map((f) => `${f.location}: ${f.reason}`).join('; '),
        data,
      });
    } else {
      await this.events.record({
        kind: 'sync.completed',
        summary: `inventory sync: ${r.synced} machine(s), ${r.slots} slot(s)`,
        reasoning: r.warnings.length ? `${r.warnings.length} partner record(s) refused or adjusted` : 'all machines read',
        data,
      });
    }
  }

  private machineAdapter(ns: string, capability: string): { ok: true; adapter: MachineAdapter } | { ok: false; why: string } {
    try {
      return { ok: true, adapter: this.registry.machine(ns, capability) };
    } catch (err) {
      return { ok: false, why: failureReason(err) };
    }
  }
}
