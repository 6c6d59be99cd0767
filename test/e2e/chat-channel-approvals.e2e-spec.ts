import { separationOfDuties } from './chat-channel-approvals.suite';

/**
 * Issue 26 item 1, separation of duties (chat-channel-approvals.suite.ts), on PostgreSQL; the embedded database is
 * chat-channel-approvals-embedded.e2e-spec.ts, the rule without SERVICE_APPROVER_TOKEN chat-channel-approvals-spec-rule.e2e-spec.ts.
 */
separationOfDuties('postgres');
