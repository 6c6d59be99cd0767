import { approvalExecutedOnce } from './approval-execution-once.suite';

/** Issue 27 item 1 (approval-execution-once.suite.ts) on the embedded database; PostgreSQL is approval-execution-once.e2e-spec.ts. */
approvalExecutedOnce('embedded');
