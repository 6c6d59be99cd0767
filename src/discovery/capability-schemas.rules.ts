/**
 * The JSON Schema of each capability that discovery names in its entry's `schema` (issue 17, UCP profile): the
 * answers of the capability's operations, taken from the service's own OpenAPI document, so the two never disagree.
 * Pure: no Nest, no I/O.
 */
import { CAPABILITY_VERSIONS, UCP_CAPABILITY_VERSIONS } from '../common/envelope/envelope';

/** Where the schemas are served: public, beside the profile they complete (no data, like the profile itself). */
export const CAPABILITY_SCHEMA_PATH = '/.well-known/ucp/schemas';

export const capabilitySchemaUrl = (base: string, capability: string): string => `${base}${CAPABILITY_SCHEMA_PATH}/${capability}.json`;

/** The OpenAPI tags whose operations make up each capability (the tags name their capability, see src/openapi.ts). */
const CAPABILITY_TAGS: Record<string, string[]> = {
  'dev.ucp.shopping.checkout': ['checkout'],
  'dev.ucp.shopping.catalog.search': ['catalog'],
  'dev.ucp.shopping.catalog.lookup': ['catalog'],
  'com.example.svc.sku': ['discovery', 'catalog', 'skus'],
  'com.example.svc.inventory': ['catalog', 'locations'],
  'com.example.svc.location': ['locations'],
  'com.example.svc.order': ['orders', 'checkout'],
  'com.example.svc.pricing': ['pricing'],
  'com.example.svc.replenishment': ['replenishment'],
  'com.example.svc.approval': ['approvals'],
  'com.example.svc.events': ['events'],
};

type Json = Record<string, unknown>;
interface OpenApiLike {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

const COMPONENT = '#/components/schemas/';

/** An OpenAPI 3.0 schema as JSON Schema 2020-12: `nullable` becomes a null branch, component refs point at `$defs`. */
export function toJsonSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(toJsonSchema);
  if (s === null || typeof s !== 'object') return s;
  const out: Json = {};
  for (const [k, v] of Object.entries(s as Json)) {
    if (k === 'nullable') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT)) out.$ref = `#/$defs/${v.slice(COMPONENT.length)}`;
    else if (k === 'properties' && v && typeof v === 'object') out.properties = Object.fromEntries(Object.entries(v as Json).map(([p, ps]) => [p, toJsonSchema(ps)]));
    else out[k] = toJsonSchema(v);
  }
  if ((s as Json).nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'], ...(Array.isArray(out.enum) ? { enum: [...out.enum, null] } : {}) };
  return { anyOf: [out, { type: 'null' }] };
}

function refsIn(s: unknown, into: Set<string>): void {
  if (Array.isArray(s)) s.forEach((x) => refsIn(x, into));
  else if (s && typeof s === 'object') {
    for (const [k, v] of Object.entries(s as Json)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT)) into.add(v.slice(COMPONENT.length));
      else refsIn(v, into);
    }
  }
}

/** The names of the success-answer models of the capability's operations, in document order. */
function rootModels(doc: OpenApiLike, tags: string[]): string[] {
  const roots = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as { tags?: string[]; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }[]) {
      if (!op || typeof op !== 'object' || !op.tags?.some((t) => tags.includes(t))) continue;
      for (const [status, r] of Object.entries(op.responses ?? {})) if (status.startsWith('2')) refsIn(r.content?.['application/json']?.schema, roots);
    }
  }
  return [...roots];
}

/** The capability's schema document, or null for a name discovery does not list. */
export function capabilitySchema(doc: OpenApiLike, capability: string, url: string): Json | null {
  const tags = CAPABILITY_TAGS[capability];
  const version = CAPABILITY_VERSIONS[capability] ?? UCP_CAPABILITY_VERSIONS[capability];
  if (!tags || !version) return null;
  const components = doc.components?.schemas ?? {};
  const roots = rootModels(doc, tags);
  // Every model the roots reach, so the document stands alone.
  const defs: Json = {};
  const todo = [...roots];
  while (todo.length) {
    const name = todo.pop()!;
    if (name in defs || !(name in components)) continue;
    defs[name] = toJsonSchema(components[name]);
    const more = new Set<string>();
    refsIn(components[name], more);
    todo.push(...more);
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: url,
    title: capability,
    description: `Answers of the ${capability} capability (version ${version}): one of the models below, as the OpenAPI document describes them.`,
    anyOf: roots.map((r) => ({ $ref: `#/$defs/${r}` })),
    $defs: defs,
  };
}
