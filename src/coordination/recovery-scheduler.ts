import { Inject, Injectable, Type } from '@nestjs/common';
import { ExclusiveIntervalJob } from './exclusive-interval-job';
import { JobScheduling } from './job-scheduling';

/** Every recovery pass runs once a minute (across all instances). */
export const RECOVERY_EVERY_MS = 60_000;

/** What a capability's recovery offers its scheduler: one pass over the claims left past their lease. */
export interface ExpiredClaimsRecovery<T> {
  recoverExpired(): Promise<T>;
}

/** A recovery scheduler: a job whose pass is its capability's `recoverExpired()`. */
export type RecoveryScheduler<T> = ExclusiveIntervalJob<T>;

/**
 * The one recovery scheduler of the money claims (checkout sessions, replenishment runs, restock sends, approval
 * executions): every minute, on one instance at a time across all that share the database (the job's lock under
 * `name`), one pass of `recovery.recoverExpired()`, which settles the claims left past their lease by READING the
 * partner (src/claims). A capability declares only its lock name and its recovery service:
 * ```ts
 * export const CheckoutRecoveryScheduler = recoveryScheduler('checkout.recovery', CheckoutRecoveryService);
 * ```
 * The class it answers is the Nest provider (listed in the capability's module; `app.get(...).tick()` runs a pass).
 */
export function recoveryScheduler<T>(name: string, recovery: Type<ExpiredClaimsRecovery<T>>): Type<RecoveryScheduler<T>> {
  @Injectable()
  class Scheduler extends ExclusiveIntervalJob<T> {
    constructor(scheduling: JobScheduling, @Inject(recovery) private readonly service: ExpiredClaimsRecovery<T>) {
      super(scheduling, name, RECOVERY_EVERY_MS);
    }

    protected pass(): Promise<T> {
      return this.service.recoverExpired();
    }
  }
  Object.defineProperty(Scheduler, 'name', { value: `RecoveryScheduler(${name})` });
  return Scheduler;
}
