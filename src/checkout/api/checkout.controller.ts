import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { publicBase } from '../../common/public-url';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { IdempotencyService } from '../../idempotency/idempotency.service';
import { replyOnce, replyOnceInOneTransaction } from '../../idempotency/idempotent-reply';
import { CheckoutSessionBody, CompleteBody, CreateCheckoutSessionBody } from './checkout.dto';
import { CheckoutCompletionService } from '../completion/checkout-completion.service';
import { CheckoutService } from '../checkout.service';
import { CheckoutDocs } from './checkout.openapi';
import { renderAtEdge, renderSession } from './checkout.view';

@ApiTags('checkout')
@Controller('ucp/v1/checkout-sessions')
export class CheckoutController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly completion: CheckoutCompletionService,
    private readonly idempotency: IdempotencyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @CheckoutDocs.create
  async create(@Body() body: CreateCheckoutSessionBody, @Req() req: Request, @Res({ passthrough: true }) res: Response, @Headers('ucp-agent') agent?: string) {
    // A create calls no money-moving partner: its key and answer are written in its own transaction (issue 21).
    const base = publicBase(this.config.publicUrl, req);
    return replyOnceInOneTransaction(this.idempotency, req, res, { operation: 'checkout.create', resourceId: body.id ?? '' }, (answer) =>
      renderAtEdge(base, () => this.checkout.create(body, { ucpAgent: agent }, { carryAnswer: (row) => answer.carry(() => renderSession(row, base)) })),
    );
  }

  @Get(':id')
  @CheckoutDocs.get
  async get(@Param('id') id: string, @Req() req: Request) {
    return renderAtEdge(publicBase(this.config.publicUrl, req), () => this.checkout.get(id));
  }

  @Put(':id')
  @CheckoutDocs.update
  async update(@Param('id') id: string, @Body() body: CheckoutSessionBody, @Req() req: Request) {
    return renderAtEdge(publicBase(this.config.publicUrl, req), () => this.checkout.update(id, body));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @CheckoutDocs.cancel
  async cancel(@Param('id') id: string, @Req() req: Request) {
    return renderAtEdge(publicBase(this.config.publicUrl, req), () => this.checkout.cancel(id));
  }

  @Post(':id/complete')
  @HttpCode(200)
  @CheckoutDocs.complete
  async complete(@Param('id') id: string, @Body() body: CompleteBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'checkout.complete', resourceId: id }, (attempt) =>
      renderAtEdge(publicBase(this.config.publicUrl, req), () => this.completion.complete(id, body?.confirm, attempt)),
    );
  }
}
