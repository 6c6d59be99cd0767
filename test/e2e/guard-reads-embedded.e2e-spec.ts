import { guardReads } from './guard-reads.suite';

/** Issue 9 step 6 (guard-reads.suite.ts) on the embedded database; PostgreSQL and the price update are guard-reads.e2e-spec.ts. */
guardReads('embedded');
