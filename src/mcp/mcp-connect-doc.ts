/** The "Connect an assistant" part of docs/mcp.md (issue 36): how each kind of client connects, step by step. */
export const CONNECT_DOC = `## Connect an assistant

Two ways in; both reach the same tools, guards and error table.

### An assistant that connects with OAuth (remote connectors, no header to paste)

The service is an OAuth protected resource and runs its own authorization server (docs/adr/0070-agents-through-oauth.md).
Nothing is configured for it beyond \`SERVICE_PUBLIC_URL\` (production: the issuer is \`<SERVICE_PUBLIC_URL>/oauth\`
and the resource \`<SERVICE_PUBLIC_URL>/\`; staging: both come from the address the service is reached at).

1. In the assistant, add a remote MCP server (a "custom connector") with the URL \`<base>/ucp/mcp\`. Leave client id
   and secret empty: the assistant registers itself (dynamic registration, RFC 7591) or names a client ID metadata
   document (an https URL it controls).
2. The assistant's first call is answered 401 with
   \`WWW-Authenticate: Bearer realm="ucp", resource_metadata="<base>/.well-known/oauth-protected-resource", scope="read operate"\`;
   it reads the protected resource metadata (RFC 9728), then the authorization server metadata at
   \`<base>/.well-known/oauth-authorization-server/oauth\` (RFC 8414), and opens the authorization page in your browser
   (authorization code with PKCE S256, \`resource=<base>/\`).
3. The browser lands on the console's **Connect an agent** page. Sign in with the operator token (or the owner's
   approver token) if the console asks. The page shows the name the client gave itself (not verified), the host
   it sends you back to, and what it asks for.
4. Pick **Read only** (every read; any write is refused with 403 \`forbidden\`, in the tool's terms: "the tool
   update_prices changes something, and this agent's grant is read only") or **Operate** (what the operator token
   does). No grant ever carries the owner's powers: resolving approvals, releasing the kill switch and replacing
   guard rules stay with the approver credential. Then **Connect** (or **Refuse**).
5. The browser goes back to the assistant, which exchanges the code for an access token (10 minutes) and a refresh
   token (rotated at every use, 30 days). It is now listed under **Agents** in the console (name, scope, last use);
   **Disconnect** refuses it from its next request on every instance, and its refresh token too.

Everything the agent does is attributed to its client: \`requested_by.client_id\` on the approvals it asks for,
\`data.agent_client_id\` on the events it causes, its own rate-limit bucket, idempotency keys bound to it, and
\`client_id\` on its request log lines. Its token is never passed to a partner, and never logged.

### An assistant or editor that takes a header, or a local-process client

Nothing changed for them: the static operator token works on REST and MCP exactly as before.

1. A client that speaks Streamable HTTP with a header:
   \`{ "mcpServers": { "vending": { "type": "http", "url": "<base>/ucp/mcp", "headers": { "Authorization": "Bearer <SERVICE_AUTH_TOKEN>" } } } }\`
2. A client that only launches local processes: \`npm run build\`, then
   \`{ "mcpServers": { "vending": { "command": "node", "args": ["/path/to/service/dist/mcp-stdio.js"], "env": { "VENDING_URL": "<base>", "VENDING_TOKEN": "<SERVICE_AUTH_TOKEN>" } } } }\`
   (the bridge forwards to the endpoint and never prints the token).

Such a client holds the operator token itself: full access, no expiry; prefer OAuth where the assistant supports it.
`;
