import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ok } from '../../../common/envelope/envelope';
import { IdempotencyService } from '../../../idempotency/idempotency.service';
import { replyOnce } from '../../../idempotency/idempotent-reply';
import { REPLENISHMENT_CAPS } from '../../api/run.view';
import { DepotCountBody, DepotFillBody, DepotQuery } from './depot.dto';
import { DepotDocs } from './depot.openapi';
import { renderDepot, renderDepotCount, renderDepotFill } from './depot.view';
import { DepotService } from '../depot.service';
import { DEFAULT_DEPOT_ID } from '../depot.entity';

const CAPS = REPLENISHMENT_CAPS;

@ApiTags('replenishment')
@Controller('ucp/v1/depot')
export class DepotController {
  constructor(
    private readonly depot: DepotService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Get()
  @DepotDocs.get
  async get(@Query() q: DepotQuery) {
    return ok(renderDepot(await this.depot.page({ cursor: q.cursor, limit: q.limit })), { capabilities: CAPS });
  }

  @Post('fill')
  @HttpCode(200)
  @DepotDocs.fill
  async fill(@Body() body: DepotFillBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'depot.fill', resourceId: DEFAULT_DEPOT_ID }, async () =>
      ok(renderDepotFill(await this.depot.fill(body.fills, body.confirm)), { capabilities: CAPS }),
    );
  }

  @Post('counts')
  @HttpCode(200)
  @DepotDocs.count
  async count(@Body() body: DepotCountBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'depot.count', resourceId: DEFAULT_DEPOT_ID }, async () =>
      ok(renderDepotCount(await this.depot.count(body.counts, body.reason, body.confirm)), { capabilities: CAPS }),
    );
  }
}
