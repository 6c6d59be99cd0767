import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { tokenMatches, presentedToken } from './common/auth/token';
import { errorBody, message } from './common/envelope';
import { APP_CONFIG } from './config/app-config';
import openApiMetadata from './openapi-metadata';
import type { AppConfig } from './config/app-config';

/** Body and response schemas come from src/openapi-metadata.ts (generated from the DTOs by `npm run openapi:write`). */
export async function buildOpenApiDocument(app: INestApplication): Promise<OpenAPIObject> {
  await SwaggerModule.loadPluginMetadata(openApiMetadata);
  const config = new DocumentBuilder()
    .setTitle('Vending commerce service')
    .setDescription('UCP 2026-08-25 aligned commerce interface of a vending-route operator (interface 2026-09-10 v2)')
    .setVersion('2026-09-10')
    .addBearerAuth()
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the generated document at /ucp/v1/openapi.json behind the operator token (decisions.md section 10). */
export function setupOpenApi(app: INestApplication): void {
  let doc: OpenAPIObject | null = null;
  const cfg = app.get<AppConfig>(APP_CONFIG);
  const http = app.getHttpAdapter().getInstance() as { get: (p: string, h: (req: Request, res: Response) => void) => void };
  http.get('/ucp/v1/openapi.json', (req: Request, res: Response) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.status(500).json(errorBody([message('internal_error', 'unrecoverable', 'the OpenAPI document could not be built')]));
    });
  });
  const serve = async (req: Request, res: Response) => {
    if (!cfg.authToken) {
      res.status(503).json(errorBody([message('auth_not_configured', 'unrecoverable', 'the deployment has no operator token configured')]));
      return;
    }
    if (!tokenMatches(presentedToken(req.headers, cfg.serviceName), cfg.authToken)) {
      res.status(401).json(errorBody([message('unauthorized', 'unrecoverable', 'missing or wrong operator token')]));
      return;
    }
    doc ??= await buildOpenApiDocument(app);
    res.json(doc);
  };
}
