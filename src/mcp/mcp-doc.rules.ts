/** docs/mcp.md, rendered from the tool table and the OpenAPI document (test/unit/mcp/mcp-doc.spec.ts keeps it current). */
import { CONNECT_DOC } from './mcp-connect-doc';
import { MCP_EXCLUDED_OPERATIONS } from './tools/mcp-tools.table';
import { OpenApiDocumentLike, toolDefinitions } from './tools/mcp-schemas.rules';

export function renderMcpDoc(doc: OpenApiDocumentLike): string {
  const defs = toolDefinitions(doc);
  const rows = defs.map((d) => {
    const args = Object.keys(d.tool.inputSchema.properties);
    const required = new Set(d.tool.inputSchema.required);
    const hints = [d.tool.annotations.readOnlyHint ? 'read-only' : d.spec.records ? 'records (idempotent)' : '', d.spec.movesMoney ? '**moves money**, key required' : d.tool.annotations.destructiveHint ? 'destructive' : ''].filter(Boolean).join(', ');
    return `| \`${d.tool.name}\` | \`${d.route.method} ${d.route.path}\` (\`${d.spec.operationId}\`) | ${args.map((a) => (required.has(a) ? `\`${a}\`` : `\`${a}?\``)).join(', ')} | ${hints || 'write'} |`;
  });
  return `# MCP tools

Generated from \`src/mcp/tools/mcp-tools.table.ts\` and the OpenAPI document (\`npm run openapi:write\` rewrites this file;
\`test/unit/mcp/mcp-doc.spec.ts\` fails when it is stale). Decisions: docs/adr/0045-mcp-over-rest-in-process.md.

Endpoint: \`POST <base>/ucp/mcp\`, MCP over stateless Streamable HTTP (JSON answers; GET and DELETE answer 405) in
both protocol eras: the 2026-07-28 revision (no \`initialize\`; \`server/discover\` advertises the server; every request
carries the \`_meta\` envelope and the \`MCP-Protocol-Version\`, \`Mcp-Method\` and \`Mcp-Name\` headers) and the
2025-era revisions (\`initialize\` with 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 or 2024-10-07), served by
the official SDK's v2 line (\`@modelcontextprotocol/server\`). Authentication: an agent's OAuth access token, or the
operator token as \`Authorization: Bearer …\` (or the \`<SERVICE_NAME>_auth\` cookie), exactly as the REST interface
(see "Connect an assistant" below).
Discovery (\`/.well-known/ucp\`) lists it as the \`com.example.svc\` service entry with \`transport: "mcp"\`; its
\`schema\` is \`<base>/ucp/mcp/openrpc.json\`, an OpenRPC document of these tools (token needed).

Each tool runs its REST operation in process, through the same middleware, auth guard, validation, guards,
idempotency and error table, and answers the same ucp JSON in \`structuredContent\` (and serialised in
\`content[0].text\`). A 4xx/5xx answer is a result with \`isError: true\`; \`_meta["com.example.svc/http_status"]\` is
the REST status and \`_meta["com.example.svc/idempotent_replayed"]\` marks a replay. Arguments: \`meta\`
(\`ucp-agent.profile\` → \`UCP-Agent\`, \`idempotency-key\` → \`Idempotency-Key\`), the path and query parameters by
name, and the JSON body under the payload argument. A \`?\` marks an optional argument.

| tool | REST operation | arguments | kind |
|---|---|---|---|
${rows.join('\n')}

Not tools: ${MCP_EXCLUDED_OPERATIONS.map((o) => `\`${o}\``).join(', ')} (probes, the console's sign-in, and a person's
agent connections) and the document routes.

${CONNECT_DOC}`;
}
