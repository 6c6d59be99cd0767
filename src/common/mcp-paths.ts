/**
 * Where the MCP endpoint (src/mcp) lives. Here in common, importing nothing, because the rate limiter and the requester
 * rules below the MCP module recognise its requests by path; the module and the discovery document read it too.
 */

/** The MCP endpoint (Streamable HTTP). */
export const MCP_PATH = '/ucp/mcp';
/** The OpenRPC document of the MCP tools, under the endpoint. */
export const MCP_SCHEMA_FILE = 'openrpc.json';
export const MCP_SCHEMA_PATH = `${MCP_PATH}/${MCP_SCHEMA_FILE}`;
