/** The OpenAPI description of the agent connections (issue 36). */
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam } from '@nestjs/swagger';
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { AgentDecisionBody } from './agents.dto';
import { AgentDecisionResponse, AgentDisconnectedResponse, AgentRequestResponse, ConnectedAgentsResponse } from './agents.responses';

const PERSON = 'A person only: the operator or approver credential (the console\'s sign-in cookie, or the token); an agent\'s OAuth token is 403 `forbidden`.';

export const AgentsDocs = {
  list: ApiEndpoint({
    operationId: 'agents_list',
    summary: 'Connected agents',
    description: `The agents a person connected through OAuth (docs/mcp.md "Connect an assistant"): name, scope, who consented, last use. ${PERSON}`,
    type: ConnectedAgentsResponse,
    returns: '`agents[]`, newest first.',
    errors: { 403: ['forbidden'] },
  }),
  disconnect: applyDecorators(
    ApiParam({ name: 'client_id', description: 'The agent\'s OAuth client id (URL-encoded when it is a URL).' }),
    ApiEndpoint({
      operationId: 'agents_disconnect',
      summary: 'Disconnect an agent',
      description: `Deletes the agent's grants and every token of them: its next request is 401 on every instance, and its refresh token is refused. Recorded as an \`agent.disconnected\` event. ${PERSON}`,
      type: AgentDisconnectedResponse,
      returns: 'The agent as it was.',
      errors: { 403: ['forbidden'], 404: ['not_found'] },
    }),
  ),
  request: applyDecorators(
    ApiParam({ name: 'uid', description: 'The pending authorization (the consent page\'s address names it).' }),
    ApiEndpoint({
      operationId: 'agents_request_get',
      summary: 'What a pending authorization asks',
      description: `For the consent page: which client asks (its self-given name, the host it returns to), what it asked for, and the scopes the person may grant, in words. ${PERSON}`,
      type: AgentRequestResponse,
      returns: '`request`.',
      errors: { 403: ['forbidden'], 404: ['not_found'] },
    }),
  ),
  decide: applyDecorators(
    ApiParam({ name: 'uid', description: 'The pending authorization.' }),
    ApiBody({ type: AgentDecisionBody, required: true }),
    ApiEndpoint({
      operationId: 'agents_request_decide',
      summary: 'Connect or refuse an agent',
      description: `The person's decision: \`approve: true\` with \`scope\` (\`read\` or \`operate\`, never more than the client asked) grants this service only; \`approve: false\` refuses. The browser then goes to \`redirect_to\` (the authorization server sends it back to the client). Recorded as an \`agent.connected\` event. ${PERSON}`,
      type: AgentDecisionResponse,
      returns: '`redirect_to`.',
      errors: { 400: ['missing', 'invalid'], 403: ['forbidden'], 404: ['not_found'] },
    }),
  ),
};
