import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { message, UcpMessage, warning } from '../common/envelope';
import { Errors } from '../common/errors';
import { EventView } from '../events/event.view';
import { EventsService } from '../events/events.service';
import { refusedItemText, toSlotRows } from '../inventory/inventory.rules';
import { failureReason } from '../inventory/partner-failure';
import { SlotsRepository } from '../inventory/slots.repository';
import { LocationsRepository } from '../locations/locations.repository';
import { LocationRecord } from '../locations/locations.rules';
import { LedgerPage, MachineAdapter } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { latestPerOrder, SaleLineRow, SaleOrderRow, toSaleRows } from '../sales/sale-order.rules';
import { SalesRepository } from '../sales/sales.repository';
import { SyncStateRepository } from './sync-state.repository';
import { DAY_MS, LEDGER_LOOKBACK_MS, LEDGER_PAGE_SIZE, ledgerWindow, mapLimit, SYNC_CONCURRENCY } from './sync.rules';

/** A ledger run stops after this many pages (1,000,000 records) and says so; the next tick continues. */
const MAX_LEDGER_PAGES = 10_000;
/** Responses and events list at most this many data warnings; the rest are counted. */
const MAX_WARNINGS = 100;

export interface LedgerSyncResult {
  namespace: string;
  pages: number;
  /** Valid records read (after de-duplication within a page). */
  read: number;
  inserted: number;
  revised: number;
  /** Orders that became `settled` in this run. */
  settled: number;
  refused: string[];
  warnings: string[];
  failure: string | null;
}

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

export const ledgerJob = (namespace: string) => `ledger:${namespace}`;
export const inventoryJob = (namespace: string) => `inventory:${namespace}`;

/**
 * Pulls machine inventory into `slots` and the sales ledger into `sale_orders`/`sale_lines`.
 * Inventory: one upsert per machine, at most SYNC_CONCURRENCY machines in flight. Ledger: pages of 100 read by
 * update time, each page upserted in one transaction (the next page is fetched while one is written). A failure
 * keeps everything already stored (nothing is deleted or blanked), is recorded as `partner.error` and `sync.failed`
 * events, and marks the ledger copy stale. Partner reads are never retried here: the next tick is the retry.
 */
@Injectable()
export class SyncService {
  private readonly logger = new Logger(SyncService.name);

  constructor(
    private readonly ds: DataSource,
    private readonly registry: PartnerRegistry,
    private readonly locations: LocationsRepository,
    private readonly slots: SlotsRepository,
    private readonly sales: SalesRepository,
    private readonly state: SyncStateRepository,
    private readonly events: EventsService,
  ) {}

  // ---- entry points ----

  /** `POST /locations/sync`: every registered machine's inventory, and the ledger over the window, now. */
  async syncNow(salesWindowDays: number, now = Date.now()): Promise<SyncSummary> {
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
        const { fromMs, toMs } = ledgerWindow(now, salesWindowDays * DAY_MS);
        out.push(await this.syncLedger(adapter.adapter, fromMs, toMs, 'manual'));
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
  async scheduledLedger(now = Date.now()): Promise<LedgerSyncResult | null> {
    const ns = this.registry.defaults().machine;
    if (!ns) return null;
    const adapter = this.machineAdapter(ns, 'ledger');
    if (!adapter.ok) {
      await this.state.recordFailure(ledgerJob(ns), new Date(), adapter.why);
      await this.events.record({ kind: 'sync.failed', summary: `scheduled ledger sync of ${ns} not run`, reasoning: adapter.why, data: { scope: 'ledger', namespace: ns } });
      return null;
    }
    const { fromMs, toMs } = ledgerWindow(now, LEDGER_LOOKBACK_MS);
    return this.syncLedger(adapter.adapter, fromMs, toMs, 'scheduled');
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
    return result;
  }

  private async recordInventoryOutcome(r: InventorySyncResult, locations: LocationRecord[], trigger: string, ms: number): Promise<void> {
    const at = new Date();
    const byNs = new Map<string, InventorySyncResult['failures']>();
    for (const f of r.failures) byNs.set(f.namespace, [...(byNs.get(f.namespace) ?? []), f]);
    for (const [ns, failures] of byNs) {
      await this.state.recordFailure(inventoryJob(ns), at, failures[0].reason);
      await this.events.record({
        kind: 'partner.error',
        summary: `inventory of ${failures.length} machine(s) could not be read from ${ns}`,
        reasoning: failures.slice(0, 20).map((f) => `${f.location}: ${f.reason}`).join('; '),
        location: failures.length === 1 ? failures[0].location : null,
        data: { namespace: ns, operation: 'inventory', locations: failures.slice(0, 100).map((f) => f.location), count: failures.length },
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

  // ---- ledger ----

  async syncLedger(adapter: MachineAdapter, fromMs: number, toMs: number, trigger: 'manual' | 'scheduled'): Promise<LedgerSyncResult> {
    const ns = adapter.namespace;
    const result: LedgerSyncResult = { namespace: ns, pages: 0, read: 0, inserted: 0, revised: 0, settled: 0, refused: [], warnings: [], failure: null };
    const startedAt = Date.now();
    const fetchPage = (page: number) => adapter.getLedger({ fromMs, toMs, page, size: LEDGER_PAGE_SIZE, by: 'updated' });
    let page = 1;
    let pending: Promise<LedgerPage> | null = fetchPage(page);
    while (pending) {
      let current: LedgerPage;
      try {
        current = await pending;
      } catch (err) {
        result.failure = `page ${page}: ${failureReason(err)}`;
        break;
      }
      pending = null;
      const received = current.records.length + current.rejected.length;
      if (current.hasMore && received > 0 && page < MAX_LEDGER_PAGES) {
        pending = fetchPage(page + 1);
        pending.catch(() => undefined); // judged when awaited
      } else if (current.hasMore && page >= MAX_LEDGER_PAGES) {
        result.warnings.push(`ledger of ${ns}: stopped after ${MAX_LEDGER_PAGES} pages; the next sync continues`);
      }
      try {
        await this.ingestPage(ns, current, result);
      } catch (err) {
        result.failure = `storing page ${page}: ${(err as Error).message}`;
        this.logger.error(`ledger page ${page} of ${ns} not stored: ${(err as Error).message}`);
        break;
      }
      result.pages++;
      page++;
    }
    await this.recordLedgerOutcome(result, trigger, fromMs, toMs, Date.now() - startedAt);
    return result;
  }

  /** One page in one transaction: the orders, their lines and the `sale.settled` event commit together. */
  private async ingestPage(ns: string, page: LedgerPage, result: LedgerSyncResult): Promise<void> {
    for (const r of page.rejected) {
      result.refused.push(`ledger record ${r.id ?? `#${r.index + 1} of page ${result.pages + 1}`} of ${ns} refused: ${r.reason}`);
    }
    const orders: SaleOrderRow[] = [];
    const lines: SaleLineRow[] = [];
    for (const rec of latestPerOrder(page.records)) {
      const rows = toSaleRows(rec, ns);
      if (!rows.ok) {
        result.refused.push(rows.refused);
        continue;
      }
      orders.push(rows.order);
      lines.push(...rows.lines);
      result.warnings.push(...rows.warnings.map((w) => w.content));
    }
    result.read += orders.length;
    if (orders.length === 0) return;
    let event: EventView | null = null;
    await this.ds.transaction(async (m) => {
      const written = await this.sales.upsertBatch(m, orders, lines);
      const settled = written.filter((w) => w.tradeStatus === 'settled' && w.previousStatus !== 'settled');
      result.inserted += written.filter((w) => w.inserted).length;
      result.revised += written.filter((w) => !w.inserted).length;
      result.settled += settled.length;
      if (settled.length) {
        const locations = [...new Set(settled.map((s) => s.locationId))];
        const total = settled.reduce((n, s) => n + s.totalFen, 0);
        event = await this.events.record(
          {
            kind: 'sale.settled',
            summary: `${settled.length} sale(s) settled, ${total} fen${locations.length === 1 ? ` at ${locations[0]}` : ` across ${locations.length} machines`}`,
            reasoning: `ledger of ${ns}: orders read with trade status settled for the first time`,
            location: locations.length === 1 ? locations[0] : null,
            data: { namespace: ns, count: settled.length, total_fen: total, orders: settled.map((s) => ({ id: s.id, location: s.locationId, total_fen: s.totalFen })) },
          },
          m,
        );
      }
    });
    if (event) await this.events.publish(event);
  }

  private async recordLedgerOutcome(r: LedgerSyncResult, trigger: string, fromMs: number, toMs: number, ms: number): Promise<void> {
    const at = new Date();
    const data = {
      scope: 'ledger',
      trigger,
      namespace: r.namespace,
      from_ms: fromMs,
      to_ms: toMs,
      pages: r.pages,
      read: r.read,
      inserted: r.inserted,
      revised: r.revised,
      settled: r.settled,
      refused: capped(r.refused),
      warnings: capped(r.warnings),
      duration_ms: ms,
    };
    if (r.failure) {
      await this.state.recordFailure(ledgerJob(r.namespace), at, r.failure);
      await this.events.record({
        kind: 'partner.error',
        summary: `sales ledger of ${r.namespace} could not be read completely`,
        reasoning: r.failure,
        data: { namespace: r.namespace, operation: 'ledger' },
      });
      await this.events.record({
        kind: 'sync.failed',
        summary: `ledger sync of ${r.namespace} failed after ${r.pages} page(s); the ${r.inserted + r.revised} order(s) stored are kept`,
        reasoning: r.failure,
        data,
      });
      return;
    }
    await this.state.recordSuccess(ledgerJob(r.namespace), at);
    await this.events.record({
      kind: 'sync.completed',
      summary: `ledger sync of ${r.namespace}: ${r.read} record(s), ${r.inserted} new, ${r.revised} revised`,
      reasoning: r.refused.length ? `${r.refused.length} record(s) refused as non-conforming` : 'every record conformed',
      data,
    });
  }

  private machineAdapter(ns: string, capability: string): { ok: true; adapter: MachineAdapter } | { ok: false; why: string } {
    try {
      return { ok: true, adapter: this.registry.machine(ns, capability) };
    } catch (err) {
      return { ok: false, why: failureReason(err) };
    }
  }
}

function capped(list: string[]): string[] {
  if (list.length <= MAX_WARNINGS) return list;
  return [...list.slice(0, MAX_WARNINGS), `... and ${list.length - MAX_WARNINGS} more`];
}
