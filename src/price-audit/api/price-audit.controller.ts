import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { PriceAuditQuery } from './price-audit.dto';
import { PriceAuditDocs } from './price-audit.openapi';
import { PriceAuditService } from '../price-audit.service';
import { renderPriceAuditFlag } from './price-audit.view';

@ApiTags('pricing')
@Controller('ucp/v1/price-audit')
export class PriceAuditController {
  constructor(private readonly audit: PriceAuditService) {}

  @Get()
  @PriceAuditDocs.list
  async list(@Query() q: PriceAuditQuery) {
    return ok({ flags: (await this.audit.list(q.location)).map(renderPriceAuditFlag) }, { capabilities: ['com.example.svc.pricing'] });
  }
}
