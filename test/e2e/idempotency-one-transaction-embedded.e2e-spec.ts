import { oneTransaction } from './idempotency-one-transaction.suite';

/** Issue 21 (idempotency-one-transaction.suite.ts) on the embedded database; PostgreSQL and the cases across instances are idempotency-one-transaction.e2e-spec.ts. */
oneTransaction('embedded');
