import { Module } from '@nestjs/common';
import { McpController, McpSchemaController } from './mcp.controller';
import { McpToolsService } from './mcp-tools.service';

/** The MCP transport (issue 18): tools derived from the OpenAPI document, each call run through the REST pipeline. */
@Module({
  controllers: [McpController, McpSchemaController],
  providers: [McpToolsService],
  exports: [McpToolsService],
})
export class McpModule {}
