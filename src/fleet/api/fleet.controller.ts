import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { FleetDocs } from './fleet.openapi';
import { FleetService } from '../fleet.service';
import { renderFleet } from './fleet.view';

@ApiTags('locations')
@Controller('ucp/v1/fleet')
export class FleetController {
  constructor(private readonly fleet: FleetService) {}

  @Get()
  @FleetDocs.overview
  async overview() {
    return ok(renderFleet(await this.fleet.overview()), { capabilities: ['com.example.svc.location', 'com.example.svc.inventory'] });
  }
}
