import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Caller } from '../../common/auth/credential';
import { Public } from '../../common/auth/public.decorator';
import { RequestCaller } from '../../common/auth/requires-approver.decorator';
import { ok } from '../../common/envelope/envelope';
import { publicBase } from '../../common/public-url';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { AgentConsentService } from '../agent-consent.service';
import { renderAgent, renderAgentRequest } from './agent.view';
import { AgentDecisionBody } from './agents.dto';
import { AgentsDocs } from './agents.openapi';
import { protectedResourceMetadata, PROTECTED_RESOURCE_PATH } from '../oauth.rules';
import { MCP_PATH } from '../../common/mcp-paths';

/** The agents a person connects through OAuth (issue 36): the consent page's two calls, the list and disconnect. */
@ApiTags('agents')
@Controller('ucp/v1/agents')
export class AgentsController {
  constructor(
    private readonly consent: AgentConsentService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @AgentsDocs.list
  async list(@RequestCaller() caller: Caller) {
    return ok({ agents: (await this.consent.list(caller)).map(renderAgent) });
  }

  @Delete(':client_id')
  @AgentsDocs.disconnect
  async disconnect(@Param('client_id') clientId: string, @RequestCaller() caller: Caller) {
    return ok({ agent: renderAgent(await this.consent.disconnect(clientId, caller)) });
  }

  @Get('requests/:uid')
  @AgentsDocs.request
  async request(@Param('uid') uid: string, @Req() req: Request, @RequestCaller() caller: Caller) {
    return ok({ request: renderAgentRequest(await this.consent.request(uid, publicBase(this.config.publicUrl, req), caller)) });
  }

  @Post('requests/:uid')
  @HttpCode(200)
  @AgentsDocs.decide
  async decide(@Param('uid') uid: string, @Body() body: AgentDecisionBody, @Req() req: Request, @RequestCaller() caller: Caller) {
    const d = await this.consent.decide(uid, publicBase(this.config.publicUrl, req), caller, body);
    return ok({ redirect_to: d.redirectTo, approved: d.approved });
  }
}

/**
 * RFC 9728 protected resource metadata: at the well-known path, and at its path-suffixed form for the MCP endpoint
 * (where 2025-era clients look first). A protocol document, not an API operation.
 */
@ApiExcludeController()
@Controller()
export class ProtectedResourceController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Public()
  @Get([PROTECTED_RESOURCE_PATH.slice(1), `${PROTECTED_RESOURCE_PATH.slice(1)}${MCP_PATH}`])
  metadata(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    res.setHeader('Cache-Control', 'public, max-age=300');
    return protectedResourceMetadata(publicBase(this.config.publicUrl, req), this.config.serviceName, this.config.externalOAuth?.issuer ?? null);
  }
}
