import { separationOfDuties } from './chat-channel-approvals.suite';

/**
 * Issue 26 item 1, separation of duties (chat-channel-approvals.suite.ts), on the embedded database; PostgreSQL is
 * chat-channel-approvals.e2e-spec.ts, the rule without SERVICE_APPROVER_TOKEN chat-channel-approvals-spec-rule.e2e-spec.ts.
 */
separationOfDuties('embedded');
