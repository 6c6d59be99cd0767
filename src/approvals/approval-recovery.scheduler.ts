import { Injectable } from '@nestjs/common';
import { RecoveryTally } from '../claims/claim.rules';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobScheduling } from '../coordination/job-scheduling';
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
    scheduling: JobScheduling,
    private readonly approvals: ApprovalsService,
  ) {
    super(scheduling, APPROVAL_RECOVERY_INTERVAL, APPROVAL_RECOVERY_EVERY_MS);
  }

  protected pass(): Promise<RecoveryTally> {
    return this.approvals.recoverExpired();
  }
}
