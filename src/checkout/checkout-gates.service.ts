import { Inject, Injectable } from '@nestjs/common';
import { UcpMessage } from '../common/envelope/envelope';
import { DomainError } from '../common/errors/errors';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { GuardsService } from '../guards/guards.service';
import { KillSwitchService } from '../guards/kill-switch.service';
import { SupplyAdapter } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { CheckoutSessionEntity } from './checkout-session.entity';

/**
 * The gates of a complete before anything is held: the kill switch, the supplier (registered, able to take
 * orders), staging's no-spend rule and the guard rules; and the refusals of a claim that parked the session. Each
 * refusal is recorded as a `checkout.rejected` event (nothing was spent, no supplier was called).
 */
@Injectable()
export class CheckoutGatesService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly guards: GuardsService,
    private readonly killSwitch: KillSwitchService,
    private readonly events: EventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** One guard snapshot for the request: the gates and the claim's evaluation read the guard row once. */
  withSnapshot<T>(fn: () => Promise<T>): Promise<T> {
    return this.guards.withSnapshot(fn);
  }

  /** Passes the gates or refuses (recorded); answers the supplier's adapter that the complete will call. */
  async open(session: CheckoutSessionEntity): Promise<SupplyAdapter> {
    await this.refuseUnless(session, () => this.killSwitch.assertOff());
    const entry = this.registry.entry(session.namespace);
    const adapter = await this.refuseUnless(session, async () => this.registry.supply(session.namespace, 'orders'));
    if (this.config.env === 'staging' && !entry?.simulated) {
      await this.recordRefusal(session, 'staging_no_spend', 'staging never spends on a registered HTTP supplier');
      throw new DomainError('staging_no_spend', `staging never places orders with the registered supplier ${session.namespace}; nothing was called`, {
        severity: 'unrecoverable',
        subject: session,
      });
    }
    await this.refuseUnless(session, () => this.guards.rules());
    return adapter;
  }

  /** The refusal of a session the claim's evaluation parked: an owner approval is pending, or it is not ready. */
  async refuseParked(row: CheckoutSessionEntity): Promise<never> {
    const pending = row.status === 'requires_escalation';
    await this.recordRefusal(row, pending ? 'approval_required' : 'incomplete', pending ? 'an owner approval is needed' : 'the session is not ready');
    if (pending) {
      // The session's own approval_required messages name the approvals it waits on (their ids).
      const waits = (row.messages as unknown as UcpMessage[]).filter((m) => m.code === 'approval_required').map((m) => m.content);
      throw new DomainError('approval_required', `an owner approval is needed before this session can be completed${waits.length ? `: ${waits.join('; ')}` : ''}`, {
        severity: 'requires_buyer_review',
        subject: row,
      });
    }
    throw new DomainError('invalid_state', 'the session is not ready for complete; see messages', {
      severity: 'recoverable',
      extra: row.messages as unknown as UcpMessage[],
      subject: row,
    });
  }

  private async refuseUnless<T>(session: CheckoutSessionEntity, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof DomainError) {
        await this.recordRefusal(session, err.code, err.message);
        throw err.with({ subject: session });
      }
      throw err;
    }
  }

  private async recordRefusal(session: CheckoutSessionEntity, code: string, why: string): Promise<void> {
    await this.events.record({
      kind: 'checkout.rejected',
      summary: `checkout ${session.id} not completed: ${code}`,
      reasoning: `${why}; nothing was spent and no supplier was called`,
      data: { session_id: session.id, namespace: session.namespace, code },
    });
  }
}
