import { Module } from '@nestjs/common';
import { SupplyCatalogModule } from '../supply-catalog/supply-catalog.module';
import { EventsModule } from '../events/events.module';
import { PartnersModule } from '../partners/partners.module';
import { AliasService } from './alias.service';
import { SkuAliasRepository } from './sku-alias.repository';
import { SkuAliasesService } from './sku-aliases.service';
import { SkusController } from './api/skus.controller';
import { SkusService } from './skus.service';

/** The SKU registry. */
@Module({
  imports: [PartnersModule, SupplyCatalogModule, EventsModule],
  controllers: [SkusController],
  providers: [SkuAliasRepository, AliasService, SkusService, SkuAliasesService],
  exports: [AliasService],
})
export class SkusModule {}
