import { approvalExecutedOnce } from './approval-execution-once.suite';

/** Issue 27 item 1 (approval-execution-once.suite.ts) on PostgreSQL; the embedded database is approval-execution-once-embedded.e2e-spec.ts. */
approvalExecutedOnce('postgres');
