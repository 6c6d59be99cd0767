import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestAuth } from '../../common/auth/credential';
import { Public } from '../../common/auth/public.decorator';
import { ok } from '../../common/envelope/envelope';
import { publicBase } from '../../common/public-url';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { DiscoveryService } from '../discovery.service';
import { DiscoveryDocs } from './discovery.openapi';
import { renderNamespaces, renderProfile } from './discovery.view';

@ApiTags('discovery')
@Controller()
export class DiscoveryController {
  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('.well-known/ucp')
  @DiscoveryDocs.profile
  profile(@Req() req: Request) {
    return renderProfile(this.discovery.state(), publicBase(this.config.publicUrl, req), requestAuth(req, this.config).ok, this.config.externalOAuth?.issuer ?? null);
  }

  @Get('ucp/v1/namespaces')
  @DiscoveryDocs.namespaces
  namespaces() {
    return ok(renderNamespaces(this.discovery.state()), { capabilities: ['com.example.svc.sku'] });
  }
}
