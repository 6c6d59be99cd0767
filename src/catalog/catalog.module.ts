import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SlotEntity } from '../inventory/slot.entity';
import { LocationEntity } from '../locations/location.entity';
import { SkusModule } from '../skus/skus.module';
import { CatalogController } from './catalog.controller';
import { CatalogService } from './catalog.service';
import { SlotReadRepository } from './slot-read.repository';
import { SupplyCatalogService } from './supply-catalog.service';

/**
 * Supplier catalogs and catalog routes. Global: checkout prices lines and replenishment estimates costs through
 * SupplyCatalogService without importing this module.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([SlotEntity, LocationEntity]), SkusModule],
  controllers: [CatalogController],
  providers: [SupplyCatalogService, SlotReadRepository, CatalogService],
  exports: [SupplyCatalogService, SlotReadRepository],
})
export class CatalogModule {}
