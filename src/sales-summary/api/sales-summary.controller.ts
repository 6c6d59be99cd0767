import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { SalesDailyQuery } from './sales-summary.dto';
import { SalesSummaryDocs } from './sales-summary.openapi';
import { SalesSummaryService } from '../sales-summary.service';
import { renderSalesDaily } from './sales-summary.view';

@ApiTags('orders')
@Controller('ucp/v1/sales')
export class SalesSummaryController {
  constructor(private readonly sales: SalesSummaryService) {}

  @Get('daily')
  @SalesSummaryDocs.daily
  async daily(@Query() q: SalesDailyQuery) {
    return ok(renderSalesDaily(await this.sales.daily(q)), { capabilities: ['com.example.svc.order'] });
  }
}
