import { Module } from '@nestjs/common';
import { McpController, McpSchemaController } from './api/mcp.controller';
import { McpToolsService } from './tools/mcp-tools.service';

/** The MCP transport (issue 18): tools derived from the OpenAPI document, each call run through the REST pipeline. */
@Module({
  controllers: [McpController, McpSchemaController],
  providers: [McpToolsService],
  exports: [McpToolsService],
})
export class McpModule {}
