/**
 * OpenAPI operation → MCP tool definition. Pure: reads the service's own OpenAPI document (built from the DTO and
 * `*.responses.ts` classes), so a tool's input and output schemas are the REST operation's and cannot drift.
 */
import { MCP_TOOLS, McpToolSpec, MONEY_NOTE } from './mcp-tools.table';

type Schema = Record<string, unknown>;

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  security?: Record<string, unknown>[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

/** The part of an OpenAPI 3.0 document the tools read. */
export interface OpenApiDocumentLike {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

/** How a tool call becomes its REST request. */
export interface ToolRoute {
  method: string;
  /** `/ucp/v1/checkout-sessions/{id}` */
  path: string;
  pathParams: string[];
  queryParams: string[];
  payload: string | null;
  /** Top-level fields of the JSON body (a REST message path `$.<field>…` names the payload argument's field). */
  bodyFields: string[];
}

export interface ToolInputSchema {
  [key: string]: unknown;
  type: 'object';
  properties: Record<string, Schema>;
  required: string[];
  $defs?: Record<string, Schema>;
}

/**
 * Who the tool's operation opens to, from its OpenAPI `security`: `anyone` (`security: []`), `chat` (it lists the
 * `chat` scheme: a chat bot's credential too), `token` (the operator and approver credentials only).
 */
export type ToolAccess = 'anyone' | 'chat' | 'token';

export interface ToolDefinition {
  spec: McpToolSpec;
  route: ToolRoute;
  access: ToolAccess;
  /** Every answer the operation documents, for the OpenRPC document; tools/list carries a one-line summary instead. */
  resultSchema?: Schema & { type: 'object' };
  tool: {
    name: string;
    title: string;
    description: string;
    inputSchema: ToolInputSchema;
    annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const REF_PREFIX = '#/components/schemas/';

/** Idempotency-Key's own bounds (the REST header's): 1 to 255 visible ASCII characters. */
const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';

/**
 * The `meta` argument, as small as it can be validated: it is repeated in every tool of tools/list, so what it means
 * is said once in the server's instructions.
 */
export function metaSchema(requireKey: boolean): Schema {
  return {
    type: 'object',
    properties: {
      'ucp-agent': { type: 'object', properties: { profile: { type: 'string', minLength: 1, maxLength: 2048 } }, required: ['profile'] },
      'idempotency-key': { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN, ...(requireKey ? { description: 'A fresh UUID per intended action; the same key to retry it.' } : {}) },
    },
    ...(requireKey ? { required: ['idempotency-key'] } : {}),
  };
}

/** Every operation of the document by its operationId. */
export function operationsById(doc: OpenApiDocumentLike): Map<string, { method: string; path: string; op: OpenApiOperation }> {
  const out = new Map<string, { method: string; path: string; op: OpenApiOperation }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OpenApiOperation | undefined;
      if (op?.operationId) out.set(op.operationId, { method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

/** The tool definitions of the table, in its order; an operationId the document lacks is a bug (thrown). */
export function toolDefinitions(doc: OpenApiDocumentLike, table: readonly McpToolSpec[] = MCP_TOOLS): ToolDefinition[] {
  const ops = operationsById(doc);
  const toolNameOf = new Map(table.map((t) => [t.operationId, t.tool]));
  return table.map((spec) => {
    const found = ops.get(spec.operationId);
    if (!found) throw new Error(`MCP tool ${spec.tool}: operation ${spec.operationId} is not in the OpenAPI document`);
    return definition(spec, found.method, found.path, found.op, doc, toolNameOf);
  });
}

function definition(spec: McpToolSpec, method: string, path: string, op: OpenApiOperation, doc: OpenApiDocumentLike, toolNameOf: Map<string, string>): ToolDefinition {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  if (!!bodySchema !== !!spec.payload) throw new Error(`MCP tool ${spec.tool}: payload ${spec.payload ?? 'none'} but the operation ${bodySchema ? 'takes' : 'takes no'} body`);
  const defs = new Map<string, Schema>();
  const properties: Record<string, Schema> = { meta: metaSchema(!!spec.movesMoney) };
  const required: string[] = spec.movesMoney ? ['meta'] : [];
  for (const p of [...pathParams, ...queryParams]) {
    if (p.name in properties) throw new Error(`MCP tool ${spec.tool}: argument ${p.name} is taken`);
    properties[p.name] = { ...(jsonSchemaOf(p.schema ?? { type: 'string' }, doc, defs) as Schema), ...(p.description ? { description: p.description } : {}) };
    if (p.in === 'path' || p.required) required.push(p.name);
  }
  if (spec.payload && bodySchema) {
    properties[spec.payload] = jsonSchemaOf(bodySchema, doc, defs) as Schema;
    if (op.requestBody?.required !== false) required.push(spec.payload);
  }
  const inputSchema: ToolInputSchema = { type: 'object', properties, required, additionalProperties: false, ...defsOf(defs) };
  const title = op.summary ?? spec.tool;
  const resultSchema = outputSchemaOf(op, doc);
  // The tool's own purpose when the table gives one (the REST text speaks of routes and statuses), else the REST text.
  const about = spec.purpose ?? [op.summary ? `${op.summary}.` : '', renameOperations(op.description ?? '', toolNameOf)].filter(Boolean).join(' ');
  const description = [about, spec.records ? `Records ${spec.records} (the same call again records nothing new).` : '', spec.movesMoney ? MONEY_NOTE : '', answersLine(op, doc)]
    .filter(Boolean)
    .join('\n\n');
  const access: ToolAccess = op.security?.length === 0 ? 'anyone' : op.security?.some((r) => 'chat' in r) ? 'chat' : 'token';
  return {
    spec,
    access,
    route: { method, path, pathParams: pathParams.map((p) => p.name), queryParams: queryParams.map((p) => p.name), payload: spec.payload ?? null, bodyFields: fieldsOf(bodySchema, doc) },
    resultSchema,
    tool: {
      name: spec.tool,
      title,
      description,
      inputSchema,
      annotations: {
        title,
        readOnlyHint: !!spec.readOnly,
        destructiveHint: !!(spec.movesMoney || spec.destructive),
        idempotentHint: method === 'GET' || method === 'PUT' || !!spec.readOnly,
        openWorldHint: !!spec.movesMoney,
      },
    },
  };
}

/** The REST texts name operations by operationId; the tool texts name the tools. */
function renameOperations(text: string, toolNameOf: Map<string, string>): string {
  return text.replace(/`([a-z_]+)`/g, (whole, id: string) => (toolNameOf.has(id) ? `\`${toolNameOf.get(id)}\`` : whole));
}

/** The top-level property names of a (referenced) object schema. */
function fieldsOf(schema: Schema | undefined, doc: OpenApiDocumentLike): string[] {
  const resolved = typeof schema?.$ref === 'string' ? (doc.components?.schemas?.[schema.$ref.slice(REF_PREFIX.length)] as Schema | undefined) : schema;
  return Object.keys((resolved?.properties as Schema | undefined) ?? {});
}

/**
 * One line naming the top-level fields of the success answer (tools/list carries no output schema: at 4 to 10 KB a
 * tool it was most of the list; the OpenRPC document keeps them whole).
 */
function answersLine(op: OpenApiOperation, doc: OpenApiDocumentLike): string {
  const ok = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1];
  const fields = fieldsOf(ok?.content?.['application/json']?.schema, doc).filter((k) => k !== 'ucp' && k !== 'messages');
  return `Answers the ucp JSON${fields.length ? `: ${fields.join(', ')}` : ''}, and messages[]. Full schema: ucp/mcp/openrpc.json.`;
}

/**
 * The union of every answer the operation documents (its success body and the error envelope), so the SDK's output
 * validation accepts refusals too. Formats other than date-time are dropped: they describe, the REST schemas are
 * checked against real answers without them.
 */
function outputSchemaOf(op: OpenApiOperation, doc: OpenApiDocumentLike): (Schema & { type: 'object' }) | undefined {
  const defs = new Map<string, Schema>();
  const branches: Schema[] = [];
  const seen = new Set<string>();
  for (const res of Object.values(op.responses)) {
    const schema = res.content?.['application/json']?.schema;
    if (!schema) continue;
    const key = JSON.stringify(schema);
    if (seen.has(key)) continue;
    seen.add(key);
    branches.push(jsonSchemaOf(schema, doc, defs, true) as Schema);
  }
  if (!branches.length) return undefined;
  return { type: 'object', anyOf: branches, ...defsOf(defs) };
}

function defsOf(defs: Map<string, Schema>): { $defs?: Record<string, Schema> } {
  return defs.size ? { $defs: Object.fromEntries([...defs.entries()].sort(([a], [b]) => a.localeCompare(b))) } : {};
}

/**
 * OpenAPI 3.0 schema → JSON Schema (2020-12 subset the SDK validates): `nullable: true` becomes a null branch,
 * component references become `#/$defs/<name>` (each referenced component copied once), examples are dropped.
 */
export function jsonSchemaOf(input: unknown, doc: OpenApiDocumentLike, defs: Map<string, Schema>, forOutput = false): unknown {
  if (Array.isArray(input)) return input.map((v) => jsonSchemaOf(v, doc, defs, forOutput));
  if (!input || typeof input !== 'object') return input;
  const src = input as Schema;
  if (typeof src.$ref === 'string' && src.$ref.startsWith(REF_PREFIX)) {
    const name = src.$ref.slice(REF_PREFIX.length);
    if (!defs.has(name)) {
      defs.set(name, {}); // placeholder first: recursive schemas stop here
      defs.set(name, jsonSchemaOf(doc.components?.schemas?.[name] ?? {}, doc, defs, forOutput) as Schema);
    }
    return { $ref: `#/$defs/${name}` };
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'example' || k === 'examples' || k === 'nullable' || k.startsWith('x-')) continue;
    if (k === 'format' && forOutput && v !== 'date-time') continue;
    out[k] = k === 'enum' || k === 'required' || k === 'default' || k === 'const' ? v : k === 'properties' ? mapValues(v as Schema, doc, defs, forOutput) : jsonSchemaOf(v, doc, defs, forOutput);
  }
  if (src.nullable === true) {
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

function mapValues(props: Schema, doc: OpenApiDocumentLike, defs: Map<string, Schema>, forOutput: boolean): Schema {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, jsonSchemaOf(v, doc, defs, forOutput)]));
}
