import { recoveryScheduler } from '../../../coordination/recovery-scheduler';
import { RunRecoveryService } from './run-recovery.service';

/** The lock and interval name (stable: other instances and versions take the same lock). */
export const RUN_RECOVERY_INTERVAL = 'replenishment.recovery';

/**
 * Every minute, one instance at a time, settles replenishment runs left in `placing` past their claim's lease by
 * reading their fulfiller (RunRecoveryService.recoverExpired). GET and place of such a run recover it on demand too.
 */
export const RunRecoveryScheduler = recoveryScheduler(RUN_RECOVERY_INTERVAL, RunRecoveryService);
