/** The OpenAPI description of the admin routes (guard rules and the kill switch). */
import { ApiBody } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { GuardRulesView, GuardsResponse } from './admin.responses';

export const AdminDocs = {
  getGuards: ApiEndpoint({
    operationId: 'admin_guards_get',
    summary: 'Read the guard rules and the kill switch',
    description: 'The budget, price cap, probation and hard no-go rules that guard checkout complete and price updates, and the kill switch state.',
    type: GuardsResponse,
    returns: 'The guard state.',
    errors: { 503: ['guard_unverifiable'] },
  }),
  putGuards: applyDecorators(
    ApiBody({ type: GuardRulesView, required: true }),
    ApiEndpoint({
      operationId: 'admin_guards_put',
      summary: 'Replace the guard rules',
      description: 'The whole rules document; a bad shape (a float amount, a missing part) is 400 `invalid` and nothing changes. Recorded as a `guard.changed` event. When `SERVICE_APPROVER_TOKEN` is configured only that credential may replace them (the operator token gets 403 `forbidden`).',
      type: GuardsResponse,
      returns: 'The new guard state.',
      errors: { 400: ['invalid', 'request_too_large'], 403: ['forbidden'] },
    }),
  ),
  putKillSwitch: ApiEndpoint({
    operationId: 'admin_kill_switch_put',
    summary: 'Engage or release the kill switch',
    description:
      'Engaged: checkout complete, price updates, restock requests and run place answer 409 `kill_switch_engaged`; reads keep working and nothing is queued. Only this route releases it. Recorded as a `kill_switch` event. A person decides this, not an agent loop. Any credential may engage it; when `SERVICE_APPROVER_TOKEN` is configured only that credential may release it (anything but `engaged: true` from the operator token is 403 `forbidden`).',
    type: GuardsResponse,
    returns: 'The guard state with `kill_switch`.',
    errors: { 400: ['missing', 'invalid'], 403: ['forbidden'] },
  }),
};
