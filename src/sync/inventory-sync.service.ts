import { Injectable, Logger } from '@nestjs/common';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { refusedItemText, toSlotRows } from '../inventory/inventory.rules';
import { SlotsRepository } from '../inventory/slots.repository';
import { LocationRecord } from '../locations/locations.rules';
import { MachineAdapter } from '../partners/adapter.types';
import { failureReason } from '../partners/partner-failure';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { PriceAuditService } from '../price-audit/price-audit.service';
import { SyncStateRepository } from './sync-state.repository';
import { capped, inventoryJob, mapLimit, SYNC_CONCURRENCY } from './sync.rules';

export interface InventorySyncResult {
  attempted: number;
  synced: number;
  products: Set<string>;
  slots: number;
  removed: number;
  failures: { location: string; namespace: string; reason: string }[];
  warnings: string[];
}

/**
 * Machine inventory into `slots`: one upsert per machine, at most SYNC_CONCURRENCY machines in flight; a machine
 * that cannot be read keeps what is stored, and is recorded (`partner.error`, `sync.failed`, its sync state); the
 * machines read are then audited for prices changed at the machine.
 */
@Injectable()
export class InventorySyncService {
  private readonly logger = new Logger(InventorySyncService.name);
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly slots: SlotsRepository,
    private readonly state: SyncStateRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
    private readonly priceAudit: PriceAuditService,
  ) {}

  /** `serviceNow`: the service clock, whose +08:00 day each machine's stock reading is recorded under. */
  async syncInventory(locations: LocationRecord[], trigger: 'manual' | 'scheduled', serviceNow: () => Date): Promise<InventorySyncResult> {
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
      const adapter = machineAdapter(this.registry, loc.namespace, 'inventory');
      if (!adapter.ok) throw new Error(adapter.why);
      const answer = await adapter.adapter.getInventory(loc.id);
      const built = toSlotRows(loc.id, loc.namespace, answer.items, answer.rejected);
      const written = await this.slots.replaceForLocation(loc.id, built.rows, {
        removeOthersExcept: built.canRemove ? built.keepIds : null,
        readAt: serviceNow(),
      });
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
}

/** The machine platform's adapter for a capability, or why there is none (a sync records it and goes on). */
export function machineAdapter(registry: PartnerRegistry, ns: string, capability: string): { ok: true; adapter: MachineAdapter } | { ok: false; why: string } {
  try {
    return { ok: true, adapter: registry.machine(ns, capability) };
  } catch (err) {
    return { ok: false, why: failureReason(err) };
  }
}
