import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { failureReason } from '../partners/partner-failure';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { RestockRepository } from './restock.repository';
import { RESTOCK_MACHINE, RestockStatus } from './restock.rules';

const BATCH = 200;
const KNOWN = new Set(['pending', 'in_progress', 'completed', 'cancelled']);

export interface FollowUpResult {
  checked: number;
  completed: number;
  cancelled: number;
  failed: number;
}

/** Called after every follow-up pass (e.g. replenishment runs delivered by their platform's completed orders). */
export type FollowUpListener = (result: FollowUpResult) => Promise<void>;

/**
 * Follows binding restock orders on the platform's `GET /restock/{ref}` every five minutes (RestockFollowUpJob):
 * status, delivered quantities, completion time. A completion is recorded as an event and, through
 * `restock_orders.completed_at`, feeds the platform's measured lead time. Reads only: safe to repeat. Listeners run
 * after each pass (replenishment runs placed as restock orders are delivered there).
 */
@Injectable()
export class RestockFollowUpService {
  private readonly logger = new Logger(RestockFollowUpService.name);
  private readonly listeners: FollowUpListener[] = [];
  constructor(
    private readonly repo: RestockRepository,
    private readonly registry: PartnerRegistry,
    private readonly events: EventsService,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  /** Registers a listener run after each pass; its failure is logged and never fails the pass. */
  onFollowedUp(listener: FollowUpListener): void {
    this.listeners.push(listener);
  }

  async followUp(): Promise<FollowUpResult> {
    const out: FollowUpResult = { checked: 0, completed: 0, cancelled: 0, failed: 0 };
    for (const row of await this.repo.open(BATCH)) {
      out.checked++;
      let state;
      try {
        state = await this.registry.machine(row.namespace, 'replenishment.order').getRestock(row.reference);
      } catch (err) {
        out.failed++;
        await this.repo.update(row.id, { checkedAt: new Date() });
        const why = failureReason(err);
        this.logger.warn(`restock ${row.reference} on ${row.namespace}: status not read (${why})`);
        continue;
      }
      if (!KNOWN.has(state.status)) {
        out.failed++;
        await this.repo.update(row.id, { checkedAt: new Date() });
        continue;
      }
      const done = state.status === 'completed';
      const completedAt = done ? new Date(state.completedAt ?? this.clock.nowMs()) : null;
      if (done) out.completed++;
      else if (state.status === 'cancelled') out.cancelled++;
      await this.tx.run(async () => {
        await this.repo.update(row.id, {
          status: RESTOCK_MACHINE.move(row.status, state.status as RestockStatus),
          delivered: state.delivered,
          completedAt,
          checkedAt: new Date(),
          ...(state.externalRef && !row.externalRef ? { externalRef: state.externalRef } : {}),
        });
        if (!done && state.status !== 'cancelled') return;
        const days = done && row.sentAt ? Math.round(((completedAt!.getTime() - row.sentAt.getTime()) / 86_400_000) * 100) / 100 : null;
        await this.events.record({
          kind: done ? 'restock.completed' : 'restock.cancelled',
          summary: `restock order ${row.reference} at ${row.locationId} ${done ? 'completed' : 'cancelled'} on ${row.namespace}`,
          reasoning: done
            ? `the platform delivered ${state.delivered.reduce((t, d) => t + d.quantity, 0)} unit(s); lead time ${days} day(s) feeds the measured lead time`
            : 'the platform cancelled the order',
          location: row.locationId,
          data: { reference: row.reference, namespace: row.namespace, status: state.status, delivered: state.delivered, lead_time_days: days },
        });
      });
    }
    for (const listener of this.listeners) {
      try {
        await listener(out);
      } catch (err) {
        this.logger.warn(`restock follow-up listener failed: ${(err as Error).message}`);
      }
    }
    return out;
  }
}
