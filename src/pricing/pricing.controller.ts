import { Body, Controller, HttpCode, Inject, Param, Put, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { publicBase } from '../common/public-url';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { send } from '../checkout/checkout.controller';
import { idempotencyKeyOf, rawBodyOf } from '../idempotency/raw-body';
import { SetPricesBody } from './pricing.dto';
import { PricingService } from './pricing.service';
import { PricingDocs } from './pricing.openapi';

@ApiTags('pricing')
@Controller('ucp/v1/locations')
export class PricingController {
  constructor(
    private readonly pricing: PricingService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Put(':id/prices')
  @HttpCode(200)
  @PricingDocs.setPrices
  async setPrices(@Param('id') id: string, @Body() body: SetPricesBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    body.confirm = (req.body as { confirm?: unknown } | undefined)?.confirm;
    return send(res, await this.pricing.setPrices(id, body, { idempotencyKey: idempotencyKeyOf(req), rawBody: rawBodyOf(req), base: publicBase(this.config.publicUrl, req) }));
  }
}
