import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AcceptsChatCredential } from '../../common/auth/requires-approver.decorator';
import { DomainError } from '../../common/errors/errors';
import { publicBase } from '../../common/public-url';
import { ReadsRawBody } from '../../common/edge/request-keys.guard';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { MCP_PATH, MCP_SCHEMA_FILE } from '../../common/mcp-paths';
import { McpEndpoint } from '../mcp-server';
import { McpToolsService } from '../tools/mcp-tools.service';
import { McpTransportErrorFilter } from '../mcp-transport-error.filter';
import { openRpcDocument } from '../mcp-openrpc';

const NO_STREAM = 'the MCP endpoint is stateless Streamable HTTP: POST JSON-RPC messages to it; there is no stream to GET and no session to DELETE';

/**
 * `POST /ucp/mcp`: MCP over stateless Streamable HTTP (a fresh server and transport per request, JSON answers).
 * Behind the same global auth guard as every REST route; not an OpenAPI operation (its OpenRPC document is).
 */
@ApiExcludeController()
@UseFilters(McpTransportErrorFilter)
@Controller(MCP_PATH.slice(1))
export class McpController {
  private readonly endpoint: McpEndpoint;

  constructor(tools: McpToolsService) {
    this.endpoint = new McpEndpoint(tools);
  }

  @Post()
  @AcceptsChatCredential() // each tool call is judged again by its own route
  @ReadsRawBody()
  handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.endpoint.serve(req, res);
  }

  @Get()
  @HttpCode(405)
  noStream(): never {
    throw new DomainError('method_not_allowed', NO_STREAM);
  }

  @Delete()
  @HttpCode(405)
  noSession(): never {
    throw new DomainError('method_not_allowed', NO_STREAM);
  }
}

/** The OpenRPC document of the tools (discovery's `schema` of the mcp service), behind the token like openapi.json. */
@ApiExcludeController()
@Controller(MCP_PATH.slice(1))
export class McpSchemaController {
  constructor(
    private readonly tools: McpToolsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(MCP_SCHEMA_FILE)
  async schema(@Req() req: Request) {
    return openRpcDocument(await this.tools.tools(), publicBase(this.config.publicUrl, req));
  }
}
