import { Body, Controller, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ok } from '../../common/envelope/envelope';
import { requireLocationId } from '../../identifiers/identifiers';
import { IdempotencyService } from '../../idempotency/idempotency.service';
import { replyOnce } from '../../idempotency/idempotent-reply';
import { RouteSettingsService } from '../route-settings.service';
import { VisitRecordService } from '../visit-record.service';
import { RecordVisitBody, RouteSettingsBody } from './visits.dto';
import { VisitsDocs } from './visits.openapi';
import { VisitsService } from '../visits.service';
import { renderMachineSettings, renderRouteDay, renderRouteSettings, renderVisit } from './visits.view';

const CAPS = ['com.example.svc.replenishment', 'com.example.svc.inventory'];

@ApiTags('replenishment')
@Controller('ucp/v1/visits')
export class VisitsController {
  constructor(
    private readonly visits: VisitsService,
    private readonly record: VisitRecordService,
    private readonly settings: RouteSettingsService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Get()
  @VisitsDocs.today
  async today() {
    const day = await this.visits.today();
    return ok({ ...renderRouteDay(day) }, { capabilities: CAPS, messages: day.messages });
  }

  @Post()
  @HttpCode(200)
  @VisitsDocs.record
  async recordVisit(@Body() body: RecordVisitBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'visits.record', resourceId: body.location_id }, async () =>
      ok({ ...renderVisit(await this.record.record(body.location_id, body.slots, body.note, body.confirm)) }, { capabilities: CAPS }),
    );
  }

  @Get('settings')
  @VisitsDocs.settings
  async getSettings() {
    return ok({ ...renderRouteSettings(this.settings.defaults(), await this.settings.machines()) }, { capabilities: CAPS });
  }

  @Put('settings/:location_id')
  @VisitsDocs.putSettings
  async putSettings(@Param('location_id') locationId: string, @Body() body: RouteSettingsBody) {
    const id = requireLocationId(locationId, '$.location_id');
    return ok({ machine: renderMachineSettings(await this.settings.put(id, body)) }, { capabilities: CAPS });
  }
}
