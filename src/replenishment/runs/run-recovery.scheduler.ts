import { Injectable } from '@nestjs/common';
import { ExclusiveIntervalJob } from '../../coordination/exclusive-interval-job';
import { JobScheduling } from '../../coordination/job-scheduling';
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
    scheduling: JobScheduling,
    private readonly recovery: RunRecoveryService,
  ) {
    super(scheduling, RUN_RECOVERY_INTERVAL, RUN_RECOVERY_EVERY_MS);
  }

  protected pass(): Promise<RunRecoveryPass> {
    return this.recovery.recoverExpired();
  }
}
