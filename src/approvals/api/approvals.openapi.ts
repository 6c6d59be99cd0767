/** The OpenAPI description of owner approvals. */
import { ApiEndpoint, describeProperty } from '../../common/envelope/api-docs';
import { ListApprovalsQuery } from './approvals.dto';
import { ApprovalResponse, ApprovalsListResponse } from './approvals.responses';

describeProperty(ListApprovalsQuery, 'status', { required: false, default: 'pending' });

export const ApprovalsDocs = {
  list: ApiEndpoint({
    operationId: 'approvals_list',
    summary: 'List owner approvals',
    description: 'Core. Approvals are asked by the guards: `checkout_budget` and `checkout_probation` (a session in `requires_escalation`), `price_change` (a price move over the cap) and `replenishment_run` (a run over budget). Default `status=pending`.',
    type: ApprovalsListResponse,
    returns: 'The approvals, newest first.',
    errors: { 400: ['invalid'] },
  }),
  get: ApiEndpoint({
    operationId: 'approvals_get',
    summary: 'Read one approval',
    description: 'The approval with its `subject` (what it is about, with ids).',
    type: ApprovalResponse,
    returns: 'The approval.',
    errors: { 404: ['not_found'] },
  }),
  resolve: ApiEndpoint({
    operationId: 'approvals_resolve',
    summary: 'Approve or reject (an owner decides)',
    description:
      'Core. An OWNER decision: an agent should relay it, not make it. Approving a `price_change` executes the parked price (the kill switch is checked then); approving a checkout approval moves the session to `ready_for_complete` (completing is still a separate, confirmed call). ' +
      'A `chat_tool` resolver must be a registered admin in a registered admin chat (else 403, nothing changes); `dashboard` (or no resolver) needs only the token, or, when `SERVICE_APPROVER_TOKEN` is configured, that approver credential (the operator token gets 403 `forbidden`). The approval records `resolver.credential` (which credential resolved it); `sender_id` is recorded as given, never verified. Resolving twice is 409 `already_resolved`. An approval whose action fails stays pending.',
    type: ApprovalResponse,
    returns: 'The resolved approval.',
    errors: { 400: ['missing', 'invalid'], 403: ['forbidden'], 404: ['not_found'], 409: ['already_resolved', 'kill_switch_engaged'], 502: ['upstream_unreachable', 'upstream_rejected'] },
  }),
  withdraw: ApiEndpoint({
    operationId: 'approvals_withdraw',
    summary: 'Withdraw a pending request (the requester takes it back)',
    description:
      'For a request made by mistake (a price sent in yuan instead of fen, a wrong run). Needs no approver credential: withdrawing never lets anything happen. ' +
      'The approval ends `rejected` with `resolver.channel: "withdrawn"` and the `reason`, recorded as an `approval.resolved` event with `data.withdrawn: true`; its rejection runs (a parked price change unlocks the item, a run is rejected, a session must change its lines to ask again). Only the credential that asked for it (`requested_by.credential`) or the approver may withdraw it: another is 403 `forbidden`. A request no longer pending is 409 `already_resolved`.',
    type: ApprovalResponse,
    returns: 'The withdrawn approval.',
    errors: { 400: ['missing', 'invalid'], 403: ['forbidden'], 404: ['not_found'], 409: ['already_resolved'] },
  }),
};
