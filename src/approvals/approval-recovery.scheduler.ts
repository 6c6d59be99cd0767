import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RecoveryTally } from '../claims/claim.rules';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobLockService } from '../coordination/job-lock.service';
import { ApprovalsService } from './approvals.service';

export const APPROVAL_RECOVERY_INTERVAL = 'approvals.recovery';
export const APPROVAL_RECOVERY_EVERY_MS = 60_000;

/**
 * Every minute, one instance at a time, settles approvals left `executing` past their claim's lease by reading the
 * effect of their execution (ApprovalsService.recoverExpired). GET and resolve of such an approval recover it too.
 */
@Injectable()
export class ApprovalRecoveryScheduler extends ExclusiveIntervalJob<RecoveryTally> {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    schedulerRegistry: SchedulerRegistry,
    locks: JobLockService,
    private readonly approvals: ApprovalsService,
  ) {
    super(APPROVAL_RECOVERY_INTERVAL, APPROVAL_RECOVERY_EVERY_MS, config, schedulerRegistry, locks);
  }

  protected pass(): Promise<RecoveryTally> {
    return this.approvals.recoverExpired();
  }
}
