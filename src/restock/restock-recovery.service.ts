import { Injectable, Logger } from '@nestjs/common';
import { ReadOutcome, RecoveryTally } from '../claims/claim.rules';
import { MoneyClaims } from '../claims/money-claims.service';
import { toPlus8 } from '../common/time';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { MachineAdapter } from '../partners/adapter.types';
import { failureReason } from '../partners/partner-failure';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { restockReadable, restockRecoveryStep } from './restock-claim.rules';
import { RestockOrderEntity } from './restock-order.entity';
import { RestockRepository } from './restock.repository';

/** What one recovery did: `unconfirmed` settles a recommendation that cannot be read; `moved`: settled meanwhile. */
export type RestockRecoveryOutcome = ReadOutcome | 'unconfirmed' | 'moved';

/**
 * Recovery of interrupted restock sends (the money-claims core): a request left `sending` past its claim's lease
 * (its sender died before recording the platform's answer) or whose call ended without a usable answer is settled
 * by READING the platform's `GET /restock/{ref}`, never by sending again (rules in restock-claim.rules.ts). Run on
 * a resend of the reference, by the machine-restock run recovery and every minute (RestockRecoveryScheduler). Not
 * under the kill switch: it only reads.
 */
@Injectable()
export class RestockRecoveryService {
  private readonly logger = new Logger(RestockRecoveryService.name);
  constructor(
    private readonly repo: RestockRepository,
    private readonly registry: PartnerRegistry,
    private readonly claims: MoneyClaims,
    private readonly events: EventsService,
    private readonly tx: Tx,
  ) {}

  /** Scheduled: every expired claim (database clock), oldest first, up to `limit`. */
  async recoverExpired(limit = 50): Promise<RecoveryTally & { unconfirmed: number }> {
    const stuck = await this.repo.expiredSending(this.claims.leaseMs, limit);
    let unconfirmed = 0;
    const t = await this.claims.recoverAll(stuck, async (row) => {
      const outcome = (await this.recover(row)).outcome;
      if (outcome !== 'unconfirmed') return outcome;
      unconfirmed++;
      return 'moved';
    });
    return { ...t, unconfirmed };
  }

  /** Settles one stuck request (the caller decided its claim is over); the row as it is afterwards. */
  async recover(stuck: RestockOrderEntity): Promise<{ row: RestockOrderEntity; outcome: RestockRecoveryOutcome }> {
    const what = `restock ${stuck.reference} on ${stuck.namespace}`;
    let adapter: MachineAdapter;
    try {
      adapter = this.registry.machine(stuck.namespace, stuck.binding ? 'replenishment.order' : 'replenishment.recommend');
    } catch (err) {
      this.logger.warn(`${what}: interrupted send not settled, the platform is not usable (${failureReason(err)}); read again on the next tick`);
      return { row: stuck, outcome: 'unknown' };
    }
    let read: ReadOutcome | 'not_readable' = 'not_readable';
    let externalRef: string | null = null;
    let why = 'the platform does not serve GET /restock/{ref} (it declares no replenishment.order)';
    if (restockReadable(adapter.capabilities)) {
      const r = await this.claims.read(() => adapter.getRestock(stuck.reference));
      read = r.outcome;
      if (r.outcome === 'placed') {
        externalRef = r.value.externalRef;
        why = `GET /restock/${stuck.reference} shows it (${r.value.status})`;
      } else {
        why = `GET /restock/${stuck.reference}: ${r.failure.kind}${r.failure.httpStatus ? ` HTTP ${r.failure.httpStatus}` : ''}: ${r.failure.reason}`;
      }
    }
    const step = restockRecoveryStep(stuck.binding, read);
    if (step.step === 'leave') {
      this.logger.warn(`${what}: interrupted send not settled (${why}); nothing was sent again; read again on the next tick`);
      return { row: stuck, outcome: 'unknown' };
    }
    const claimed = stuck.claimedAt ? `claimed at ${toPlus8(stuck.claimedAt)}` : 'whose call got no usable answer';
    const moved = await this.tx.run(async () => {
      if (step.step === 'fail') return this.repo.settleClaim(stuck.id, stuck.claimedAt, 'failed');
      const settled = await this.repo.settleClaim(stuck.id, stuck.claimedAt, step.step === 'accept' ? step.status : 'sent', {
        externalRef,
        recovered: step.step === 'accept' ? 'read' : 'unconfirmed',
        // The platform took it while the claim was live, within a partner timeout: the claim time stands for the send.
        sentAt: stuck.claimedAt ?? stuck.createdAt,
      });
      if (!settled) return false;
      const kind = stuck.binding ? 'restock order' : 'restock recommendation';
      await this.events.record(
        step.step === 'accept'
          ? {
              kind: 'restock.sent',
              summary: `${kind} ${stuck.reference} to ${stuck.namespace} for ${stuck.locationId} found on the platform after an interrupted send`,
              reasoning: `a send ${claimed} did not record the platform's answer; ${why}; nothing was sent again`,
              location: stuck.locationId,
              data: { reference: stuck.reference, namespace: stuck.namespace, binding: stuck.binding, external_ref: externalRef, recovered: true },
            }
          : {
              kind: 'partner.error',
              summary: `${kind} ${stuck.reference} to ${stuck.namespace} for ${stuck.locationId}: delivery not confirmed`,
              reasoning: `a send ${claimed} did not record the platform's answer and ${why}; it is not sent again (the reference answers accepted 0 with a warning); send it under a new reference if it is still needed`,
              location: stuck.locationId,
              data: { reference: stuck.reference, namespace: stuck.namespace, binding: stuck.binding, recovered: 'unconfirmed' },
            },
      );
      return true;
    });
    const row = (await this.repo.find(stuck.namespace, stuck.reference)) ?? stuck;
    if (!moved) return { row, outcome: 'moved' };
    if (step.step === 'fail') this.logger.log(`${what}: the platform does not know the reference (${why}); it may be sent again`);
    return { row, outcome: step.step === 'accept' ? 'placed' : step.step === 'fail' ? 'not_placed' : 'unconfirmed' };
  }
}
