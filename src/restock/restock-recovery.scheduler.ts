import { recoveryScheduler } from '../coordination/recovery-scheduler';
import { RestockRecoveryService } from './restock-recovery.service';

/** The lock and interval name (stable: other instances and versions take the same lock). */
export const RESTOCK_RECOVERY_INTERVAL = 'restock.recovery';

/**
 * Every minute, one instance at a time, settles restock requests left `sending` past their claim's lease (or whose
 * call got no usable answer) by reading the platform's GET /restock/{ref} (RestockRecoveryService.recoverExpired).
 * A resend of such a reference recovers it on demand too.
 */
export const RestockRecoveryScheduler = recoveryScheduler(RESTOCK_RECOVERY_INTERVAL, RestockRecoveryService);
