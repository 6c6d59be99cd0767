import { recoveryScheduler } from '../../coordination/recovery-scheduler';
import { CheckoutRecoveryService } from './checkout-recovery.service';

/** The lock and interval name (stable: other instances and versions take the same lock). */
export const CHECKOUT_RECOVERY_INTERVAL = 'checkout.recovery';

/**
 * Every minute, one instance at a time, settles sessions left in complete_in_progress past their claim's lease by
 * reading the supplier's GET /orders/{ref} (CheckoutRecoveryService.recoverExpired). GET and complete of such a session
 * recover it on demand too.
 */
export const CheckoutRecoveryScheduler = recoveryScheduler(CHECKOUT_RECOVERY_INTERVAL, CheckoutRecoveryService);
