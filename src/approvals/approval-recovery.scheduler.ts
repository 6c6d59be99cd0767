import { recoveryScheduler } from '../coordination/recovery-scheduler';
import { ApprovalsService } from './approvals.service';

/** The lock and interval name (stable: other instances and versions take the same lock). */
export const APPROVAL_RECOVERY_INTERVAL = 'approvals.recovery';

/**
 * Every minute, one instance at a time, settles approvals left `executing` past their claim's lease by reading the
 * effect of their execution (ApprovalsService.recoverExpired). GET and resolve of such an approval recover it too.
 */
export const ApprovalRecoveryScheduler = recoveryScheduler(APPROVAL_RECOVERY_INTERVAL, ApprovalsService);
