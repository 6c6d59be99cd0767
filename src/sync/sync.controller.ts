import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../common/envelope';
import { SyncLocationsBody } from './sync.dto';
import { SALES_WINDOW_DEFAULT_DAYS } from './sync.rules';
import { SyncService } from './sync.service';
import { SyncDocs } from '../locations/locations.openapi';

@ApiTags('locations')
@Controller('ucp/v1/locations')
export class SyncController {
  constructor(private readonly sync: SyncService) {}

  @Post('sync')
  @HttpCode(200)
  @SyncDocs.syncNow
  async syncNow(@Body() body: SyncLocationsBody) {
    const summary = await this.sync.syncNow(body?.sales_window_days ?? SALES_WINDOW_DEFAULT_DAYS);
    return ok(summary, { capabilities: ['com.example.svc.location', 'com.example.svc.inventory', 'com.example.svc.order'] });
  }
}
