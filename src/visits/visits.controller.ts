import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../common/envelope';
import { VisitsDocs } from './visits.openapi';
import { VisitsService } from './visits.service';
import { renderVisits } from './visits.view';

@ApiTags('replenishment')
@Controller('ucp/v1/visits')
export class VisitsController {
  constructor(private readonly visits: VisitsService) {}

  @Get()
  @VisitsDocs.today
  async today() {
    return ok({ ...renderVisits(await this.visits.today()) }, { capabilities: ['com.example.svc.replenishment', 'com.example.svc.inventory'] });
  }
}
