import { Injectable, OnModuleInit } from '@nestjs/common';
import { PriceChangeApprovalSubject } from '../approvals/approval-subjects';
import { ApprovalsService, Approval, ExecutionRead, RecordEffect } from '../approvals/approvals.service';
import { GuardsService } from '../guards/guards.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { setPricesOnPlatform } from './platform-prices';
import { PriceChangesService } from './price-changes.service';
import { PriceRecordRepository } from './price-record.repository';

/**
 * The `price_change` approval: executing an approved change (POST /prices, kill switch checked then) and recovering
 * an interrupted execution. The slot's new price and its event are recorded (PriceChangesService) in the transaction that marks
 * the approval approved (ApprovalsService), so an execution whose effect is recorded is finished (issue 27).
 */
@Injectable()
export class PriceApprovalHandler implements OnModuleInit {
  constructor(
    private readonly record: PriceRecordRepository,
    private readonly registry: PartnerRegistry,
    private readonly guards: GuardsService,
    private readonly killSwitch: KillSwitchService,
    private readonly approvals: ApprovalsService,
    private readonly changes: PriceChangesService,
  ) {}

  onModuleInit(): void {
    this.approvals.registerHandler('price_change', {
      onApproved: (a, s) => this.execute(a, s),
      onRejected: async (a, s) => () => this.changes.recordNotMade(a, s, 'rejected; the price stays as it was'),
      recover: (a, s, approved) => this.recover(a, s, approved),
    });
  }

  /** Executes the parked change now (kill switch and guard rules checked at this moment); returns its recording. */
  private async execute(a: Approval, s: PriceChangeApprovalSubject): Promise<RecordEffect> {
    await this.killSwitch.assertOff();
    await this.guards.rules();
    const adapter = this.registry.machine(s.namespace, 'pricing');
    const result = await setPricesOnPlatform(adapter, s.location, [{ vendorSku: s.vendor_sku, priceFen: s.price_fen }]);
    const u = result.updated.find((x) => x.vendorSku === s.vendor_sku);
    return () => this.changes.recordApproved(a, s, u?.priceFen ?? s.price_fen, u?.previousFen ?? s.current_fen, 'the kill switch was off when it was executed');
  }

  /**
   * An interrupted execution, read from the service's own record first and the platform second (never set again):
   * - a rejection only unlocks: done;
   * - a `price.changed` event names the approval: its effect was recorded, so it is finished (whatever the platform
   *   shows now: a later acknowledged change may have moved the price on);
   * - a later acknowledged change of the item was recorded after the approval was requested: superseded, finished
   *   without sending anything (the later price stands);
   * - the platform shows the approved price: done, recorded now; another price: not done (pending again, the slot
   *   stays locked); the platform cannot be read: throws (unknown, read again later).
   */
  private async recover(a: Approval, s: PriceChangeApprovalSubject, approved: boolean): Promise<ExecutionRead> {
    if (!approved) return { outcome: 'placed', record: () => this.changes.recordNotMade(a, s, 'rejected; the price stays as it was') };
    if (await this.record.approvalRecorded(s.location, a.id)) return { outcome: 'placed' };
    const later = (await this.record.changesSince(s.location, s.item_id, a.requestedAt)).filter((c) => c.approvalId !== a.id);
    if (later.length) {
      const last = later[later.length - 1];
      return {
        outcome: 'placed',
        record: () => this.changes.recordNotMade(a, s, `approved, but a later acknowledged change set ${last.priceFen} fen; ${s.price_fen} fen is not sent again`),
      };
    }
    const { items } = await this.registry.machine(s.namespace, 'inventory').getInventory(s.location);
    const item = items.find((i) => i.vendorSku === s.vendor_sku);
    if (!item || item.priceFen !== s.price_fen) return { outcome: 'not_placed' };
    return {
      outcome: 'placed',
      record: () => this.changes.recordApproved(a, s, s.price_fen, s.current_fen, 'its execution was interrupted and GET /inventory shows the new price; nothing was sent again'),
    };
  }
}
