import { restockRecoverySuite } from './restock-recovery.suite';

jest.setTimeout(120_000);

/**
 * Restock recovery (restock-recovery.suite.ts) on the embedded database; PostgreSQL is restock-recovery.e2e-spec.ts,
 * and a real kill with two instances is restock-recovery-kill.e2e-spec.ts.
 */
restockRecoverySuite('embedded');
