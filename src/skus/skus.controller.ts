import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ok } from '../common/envelope';
import { PutAliasesBody, SkuQuery } from './skus.dto';
import { SkusService } from './skus.service';

const CAPS = ['com.example.svc.sku'];

@ApiTags('skus')
@ApiBearerAuth()
@Controller('ucp/v1/skus')
export class SkusController {
  constructor(private readonly skus: SkusService) {}

  @Get(':sku_id')
  async get(@Param('sku_id') skuId: string, @Query() q: SkuQuery) {
    return ok(await this.skus.get(skuId, q.location), { capabilities: CAPS });
  }

  @Put(':sku_id/aliases')
  async putAliases(@Param('sku_id') skuId: string, @Body() body: PutAliasesBody) {
    return ok(await this.skus.putAliases(skuId, body), { capabilities: CAPS });
  }
}
