import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { SyncLocationsBody } from './sync.dto';
import { SALES_WINDOW_DEFAULT_DAYS } from '../sync.rules';
import { SyncNowGate } from '../sync-now.gate';
import { SyncDocs } from './sync.openapi';
import { renderSyncSummary } from './sync.view';

@ApiTags('locations')
@Controller('ucp/v1/locations')
export class SyncController {
  constructor(private readonly gate: SyncNowGate) {}

  @Post('sync')
  @HttpCode(200)
  @SyncDocs.syncNow
  async syncNow(@Body() body: SyncLocationsBody) {
    const summary = await this.gate.syncNow(body?.sales_window_days ?? SALES_WINDOW_DEFAULT_DAYS);
    return ok(renderSyncSummary(summary), { capabilities: ['com.example.svc.location', 'com.example.svc.inventory', 'com.example.svc.order'], messages: summary.messages });
  }
}
