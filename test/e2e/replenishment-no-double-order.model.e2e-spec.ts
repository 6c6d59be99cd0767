import { noDoubleOrder } from './replenishment-no-double-order.model.suite';

/** Issue 25 item 6 (replenishment-no-double-order.model.suite.ts) on PostgreSQL; the embedded database is replenishment-no-double-order-embedded.model.e2e-spec.ts. */
noDoubleOrder('postgres');
