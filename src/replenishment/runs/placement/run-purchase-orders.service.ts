import { Injectable } from '@nestjs/common';
import { CheckoutRepository } from '../../../checkout/checkout.repository';
import { CheckoutService } from '../../../checkout/checkout.service';
import { CheckoutSessionEntity } from '../../../checkout/checkout-session.entity';
import { RunLine } from '../replenishment-run.entity';
import { runCheckoutId, runPurchaseFulfillment } from '../run-lines.rules';
import type { CheckoutSessionInput } from '../../../checkout/checkout-session.input';


/**
 * The purchase orders (checkout sessions) of a supply-checkout run, as a repair changes them before the run is
 * placed: read, cancelled, or updated to drop refused lines. None of them is completed here (nothing is sent).
 */
@Injectable()
export class RunPurchaseOrdersService {
  constructor(
    private readonly sessions: CheckoutRepository,
    private readonly checkout: CheckoutService,
  ) {}

  /** Every purchase order of the run, whatever its status. */
  ofRun(runId: string): Promise<CheckoutSessionEntity[]> {
    return this.sessions.byRun(runId);
  }

  /** Cancels each of them not already cancelled. */
  async cancelAll(sessions: CheckoutSessionEntity[]): Promise<void> {
    for (const s of sessions) if (s.status !== 'canceled') await this.checkout.cancel(s.id);
  }

  /**
   * Drops the refused items from the open purchase orders of run `runId`: one whose supplier is no longer among
   * `suppliers` (every line of it was refused) is cancelled, the others lose their refused lines (quantity 0), and
   * their destination names the machines of the lines `kept` (the run's approval names that very purchase order).
   */
  async dropRefused(runId: string, open: CheckoutSessionEntity[], refused: string[], suppliers: Set<string>, kept: readonly RunLine[]): Promise<void> {
    for (const s of open) {
      const supplier = s.id.slice(runCheckoutId(runId, '').length);
      if (!suppliers.has(supplier)) {
        await this.checkout.cancel(s.id); // every line of it was refused
        continue;
      }
      const gone = s.lineItems.filter((l) => refused.includes(l.item_id));
      if (gone.length) {
        const body = {
          line_items: gone.map((l) => ({ item: { id: l.item_id }, quantity: 0, quantity_unit: { unit: l.unit } })),
          fulfillment: runPurchaseFulfillment(runId, kept, supplier),
        } as unknown as CheckoutSessionInput;
        await this.checkout.update(s.id, body);
      }
    }
  }
}
