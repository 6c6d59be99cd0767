import type { INestApplication } from '@nestjs/common';
import { buildOpenApiDocument } from '../openapi';
import type { OpenApiDocumentLike } from './tools/mcp-schemas.rules';
import { McpToolsService } from './tools/mcp-tools.service';

/** Points the MCP tools at this application: its Express handler (tool calls) and its OpenAPI document (tool schemas). */
export function setupMcp(app: INestApplication): void {
  let doc: Promise<OpenApiDocumentLike> | null = null;
  app.get(McpToolsService).attach({
    handler: app.getHttpAdapter().getInstance() as never,
    document: () => (doc ??= buildOpenApiDocument(app) as unknown as Promise<OpenApiDocumentLike>),
  });
}
