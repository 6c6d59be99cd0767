import { MCP_PATH } from '../common/mcp-paths';
import { MCP_SERVER_VERSION } from './mcp-server';
import type { ToolDefinition } from './tools/mcp-schemas.rules';

/**
 * The tools as an OpenRPC document (UCP describes its MCP binding in OpenRPC): one method per tool, its params the
 * tool's arguments, its result the tool's output schema. Built from the same definitions tools/list answers.
 */
export function openRpcDocument(defs: ToolDefinition[], base: string) {
  return {
    openrpc: '1.3.2',
    info: {
      title: 'Vending commerce service: MCP tools',
      version: MCP_SERVER_VERSION,
      description: 'Each method is an MCP tool (tools/call with `name` = the method name and `arguments` = the params by name) that runs the REST operation it names, with the same guards and answers.',
    },
    servers: [{ name: 'mcp', url: `${base}${MCP_PATH}` }],
    methods: defs.map((d) => {
      const input = d.tool.inputSchema;
      return {
        name: d.tool.name,
        summary: d.tool.title,
        description: d.tool.description,
        paramStructure: 'by-name',
        params: Object.entries(input.properties).map(([name, schema]) => ({ name, required: input.required.includes(name), schema: withDefs(schema, input.$defs) })),
        result: { name: 'structuredContent', schema: d.resultSchema ?? { type: 'object' } },
        'x-readonly': d.tool.annotations.readOnlyHint,
        'x-destructive': d.tool.annotations.destructiveHint,
        'x-rest-operation': d.spec.operationId,
      };
    }),
  };
}

/** Each param schema stands alone: it carries the definitions its references need. */
function withDefs(schema: unknown, defs: Record<string, unknown> | undefined): unknown {
  if (!defs || !JSON.stringify(schema).includes('"$ref"')) return schema;
  return { ...(schema as object), $defs: defs };
}
