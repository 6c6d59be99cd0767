import { Body, Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ok } from '../../common/envelope/envelope';
import { IdempotencyService } from '../../idempotency/idempotency.service';
import { replyOnce } from '../../idempotency/idempotent-reply';
import { RestockBody } from './restock.dto';
import { RestockService } from '../restock.service';
import { RestockDocs } from './restock.openapi';
import { renderRestock } from './restock.view';

@ApiTags('replenishment')
@Controller('ucp/v1/locations')
export class RestockController {
  constructor(
    private readonly restock: RestockService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post(':id/restock')
  @HttpCode(200)
  @RestockDocs.send
  async send(@Param('id') id: string, @Body() body: RestockBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    // Idempotency-Key as on the other partner writes (issue 18: agents retry send_restock with the same key).
    return replyOnce(this.idempotency, req, res, { operation: 'restock.send', resourceId: id }, async () => {
      const answer = await this.restock.send(id, body);
      return ok(renderRestock(answer), { capabilities: ['com.example.svc.replenishment', 'com.example.svc.location'], messages: answer.messages });
    });
  }
}
