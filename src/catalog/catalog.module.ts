import { Global, Module } from '@nestjs/common';
import { SupplyCatalogService } from './supply-catalog.service';

/**
 * Supplier catalogs and catalog routes. Global: checkout prices lines and replenishment estimates costs through
 * SupplyCatalogService without importing this module.
 */
@Global()
@Module({
  providers: [SupplyCatalogService],
  exports: [SupplyCatalogService],
})
export class CatalogModule {}
