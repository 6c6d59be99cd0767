import { Module } from '@nestjs/common';
import { AliasService } from './alias.service';
import { SkuAliasRepository } from './sku-alias.repository';
import { SkusController } from './skus.controller';
import { SkusService } from './skus.service';

/** The SKU registry. Uses SupplyCatalogService and SlotReadRepository from the global CatalogModule. */
@Module({
  controllers: [SkusController],
  providers: [SkuAliasRepository, AliasService, SkusService],
  exports: [AliasService],
})
export class SkusModule {}
