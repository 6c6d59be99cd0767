import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { CatalogLookupBody, CatalogSearchBody } from './catalog.dto';
import { CatalogService } from '../catalog.service';
import { CatalogDocs } from './catalog.openapi';
import { renderCatalogLookup, renderCatalogSearch } from './catalog.view';

const CAPS = ['com.example.svc.sku', 'com.example.svc.inventory'];

@ApiTags('catalog')
@Controller('ucp/v1/catalog')
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Post('search')
  @HttpCode(200)
  @CatalogDocs.search
  async search(@Body() body: CatalogSearchBody) {
    const r = await this.catalog.search(body);
    return ok(renderCatalogSearch(r), { capabilities: CAPS, messages: r.messages });
  }

  @Post('lookup')
  @HttpCode(200)
  @CatalogDocs.lookup
  async lookup(@Body() body: CatalogLookupBody) {
    const r = await this.catalog.lookup(body);
    return ok(renderCatalogLookup(r), { capabilities: CAPS, messages: r.messages });
  }
}
