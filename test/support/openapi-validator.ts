import Ajv, { ValidateFunction } from 'ajv';
import type { OpenAPIObject } from '@nestjs/swagger';
import { isMessageCode } from '../../src/common/errors/message-codes';

/**
 * Validates real answers against the OpenAPI document the code generates: the operation must declare the status, and
 * the body must match its schema. Object schemas are made closed (no undeclared field) except the error envelope,
 * which may carry the resource beside the messages; OpenAPI 3.0 `nullable` becomes a JSON Schema null branch; a
 * `date-time` must be the service's own rendering (RFC 3339, milliseconds, +08:00).
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenAPIObject) {
    this.ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/);
    const schemas = Object.fromEntries(
      Object.entries(doc.components?.schemas ?? {}).map(([name, s]) => [name, closed(jsonSchema(s), name !== 'ErrorEnvelope')]),
    );
    this.ajv.addSchema({ $id: 'openapi.json', components: { schemas } });
  }

  /** Every operation of the document, as `METHOD /path`. */
  operations(): Record<string, true> {
    const out: Record<string, true> = {};
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const method of ['get', 'put', 'post', 'delete', 'patch']) if ((item as Record<string, unknown>)[method]) out[`${method.toUpperCase()} ${path}`] = true;
    }
    return out;
  }

  /** Whether the document describes `METHOD /path/{template}` (the document routes do not describe themselves). */
  documents(method: string, path: string): boolean {
    return !!(this.doc.paths[this.documentedPath(path)] as Record<string, unknown> | undefined)?.[method.toLowerCase()];
  }

  /** The document's spelling of a path template, whatever its parameters are named (`/runs/{run}` → `/runs/{id}`). */
  private documentedPath(path: string): string {
    if (this.doc.paths[path]) return path;
    const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}');
    return Object.keys(this.doc.paths).find((p) => shape(p) === shape(path)) ?? path;
  }

  /** Problems with one answer of `METHOD /path/{template}`; empty when it conforms. */
  problems(method: string, path: string, res: { status: number; body: unknown }): string[] {
    const op = (this.doc.paths[this.documentedPath(path)] as Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }> | undefined)?.[method.toLowerCase()];
    if (!op) return [`${method} ${path} is not in the document`];
    const declared = op.responses[String(res.status)];
    if (!declared) return [`${method} ${path} answered ${res.status}, which the document does not declare (${Object.keys(op.responses).join(', ')})`];
    // Every message code, in any answer, is one of the closed list the document describes.
    const unknown = ((res.body as { messages?: { code?: string }[] } | null)?.messages ?? []).map((m) => String(m.code)).filter((c) => !isMessageCode(c));
    if (unknown.length) return [`${method} ${path} ${res.status} answered the message code(s) ${unknown.join(', ')}, which are not in src/common/errors/message-codes.ts or error-codes.ts`];
    // An error's code must be one the operation documents for that status ("Codes: `a`, `b`.").
    const codes = res.status >= 400 ? ((res.body as { messages?: { type?: string; code?: string }[] })?.messages ?? []).filter((m) => m.type === 'error').map((m) => m.code) : [];
    const description = (declared as { description?: string }).description ?? '';
    const undocumented = codes.filter((c) => !description.includes(`\`${c}\``));
    if (undocumented.length) return [`${method} ${path} ${res.status} answered ${undocumented.join(', ')}, which its description does not list`];
    const schema = declared.content?.['application/json']?.schema as { $ref?: string } | undefined;
    if (!schema?.$ref) return [`${method} ${path} ${res.status} has no response schema`];
    const key = schema.$ref;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi.json${key}` });
      this.cache.set(key, validate);
    }
    if (validate(res.body)) return [];
    return (validate.errors ?? []).map((e) => `${method} ${path} ${res.status}: ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }
}

type Schema = Record<string, unknown>;

/** OpenAPI 3.0 → JSON Schema: `nullable: true` becomes `anyOf [schema, null]`, recursively. */
export function jsonSchema(input: unknown): Schema {
  if (Array.isArray(input)) return input.map(jsonSchema) as unknown as Schema;
  if (!input || typeof input !== 'object') return input as Schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(input as Schema)) {
    if (k === 'example' || k === 'examples') continue;
    out[k] = k === 'enum' || k === 'required' ? v : jsonSchema(v);
  }
  if (out.nullable === true) {
    delete out.nullable;
    const { description, ...rest } = out;
    return { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
  }
  delete out.nullable;
  return out;
}

/** Closes object schemas that list their properties and say nothing about others. */
function closed(schema: Schema, close: boolean): Schema {
  if (!close || !schema || typeof schema !== 'object') return schema;
  const walk = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(walk);
    if (!s || typeof s !== 'object') return s;
    const o: Schema = {};
    for (const [k, v] of Object.entries(s as Schema)) o[k] = k === 'enum' || k === 'required' ? v : walk(v);
    if (o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
    return o;
  };
  return walk(schema) as Schema;
}
