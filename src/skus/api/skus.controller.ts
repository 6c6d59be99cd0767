import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { PutAliasesBody, SkuQuery } from './skus.dto';
import { SkuAliasesService } from '../sku-aliases.service';
import { SkusService } from '../skus.service';
import { SkusDocs } from './skus.openapi';
import { renderSkuRecord } from './skus.view';

const CAPS = ['com.example.svc.sku'];

@ApiTags('skus')
@Controller('ucp/v1/skus')
export class SkusController {
  constructor(
    private readonly skus: SkusService,
    private readonly aliases: SkuAliasesService,
  ) {}

  @Get(':sku_id')
  @SkusDocs.get
  async get(@Param('sku_id') skuId: string, @Query() q: SkuQuery) {
    const r = await this.skus.get(skuId, q.location);
    return ok(renderSkuRecord(r), { capabilities: CAPS, messages: r.messages });
  }

  @Put(':sku_id/aliases')
  @SkusDocs.putAliases
  async putAliases(@Param('sku_id') skuId: string, @Body() body: PutAliasesBody) {
    const r = await this.aliases.put(skuId, body);
    return ok(renderSkuRecord(r), { capabilities: CAPS, messages: r.messages });
  }
}
