/** The OpenAPI description of the console sign-in routes. */
import { applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { ApiEndpoint } from '../common/api-docs';
import { SignInBody } from './session.dto';
import { SessionResponse } from './session.responses';

export const SessionDocs = {
  signIn: applyDecorators(
    ApiBody({ type: SignInBody, required: true }),
    ApiEndpoint({
      operationId: 'auth_session_create',
      summary: 'Sign in: exchange the operator token for the auth cookie',
      description:
        'Checks the operator token sent in the body and answers with `Set-Cookie: <SERVICE_NAME>_auth=…; HttpOnly; SameSite=Strict; Path=/` (plus `Secure` over https). The browser then sends the cookie with every API call and the event socket; no script can read it. A wrong token is 401 `unauthorized`; a page on another origin is 403 `forbidden`.',
      type: SessionResponse,
      returns: '`signed_in: true`; the cookie is in the `Set-Cookie` header.',
      errors: { 400: ['missing', 'invalid'], 401: ['unauthorized'], 403: ['forbidden'], 503: ['auth_not_configured'] },
      public: true,
    }),
  ),
  signOut: ApiEndpoint({
    operationId: 'auth_session_delete',
    summary: 'Sign out: clear the auth cookie',
    description: 'Answers with a `Set-Cookie` that expires the auth cookie. Needs no token (it only clears the caller\'s own cookie).',
    type: SessionResponse,
    returns: '`signed_in: false`.',
    errors: { 403: ['forbidden'] },
    public: true,
  }),
};
