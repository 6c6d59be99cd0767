import { Injectable } from '@nestjs/common';
import { MoneyClaims } from '../claims/money-claims.service';
import { message, UcpMessage, warning } from '../common/envelope/envelope';
import { DomainError, Errors } from '../common/errors/errors';
import { KillSwitchService } from '../guards/kill-switch.service';
import { isLocationId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { answeredAccepted, storedRequestStep } from './restock-claim.rules';
import { RestockOrderEntity } from './restock-order.entity';
import { RestockDeliveryService } from './restock-delivery.service';
import { RestockRecoveryService } from './restock-recovery.service';
import { bindingRoomProblem, checkRestockLines, restockFingerprint, RestockLineInput } from './restock.rules';
import { RestockRepository } from './restock.repository';

/** What a restock request came to: the stored request's answer, and the messages about how it was obtained. */
export interface RestockAnswer {
  locationId: string;
  reference: string;
  binding: boolean;
  accepted: number;
  /** Binding requests: the platform's own order number, null when it gave none. */
  externalRef: string | null;
  messages: UcpMessage[];
}

/**
 * `POST /locations/{id}/restock`: a recommendation (binding false) or an order (binding true) sent to the machine
 * platform, on the money-claims core: (namespace, reference) is claimed with a lease in the database before the
 * platform is called once; the answer is recorded; a send whose answer was never recorded (its sender died, or the
 * call got no usable answer) is settled by READING `GET /restock/{ref}` (RestockRecoveryService), never by sending
 * again. So the same reference never produces a second platform request while its outcome is unknown.
 */
@Injectable()
export class RestockService {
  constructor(
    private readonly repo: RestockRepository,
    private readonly registry: PartnerRegistry,
    private readonly killSwitch: KillSwitchService,
    private readonly claims: MoneyClaims,
    private readonly recovery: RestockRecoveryService,
    private readonly delivery: RestockDeliveryService,
  ) {}

  async send(locationId: string, body: { reference: string; binding?: boolean; line_items: RestockLineInput[] }): Promise<RestockAnswer> {
    if (!isLocationId(locationId)) throw Errors.invalid('$.location', 'location id must be 1-64 letters, digits, ".", "_" or "-"');
    const binding = body.binding ?? false;
    const location = await this.repo.location(locationId);
    if (!location) throw Errors.notFound(`location ${locationId}`);
    const checked = checkRestockLines(body.line_items, binding, location.namespace);
    if (!checked.ok) throw new DomainError(checked.problem.code, checked.problem.text, { path: checked.problem.path });
    const { namespace, lines } = checked.value;
    const capability = binding ? 'replenishment.order' : 'replenishment.recommend';
    const adapter = this.registry.machine(namespace, capability, '$.binding');
    const fingerprint = restockFingerprint(locationId, binding, lines);

    let row = await this.repo.find(namespace, body.reference);
    if (!row) {
      await this.killSwitch.assertOff();
      if (binding) await this.assertRoom(locationId, body.line_items);
      row = await this.repo.claim({ namespace, reference: body.reference, locationId, binding, lines, fingerprint });
      if (row) return this.answer(await this.delivery.deliver(row, adapter));
      row = (await this.repo.find(namespace, body.reference))!; // another caller claimed it first
    }
    const settled = await this.settleStored(row, fingerprint);
    if (settled) return settled;
    // Failed before (refused, or unknown to the platform): the caller resends the same reference.
    await this.killSwitch.assertOff();
    if (binding) await this.assertRoom(locationId, body.line_items);
    const claimed = await this.repo.reclaimFailed(row.id);
    if (!claimed) throw this.inProgress(row.reference, null);
    return this.answer(await this.delivery.deliver(claimed, adapter));
  }

  /**
   * A binding order stays within the slots' room where their capacity is known (issue 37), checked before each send
   * (never on a replay of a stored answer). No confirm: the spec says no money moves.
   */
  private async assertRoom(locationId: string, lines: RestockLineInput[]): Promise<void> {
    const slots = await this.repo.slotsOf(locationId, lines.map((l) => l.item.id));
    const problem = bindingRoomProblem(lines, slots);
    if (problem) throw new DomainError(problem.code, problem.text, { path: problem.path });
  }

  /**
   * Settles a stored request by reading the platform (the machine-restock run recovery: the run's own lease is over,
   * so the request's claim is too). `accepted` also covers a recommendation settled without confirmation.
   */
  async settleInterrupted(namespace: string, reference: string): Promise<'accepted' | 'failed' | 'unknown'> {
    const row = await this.repo.find(namespace, reference);
    if (!row) return 'failed';
    if (row.status !== 'sending') return row.status === 'failed' ? 'failed' : 'accepted';
    const { outcome } = await this.recovery.recover(row);
    if (outcome === 'moved') return this.settleInterrupted(namespace, reference);
    return outcome === 'not_placed' ? 'failed' : outcome === 'unknown' ? 'unknown' : 'accepted';
  }

  /** The stored answer, a 409, or null when the request failed and may be sent again. Recovers an expired claim. */
  private async settleStored(row: RestockOrderEntity, fingerprint: string): Promise<RestockAnswer | null> {
    const step = storedRequestStep({ status: row.status, sameRequest: row.fingerprint === fingerprint, claimExpired: this.claims.expired(row.claimedAt) });
    switch (step) {
      case 'conflict':
        throw Errors.conflict('reference_conflict', `reference ${row.reference} was used for another restock request`, '$.reference');
      case 'replay':
        return this.answer(row);
      case 'resend':
        return null;
      case 'in_progress':
        throw this.inProgress(row.reference, row.claimedAt);
      case 'recover': {
        const { row: after, outcome } = await this.recovery.recover(row);
        if (outcome === 'unknown') {
          throw Errors.conflict(
            'restock_in_progress',
            `the outcome of restock ${row.reference} is not known yet: its send was interrupted and ${row.namespace}'s GET /restock/${row.reference} gave no usable answer; nothing was sent again; it is read again every minute, send the same reference later`,
            '$.reference',
          ).with({ retryAfterSeconds: this.claims.retryAfter(new Date()) });
        }
        // Settled here or meanwhile: the stored answer, or null to resend; a send claimed meanwhile is in progress.
        if (after.status === 'sending') throw this.inProgress(row.reference, after.claimedAt);
        return this.settleStored(after, fingerprint);
      }
    }
  }

  /** 409 while a send is in progress, with `Retry-After` from its claim (issue 27). */
  private inProgress(reference: string, claimedAt: Date | null): DomainError {
    return Errors.conflict('restock_in_progress', `restock ${reference} is being sent`, '$.reference').with({ retryAfterSeconds: this.claims.retryAfter(claimedAt) });
  }

  private answer(row: RestockOrderEntity): RestockAnswer {
    const messages: UcpMessage[] = [];
    if (row.recovered === 'read') {
      messages.push(
        message('restock_recovered', 'info', `the platform's answer was read on GET /restock/${row.reference} after an interrupted send; nothing was sent again; accepted counts the request's lines`, '$.accepted'),
      );
    }
    if (row.recovered === 'unconfirmed') {
      messages.push(
        warning('restock_unconfirmed', `the send of ${row.reference} was interrupted and ${row.namespace} cannot be asked whether it received it; it was not sent again; send it under a new reference if it is still needed`, '$.reference'),
      );
    } else if (row.binding && !row.externalRef) {
      messages.push(warning('external_ref_missing', `${row.namespace} did not return its own order number for this binding order`, '$.external_ref'));
    }
    return {
      locationId: row.locationId,
      reference: row.reference,
      binding: row.binding,
      accepted: answeredAccepted({ accepted: row.accepted, recovered: row.recovered, lineCount: row.lines.length }),
      externalRef: row.externalRef,
      messages,
    };
  }
}
