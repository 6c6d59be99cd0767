import { attackerCountsSuite } from './rate-limit.suite';

/** Issue 26 item 3 (rate-limit.suite.ts) on the embedded database; PostgreSQL is rate-limit.e2e-spec.ts. */
attackerCountsSuite('embedded');
