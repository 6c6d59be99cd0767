import { Body, Controller, HttpCode, Inject, Param, Put, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ok } from '../../common/envelope/envelope';
import { publicBase } from '../../common/public-url';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { IdempotencyService } from '../../idempotency/idempotency.service';
import { replyOnce } from '../../idempotency/idempotent-reply';
import { SetPricesBody } from './pricing.dto';
import { PricingService } from '../pricing.service';
import { renderPriceUpdate } from './pricing.view';
import { PricingDocs } from './pricing.openapi';

const CAPS = ['com.example.svc.pricing'];

@ApiTags('pricing')
@Controller('ucp/v1/locations')
export class PricingController {
  constructor(
    private readonly pricing: PricingService,
    private readonly idempotency: IdempotencyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Put(':id/prices')
  @HttpCode(200)
  @PricingDocs.setPrices
  async setPrices(@Param('id') id: string, @Body() body: SetPricesBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'pricing.update', resourceId: id }, async (attempt) => {
      const update = await this.pricing.setPrices(id, body, publicBase(this.config.publicUrl, req), attempt);
      return ok(renderPriceUpdate(update), { capabilities: CAPS, messages: update.messages });
    });
  }
}
