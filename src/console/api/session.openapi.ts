/** The OpenAPI description of the console sign-in routes. */
import { applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { SignInBody } from './session.dto';
import { SessionResponse } from './session.responses';

export const SessionDocs = {
  signIn: applyDecorators(
    ApiBody({ type: SignInBody, required: true }),
    ApiEndpoint({
      operationId: 'auth_session_create',
      summary: 'Sign in: exchange the operator token for a session cookie',
      description:
        'Checks the token sent in the body (operator or approver) and answers with `Set-Cookie: <SERVICE_NAME>_auth=<session id>; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200` (plus `Secure` over https). The cookie holds a random session id kept server-side, never the token; it expires after 12 hours and sign-out revokes it on every instance. The browser then sends the cookie with every API call and the event socket; no script can read it. A wrong token is 401 `unauthorized`; a page on another origin is 403 `forbidden`. Attempts are rate limited per client address (`SERVICE_RATE_LIMIT_SIGN_IN`).',
      type: SessionResponse,
      returns: '`signed_in: true`; the cookie is in the `Set-Cookie` header.',
      errors: { 400: ['missing', 'invalid'], 401: ['unauthorized'], 403: ['forbidden'], 503: ['auth_not_configured'] },
      public: true,
    }),
  ),
  signOut: ApiEndpoint({
    operationId: 'auth_session_delete',
    summary: 'Sign out: revoke the session and clear the auth cookie',
    description: 'Revokes the session the auth cookie names (server-side: the same cookie replayed authenticates nothing) and answers with a `Set-Cookie` that expires it. Needs no token (it only ends the caller\'s own session).',
    type: SessionResponse,
    returns: '`signed_in: false`.',
    errors: { 403: ['forbidden'] },
    public: true,
  }),
};
