import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OPENAPI_PUBLIC } from './common/auth/public.decorator';
import { requestAuth } from './common/auth/credential';
import { CHAT_SCOPE, OPENAPI_CHAT } from './common/auth/requires-approver.decorator';
import { errorBody } from './common/envelope/envelope';
import { DomainError, Errors } from './common/errors/errors';
import { toHttp } from './common/errors/exception.filter';
import { CapabilityVersionView, ErrorEnvelope, PaymentHandlerView } from './common/envelope/envelope.responses';
import { publicBase } from './common/public-url';
import { describeValidationRules } from './common/envelope/validation-docs';
import { APP_CONFIG } from './config/app-config';
import { capabilitySchema, capabilitySchemaUrl, CAPABILITY_SCHEMA_PATH } from './discovery/capability-schemas.rules';
import { ProfileCapabilityView, ProfileServiceView } from './discovery/api/discovery.responses';
import { buildAsyncApiDocument } from './events/api/asyncapi';
import openApiMetadata from '../generated/openapi-metadata';
import type { AppConfig } from './config/app-config';

const DESCRIPTION = `UCP 2026-08-25 aligned commerce interface of a vending-route operator (interface 2026-09-10 v2): supplier catalogs, live machine shelves, wholesale purchase orders (checkout), sales, live prices, replenishment, restock requests, owner approvals and an event log.

**Read \`messages[]\` before the data.** Every answer, success or error, carries the \`ucp\` envelope and \`messages[]\` (\`code\`, \`severity\`, \`path\`, \`content\`). Severities: \`requires_buyer_review\` = stop and show a person; \`recoverable\` = fix what \`path\` names, once; \`unrecoverable\` = report; \`warning\` never blocks.

**Money paths.** Two operations spend money or change a live price: \`checkout_complete\` and \`prices_update\`. Each needs the JSON boolean \`confirm: true\`, is refused while the kill switch is engaged (409 \`kill_switch_engaged\`: no retry loop, a person releases it with \`admin_kill_switch_put\`), and is guarded (budget, probation and hard no-go for checkout; a per-item cap for prices). A guard that asks for an owner answers with \`approval_required\` and a pending approval: an owner resolves it with \`approvals_resolve\`, the agent relays, never decides. Guard rules that cannot be read refuse the write (503 \`guard_unverifiable\`). A money-moving call is never retried automatically; send an \`Idempotency-Key\` to make your own retry safe.

**Credentials.** \`Authorization: Bearer <token>\`, or the \`<SERVICE_NAME>_auth\` cookie from the service's own or an allowed page origin only (another origin, or a write without \`Origin\`, is 403 \`forbidden\`). A deployment may add an owner credential (\`SERVICE_APPROVER_TOKEN\`): then only it resolves dashboard approvals, releases the kill switch and replaces guard rules, and the operator token gets 403 \`forbidden\` there. Too many requests for one credential: 429 \`rate_limited\`, wait \`Retry-After\` seconds.

**Amounts** are integer fen (1/100 yuan, CNY); times are RFC 3339 with \`+08:00\` in answers. Sku ids are \`<vendor>-<role>:<vendor_sku>\`; namespaces and capabilities are runtime facts (\`discovery_profile\`, \`namespaces_list\`).

**Events** are also pushed on a WebSocket (\`websocket_url\` of \`com.example.svc.events\`), described by an AsyncAPI 3 document at \`/ucp/v1/events/asyncapi.json\`.`;

/** One tag per capability (the UCP capability each documents). */
const TAGS: [string, string][] = [
  ['discovery', 'Discovery and the namespace registry (`com.example.svc.sku` config). No token for the profile.'],
  ['catalog', 'Supplier catalogs and machine stock as products with their variants (`com.example.svc.sku`, `com.example.svc.inventory`).'],
  ['skus', 'The SKU registry: aliases across namespaces and where a good can be bought (`com.example.svc.sku`).'],
  ['locations', 'Machines, their live shelves and the sync (`com.example.svc.location`, `com.example.svc.inventory`).'],
  ['orders', 'Sale orders from the machine ledger and purchase orders from checkout (`com.example.svc.order`).'],
  ['checkout', 'Wholesale purchase-order sessions, one supplier per session (UCP checkout). Completing spends money.'],
  ['pricing', 'Live customer prices on machines (`com.example.svc.pricing`). A real write.'],
  ['replenishment', 'Plans, runs, restock requests and forecast scores (`com.example.svc.replenishment`).'],
  ['approvals', 'Owner approvals asked by the guards (`com.example.svc.approval`).'],
  ['events', 'The event log and its live socket (`com.example.svc.events`).'],
  ['admin', 'Guard rules and the kill switch (operator only).'],
  ['health', 'Liveness and readiness probes. No token, no data.'],
];

let rulesDescribed = false;

/**
 * The OpenAPI document, generated from the controllers: body and response models come from generated/openapi-metadata.ts
 * (generated from the DTO and `*.responses.ts` classes by `npm run openapi:write`), request bounds from the DTOs'
 * class-validator rules, operation texts from each capability's `*.openapi.ts`.
 */
export async function buildOpenApiDocument(app: INestApplication): Promise<OpenAPIObject> {
  await SwaggerModule.loadPluginMetadata(openApiMetadata);
  if (!rulesDescribed) {
    describeValidationRules();
    rulesDescribed = true;
  }
  const cfg = app.get<AppConfig>(APP_CONFIG);
  const cookie = `${cfg.serviceName}_auth`;
  const builder = new DocumentBuilder()
    .setTitle('Vending commerce service')
    .setDescription(DESCRIPTION)
    .setVersion('2026-09-10')
    .setLicense('Proprietary', 'https://example.com/license')
    .addServer('{scheme}://{host}', 'A deployment: production or staging (`npm start` serves staging at http://localhost:8080)', {
      scheme: { default: 'http', enum: ['http', 'https'] },
      host: { default: 'localhost:8080', description: 'Host and port of the deployment' },
    })
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The operator token (`SERVICE_AUTH_TOKEN`), one shared token, not a JWT. Never put it in a URL.' }, 'bearer')
    .addCookieAuth(cookie, { type: 'apiKey', in: 'cookie', name: cookie, description: `The same operator token as the \`${cookie}\` cookie (\`<SERVICE_NAME>_auth\`), for browser dashboards.` }, 'cookie')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An admin chat bot\'s token (`SERVICE_CHAT_TOKENS`): it opens only the operations that list it (listing, reading and resolving approvals) and the MCP tools that run them.' }, 'chat')
    // Issue 36: an agent's OAuth access token, from the service's own authorization server (docs/mcp.md).
    .addOAuth2(
      {
        type: 'oauth2',
        description:
          'An agent a person connected (docs/mcp.md "Connect an assistant"): protected resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource`, authorization server metadata (RFC 8414) at `/.well-known/oauth-authorization-server/oauth` (issuer `<base>/oauth`); dynamic registration (RFC 7591) or a client ID metadata document; PKCE S256; `resource` = `<base>/`. `read`: the reads only (a write is 403 `forbidden`); `operate`: what the operator token does, never the approver\'s powers.',
        flows: {
          authorizationCode: {
            authorizationUrl: '/oauth/auth',
            tokenUrl: '/oauth/token',
            refreshUrl: '/oauth/token',
            scopes: { read: 'Read only: every read, no change.', operate: 'What the operator token does, never approvals, releasing the kill switch or guard rules.' },
          },
        },
      },
      'oauth2',
    )
    .addSecurityRequirements('bearer')
    .addSecurityRequirements('cookie')
    .addSecurityRequirements('oauth2', ['read', 'operate']);
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const doc = SwaggerModule.createDocument(app, builder.build(), { extraModels: [ErrorEnvelope, CapabilityVersionView, PaymentHandlerView, ProfileServiceView, ProfileCapabilityView] });
  markPublicOperations(doc);
  markChatOperations(doc);
  dropUndocumentedHeaders(doc);
  // The token is one shared opaque string, not a JWT (DocumentBuilder says JWT by default).
  delete (doc.components?.securitySchemes?.bearer as { bearerFormat?: string } | undefined)?.bearerFormat;
  delete (doc.components?.securitySchemes?.chat as { bearerFormat?: string } | undefined)?.bearerFormat;
  return doc;
}

/**
 * A header a handler reads with `@Headers('ucp-agent')` is listed by Nest as required and undocumented; the optional,
 * described declaration of `ApiOp` (`UCP-Agent`) is the one that counts.
 */
function dropUndocumentedHeaders(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as { parameters?: { in?: string; name?: string; description?: string }[] }[]) {
      if (!op || typeof op !== 'object' || !Array.isArray(op.parameters)) continue;
      const described = new Set(op.parameters.filter((p) => p.in === 'header' && p.description).map((p) => p.name?.toLowerCase()));
      op.parameters = op.parameters.filter((p) => p.in !== 'header' || p.description || !described.has(p.name?.toLowerCase()));
    }
  }
}

/** Discovery and health need no token: their operations say `security: []`. */
function markPublicOperations(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Record<string, unknown>[]) {
      if (op && typeof op === 'object' && OPENAPI_PUBLIC in op) {
        delete op[OPENAPI_PUBLIC];
        op.security = [];
      }
    }
  }
}

/** The operations a chat credential opens (issue 37) list the `chat` scheme beside the operator's two. */
function markChatOperations(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Record<string, unknown>[]) {
      if (op && typeof op === 'object' && OPENAPI_CHAT in op) {
        delete op[OPENAPI_CHAT];
        op.security = [{ bearer: [] }, { cookie: [] }, { chat: [] }];
      }
    }
  }
}

/** Answers a refusal of the document routes (plain Express routes, outside the exception filter) as the filter does. */
function refuse(res: Response, err: DomainError): void {
  const { status, messages } = toHttp(err);
  res.status(status).json(errorBody(messages));
}

/**
 * Serves the OpenAPI document at /ucp/v1/openapi.json and the event socket's AsyncAPI document at
 * /ucp/v1/events/asyncapi.json, behind the operator token (docs/contract/), and the capabilities' JSON
 * Schemas under /.well-known/ucp/schemas/ without it (docs/adr/0008-discovery-profile.md). The served OpenAPI lists this
 * deployment's own address first.
 */
export function setupOpenApi(app: INestApplication): void {
  let doc: OpenAPIObject | null = null;
  const cfg = app.get<AppConfig>(APP_CONFIG);
  const http = app.getHttpAdapter().getInstance() as { get: (p: string, h: (req: Request, res: Response) => void) => void };
  const guarded = (build: (req: Request) => Promise<unknown>) => (req: Request, res: Response) => {
    const serve = async () => {
      // The same authentication as every route (operator or approver; the cookie only from an allowed origin).
      const auth = requestAuth(req, cfg);
      res.setHeader('Cache-Control', 'no-store');
      if (!auth.ok && auth.refusal === 'not_configured') return refuse(res, new DomainError('auth_not_configured', auth.reason));
      if (!auth.ok && auth.refusal === 'forbidden_origin') return refuse(res, Errors.forbidden(auth.reason));
      if (!auth.ok) return refuse(res, Errors.unauthorized());
      // A chat bot's credential opens approvals only (README, SERVICE_CHAT_TOKENS), not the documents (issue 37).
      if (auth.credential === 'chat') return refuse(res, Errors.forbidden(CHAT_SCOPE));
      res.json(await build(req));
    };
    serve().catch(() => {
      if (!res.headersSent) refuse(res, new DomainError('internal_error', 'the document could not be built'));
    });
  };
  http.get(
    '/ucp/v1/openapi.json',
    guarded(async (req) => {
      doc ??= await buildOpenApiDocument(app);
      return { ...doc, servers: [{ url: publicBase(cfg.publicUrl, req), description: 'This deployment' }, ...(doc.servers ?? [])] };
    }),
  );
  // Each capability's JSON Schema (discovery's `schema` URLs): public like the profile, built from the same document.
  http.get(`${CAPABILITY_SCHEMA_PATH}/:file`, (req: Request, res: Response) => {
    const file = String(req.params.file);
    const capability = file.endsWith('.json') ? file.slice(0, -'.json'.length) : '';
    const serve = async () => {
      doc ??= await buildOpenApiDocument(app);
      const schema = capabilitySchema(doc as never, capability, capabilitySchemaUrl(publicBase(cfg.publicUrl, req), capability));
      if (!schema) return refuse(res, Errors.notFound(`capability schema ${file}`));
      res.type('application/schema+json').send(JSON.stringify(schema));
    };
    serve().catch(() => {
      if (!res.headersSent) refuse(res, new DomainError('internal_error', 'the document could not be built'));
    });
  });
  http.get(
    '/ucp/v1/events/asyncapi.json',
    guarded((req) => Promise.resolve(buildAsyncApiDocument(publicBase(cfg.publicUrl, req)))),
  );
}
