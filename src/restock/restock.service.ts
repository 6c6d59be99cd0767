import { Injectable, Logger } from '@nestjs/common';
import { failureOf, readOutcome } from '../claims/claim.rules';
import { UcpMessage, warning } from '../common/envelope';
import { DomainError, Errors } from '../common/errors';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import { isLocationId } from '../identifiers/identifiers';
import { MachineAdapter, RestockState } from '../partners/adapter.types';
import { partnerFailure } from '../partners/partner-failure';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { RestockOrderEntity } from './restock-order.entity';
import { checkRestockLines, RESTOCK_MACHINE, restockFingerprint, RestockLineInput } from './restock.rules';
import { RestockRepository } from './restock.repository';

export interface RestockAnswer {
  location: string;
  reference: string;
  binding: boolean;
  accepted: number;
  external_ref?: string;
  messages: UcpMessage[];
}

/**
 * `POST /locations/{id}/restock`: a recommendation (binding false) or an order (binding true) sent to the machine
 * platform. The reference is idempotent in the service too: (namespace, reference) is claimed in the database
 * before the platform is called, so the same reference never produces a second platform request.
 */
@Injectable()
export class RestockService {
  private readonly logger = new Logger(RestockService.name);
  constructor(
    private readonly repo: RestockRepository,
    private readonly registry: PartnerRegistry,
    private readonly killSwitch: KillSwitchService,
    private readonly events: EventsService,
    private readonly tx: Tx,
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
    if (row) {
      const replay = this.replayOrConflict(row, fingerprint);
      if (replay) return replay;
    }
    await this.killSwitch.assertOff();
    if (row) {
      // A request that failed before: the caller resends the same reference (the platform is idempotent by ref).
      if (!(await this.repo.reclaimFailed(row.id))) throw Errors.conflict('restock_in_progress', `restock ${body.reference} is being sent`, '$.reference');
    } else {
      row = await this.repo.claim({ namespace, reference: body.reference, locationId, binding, lines, fingerprint });
      if (!row) {
        const other = await this.repo.find(namespace, body.reference);
        const replay = other ? this.replayOrConflict(other, fingerprint) : null;
        if (replay) return replay;
        throw Errors.conflict('restock_in_progress', `restock ${body.reference} is being sent`, '$.reference');
      }
    }
    return this.deliver(row, adapter);
  }

  private async deliver(row: RestockOrderEntity, adapter: MachineAdapter): Promise<RestockAnswer> {
    let ack: { accepted: number; externalRef: string | null };
    try {
      ack = await adapter.sendRestock({ ref: row.reference, locationId: row.locationId, binding: row.binding, lines: row.lines });
    } catch (err) {
      await this.tx
        .run(async () => {
          await this.repo.update(row.id, { status: RESTOCK_MACHINE.move('sending', 'failed') });
          await this.events.record({
            kind: 'partner.error',
            summary: `restock ${row.reference} to ${row.namespace} failed`,
            reasoning: `${(err as Error).message}; not retried automatically, the same reference may be sent again`,
            location: row.locationId,
            data: { reference: row.reference, namespace: row.namespace },
          });
        })
        .catch((e: Error) => this.logger.error(`restock ${row.reference}: ${e.message}`));
      throw partnerFailure(err, {
        who: row.namespace,
        refused: (e) => Errors.upstreamRejected(row.namespace, 'the restock request', e.reason),
        defects: 'rethrow',
      });
    }
    const sentAt = new Date();
    const status = RESTOCK_MACHINE.move('sending', row.binding ? 'pending' : 'sent');
    await this.tx.run(async () => {
      await this.repo.update(row.id, { status, accepted: ack.accepted, externalRef: ack.externalRef, sentAt });
      await this.events.record({
        kind: 'restock.sent',
        summary: `${row.binding ? 'restock order' : 'restock recommendation'} ${row.reference} sent to ${row.namespace} for ${row.locationId}`,
        reasoning: `${row.lines.length} line(s), ${ack.accepted} accepted${ack.externalRef ? `, platform order ${ack.externalRef}` : ''}`,
        location: row.locationId,
        data: { reference: row.reference, namespace: row.namespace, binding: row.binding, accepted: ack.accepted, external_ref: ack.externalRef },
      });
    });
    return this.answer({ ...row, status, accepted: ack.accepted, externalRef: ack.externalRef, sentAt });
  }

  /**
   * A request left in `sending` by a process that died while the platform was being called (the caller knows its
   * claim is past its lease). Settled by READING the platform's `GET /restock/{ref}`, never by sending again: known
   * → stored with the platform's status (the retry then replays it); unknown to the platform (a refusal) → `failed`,
   * so the same reference may be sent again; no usable answer → `unknown`, left as it is. Not under the kill switch.
   */
  async settleInterrupted(namespace: string, reference: string): Promise<'accepted' | 'failed' | 'unknown'> {
    const row = await this.repo.find(namespace, reference);
    if (!row) return 'failed';
    if (row.status !== 'sending') return row.status === 'failed' ? 'failed' : 'accepted';
    let state: RestockState;
    try {
      state = await this.registry.machine(namespace, 'replenishment.order').getRestock(reference);
    } catch (err) {
      // Only a clear "reference unknown" (404 {ok:false}) means it was never taken; anything else may hide an order.
      if (readOutcome({ failed: failureOf(err) }) === 'not_placed') {
        return (await this.repo.settleSending(row.id, 'failed')) ? 'failed' : this.settleInterrupted(namespace, reference);
      }
      this.logger.warn(`restock ${reference} on ${namespace}: interrupted request not settled (${(err as Error).message})`);
      return 'unknown';
    }
    // Open as the platform took it: the follow-up records a completion or cancellation (with its event) as usual.
    const moved = await this.tx.run(async () => {
      const settled = await this.repo.settleSending(row.id, row.binding ? 'pending' : 'sent', {
        externalRef: state.externalRef,
        // The platform took it when it was claimed, within a partner timeout: the claim time stands for the send time.
        sentAt: row.createdAt,
      });
      if (!settled) return false;
      await this.events.record({
        kind: 'restock.sent',
        summary: `restock order ${reference} to ${namespace} for ${row.locationId} found on the platform after an interrupted send`,
        reasoning: `the request's sender stopped before recording the answer; GET /restock/${reference} shows it (${state.status}); nothing was sent again`,
        location: row.locationId,
        data: { reference, namespace, binding: row.binding, external_ref: state.externalRef, recovered: true },
      });
      return true;
    });
    if (!moved) return this.settleInterrupted(namespace, reference);
    return 'accepted';
  }

  /** The stored answer for a repeated reference, a 409 for another request under it, or null to (re)send. */
  private replayOrConflict(row: RestockOrderEntity, fingerprint: string): RestockAnswer | null {
    if (row.fingerprint !== fingerprint) {
      throw Errors.conflict('reference_conflict', `reference ${row.reference} was used for another restock request`, '$.reference');
    }
    if (row.status === 'failed') return null;
    if (row.status === 'sending') throw Errors.conflict('restock_in_progress', `restock ${row.reference} is being sent`, '$.reference');
    return this.answer(row);
  }

  private answer(row: RestockOrderEntity): RestockAnswer {
    const messages: UcpMessage[] = [];
    if (row.binding && !row.externalRef) {
      messages.push(warning('external_ref_missing', `${row.namespace} did not return its own order number for this binding order`, '$.external_ref'));
    }
    return {
      location: row.locationId,
      reference: row.reference,
      binding: row.binding,
      accepted: row.accepted ?? 0,
      ...(row.externalRef ? { external_ref: row.externalRef } : {}),
      messages,
    };
  }
}
