import { Module } from '@nestjs/common';
import { PartnersModule } from '../partners/partners.module';
import { SkusModule } from '../skus/skus.module';
import { CatalogController } from './api/catalog.controller';
import { CatalogService } from './catalog.service';
import { SupplyCatalogModule } from '../supply-catalog/supply-catalog.module';

/** The catalog routes (search and lookup). Supplier catalog reads live in SupplyCatalogModule. */
@Module({
  imports: [PartnersModule, SupplyCatalogModule, SkusModule],
  controllers: [CatalogController],
  providers: [CatalogService],
})
export class CatalogModule {}
