import { noDoubleOrder } from './replenishment-no-double-order.model.suite';

/** Issue 25 item 6 (replenishment-no-double-order.model.suite.ts) on the embedded database; PostgreSQL is replenishment-no-double-order.model.e2e-spec.ts. */
noDoubleOrder('embedded');
