import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobLockService } from '../coordination/job-lock.service';
import { RunRecoveryPass, RunRecoveryService } from './run-recovery.service';

export const RUN_RECOVERY_INTERVAL = 'replenishment.recovery';
export const RUN_RECOVERY_EVERY_MS = 60_000;

/**
 * Every minute, one instance at a time, settles replenishment runs left in `placing` past their claim's lease by
 * reading their fulfiller (RunRecoveryService.recoverExpired). GET and place of such a run recover it on demand too.
 */
@Injectable()
export class RunRecoveryScheduler extends ExclusiveIntervalJob<RunRecoveryPass> {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    schedulerRegistry: SchedulerRegistry,
    locks: JobLockService,
    private readonly recovery: RunRecoveryService,
  ) {
    super(RUN_RECOVERY_INTERVAL, RUN_RECOVERY_EVERY_MS, config, schedulerRegistry, locks);
  }

  protected pass(): Promise<RunRecoveryPass> {
    return this.recovery.recoverExpired();
  }
}
