import { Injectable, Logger } from '@nestjs/common';
import { MoneyClaims } from '../claims/money-claims.service';
import { Clock } from '../common/clock';
import { Errors } from '../common/errors/errors';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { MachineAdapter } from '../partners/adapter.types';
import { partnerFailure } from '../partners/partner-failure';
import { RestockOrderEntity } from './restock-order.entity';
import { RESTOCK_MACHINE } from './restock.rules';
import { RestockRepository } from './restock.repository';

/** The one platform call of a claimed restock request (the money-claims core) and the recording of its answer. */
@Injectable()
export class RestockDeliveryService {
  private readonly logger = new Logger(RestockDeliveryService.name);
  constructor(
    private readonly repo: RestockRepository,
    private readonly events: EventsService,
    private readonly claims: MoneyClaims,
    private readonly tx: Tx,
    private readonly clock: Clock,
  ) {}

  /**
   * Calls the platform once for a claimed request and records its answer under that claim; answers the request as
   * sent (a failure throws, after the claim is settled or released).
   */
  async deliver(row: RestockOrderEntity, adapter: MachineAdapter): Promise<RestockOrderEntity> {
    const call = await this.claims.callOnce(() => adapter.sendRestock({ ref: row.reference, locationId: row.locationId, binding: row.binding, lines: row.lines }));
    if (!call.ok) {
      const refused = call.failure === 'refused';
      await this.tx
        .run(async () => {
          // Refused: nothing was taken, it may be sent again. Uncertain: the platform may hold it; the claim ends and
          // the same reference reads GET /restock/{ref} before anything is sent again.
          const moved = refused
            ? await this.repo.settleClaim(row.id, row.claimedAt, 'failed')
            : await this.repo.releaseClaim(row.id, row.claimedAt);
          if (!moved) return;
          await this.events.record({
            kind: 'partner.error',
            summary: `restock ${row.reference} to ${row.namespace} failed`,
            reasoning: refused
              ? `${call.reason}; not retried automatically, the same reference may be sent again`
              : `${call.reason}; the platform may hold it: never sent again, the same reference first reads GET /restock/${row.reference} (also every minute)`,
            location: row.locationId,
            data: { reference: row.reference, namespace: row.namespace, outcome: refused ? 'refused' : 'uncertain' },
          });
        })
        .catch((e: Error) => this.logger.error(`restock ${row.reference}: ${e.message}`));
      throw partnerFailure(call.error, {
        who: row.namespace,
        refused: (e) => Errors.upstreamRejected(row.namespace, 'the restock request', e.reason),
        defects: 'rethrow',
      });
    }
    const ack = call.value;
    const sentAt = this.clock.now();
    const status = RESTOCK_MACHINE.move('sending', row.binding ? 'pending' : 'sent');
    const recorded = await this.tx.run(async () => {
      if (!(await this.repo.settleClaim(row.id, row.claimedAt, status, { accepted: ack.accepted, externalRef: ack.externalRef, sentAt }))) return false;
      await this.events.record({
        kind: 'restock.sent',
        summary: `${row.binding ? 'restock order' : 'restock recommendation'} ${row.reference} sent to ${row.namespace} for ${row.locationId}`,
        reasoning: `${row.lines.length} line(s), ${ack.accepted} accepted${ack.externalRef ? `, platform order ${ack.externalRef}` : ''}`,
        location: row.locationId,
        data: { reference: row.reference, namespace: row.namespace, binding: row.binding, accepted: ack.accepted, external_ref: ack.externalRef },
      });
      return true;
    });
    if (!recorded) this.logger.warn(`restock ${row.reference}: accepted by ${row.namespace} after its claim was settled by recovery; the stored answer stands`);
    return { ...row, status, accepted: ack.accepted, externalRef: ack.externalRef, sentAt, recovered: null };
  }
}
