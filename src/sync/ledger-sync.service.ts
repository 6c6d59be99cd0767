import { Injectable, Logger } from '@nestjs/common';
import { failureReason } from '../partners/partner-failure';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { LedgerPage, MachineAdapter } from '../partners/adapter.types';
import { latestPerOrder, SaleLineRow, SaleOrderRow, toSaleRows } from '../sales/sale-order.rules';
import { SalesRepository } from '../sales/sales.repository';
import { SyncStateRepository } from './sync-state.repository';
import { capped, LEDGER_PAGE_SIZE, ledgerJob } from './sync.rules';

/** A ledger run stops after this many pages (1,000,000 records) and says so; the next tick continues. */
const MAX_LEDGER_PAGES = 10_000;

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

/**
 * The sales ledger into `sale_orders`/`sale_lines`: pages of 100 read by update time, each page upserted in one
 * transaction (the next page is fetched while one is written). A failure keeps what is stored and marks the copy stale.
 */
@Injectable()
export class LedgerSyncService {
  private readonly logger = new Logger(LedgerSyncService.name);
  constructor(
    private readonly tx: Tx,
    private readonly sales: SalesRepository,
    private readonly state: SyncStateRepository,
    private readonly events: EventsService,
  ) {}

  /** A scheduled ledger sync that could not run (no usable adapter): its sync state and a `sync.failed` event. */
  async recordNotRun(ns: string, why: string): Promise<void> {
    await this.tx.run(async () => {
      await this.state.recordFailure(ledgerJob(ns), new Date(), why);
      await this.events.record({ kind: 'sync.failed', summary: `scheduled ledger sync of ${ns} not run`, reasoning: why, data: { scope: 'ledger', namespace: ns } });
    });
  }

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
    await this.tx.run(async () => {
      const written = await this.sales.upsertBatch(orders, lines);
      const settled = written.filter((w) => w.tradeStatus === 'settled' && w.previousStatus !== 'settled');
      result.inserted += written.filter((w) => w.inserted).length;
      result.revised += written.filter((w) => !w.inserted).length;
      result.settled += settled.length;
      if (settled.length) {
        const locations = [...new Set(settled.map((s) => s.locationId))];
        const total = settled.reduce((n, s) => n + s.totalFen, 0);
        await this.events.record({
          kind: 'sale.settled',
          summary: `${settled.length} sale(s) settled, ${total} fen${locations.length === 1 ? ` at ${locations[0]}` : ` across ${locations.length} machines`}`,
          reasoning: `ledger of ${ns}: orders read with trade status settled for the first time`,
          location: locations.length === 1 ? locations[0] : null,
          data: { namespace: ns, count: settled.length, total_fen: total, orders: settled.map((s) => ({ id: s.id, location: s.locationId, total_fen: s.totalFen })) },
        });
      }
    });
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
    const failure = r.failure;
    // The job's bookkeeping and the events that report it, in one transaction.
    await this.tx.run(async () => {
      if (failure) {
        await this.state.recordFailure(ledgerJob(r.namespace), at, failure);
        await this.events.record({
          kind: 'partner.error',
          summary: `sales ledger of ${r.namespace} could not be read completely`,
          reasoning: failure,
          data: { namespace: r.namespace, operation: 'ledger' },
        });
        await this.events.record({
          kind: 'sync.failed',
          summary: `ledger sync of ${r.namespace} failed after ${r.pages} page(s); the ${r.inserted + r.revised} order(s) stored are kept`,
          reasoning: failure,
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
    });
  }
}
